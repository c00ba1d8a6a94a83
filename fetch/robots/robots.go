package robots

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// MaxBytes is how much of a robots.txt is read: 500 KiB (512,000 bytes),
// the limit RFC 9309 §2.5 lets crawlers set and Google applies. Parse
// ignores what follows, and the line the limit cuts through.
const MaxBytes = 500 << 10

// maxLineBytes is how much of one line is read; the rest of a longer line
// is ignored, as Google's parser does (8 × 2083, the longest URL browsers
// accept, less its terminating NUL).
const maxLineBytes = 2083*8 - 1

// maxWarnings bounds Robots.Warnings; one more says how many were left out.
const maxWarnings = 1000

// Directive is what a rule does: "allow" or "disallow".
type Directive string

// The two rule directives.
const (
	Allow    Directive = "allow"
	Disallow Directive = "disallow"
)

// Blanket is a decision for every URL of a site, taken from the status of
// its robots.txt rather than from rules.
type Blanket string

// The blanket decisions (see FromStatus).
const (
	// AllowAllURLs: robots.txt is unavailable (4xx, or too many
	// redirects), so there are no restrictions (RFC 9309 §2.3.1.3).
	AllowAllURLs Blanket = "allow_all"
	// DisallowAllURLs: robots.txt is unreachable (5xx, 429, network
	// error), so nothing may be crawled (RFC 9309 §2.3.1.4).
	DisallowAllURLs Blanket = "disallow_all"
)

// Robots is a parsed robots.txt, or a blanket decision made from the
// status it was answered with. Its fields are the JSON answer of a robots
// analysis; Test and CrawlDelay answer for one crawler.
type Robots struct {
	// Status is the HTTP status robots.txt was answered with, when the
	// value was made by FromStatus; 0 otherwise.
	Status int `json:"status,omitempty"`
	// Blanket, when set, decides for every URL and Groups is empty.
	Blanket Blanket `json:"blanket,omitempty"`
	// Groups are the groups in file order, as written: groups naming the
	// same crawler are merged by Test, not here.
	Groups []Group `json:"groups"`
	// Sitemaps are the absolute URLs of the Sitemap lines, wherever they
	// appear, in order and without duplicates.
	Sitemaps []string `json:"sitemaps"`
	// Warnings are the lines ignored or read with a correction, in order.
	Warnings []Warning `json:"warnings"`
}

// Group is one or more consecutive user-agent lines and the rules that
// follow them, up to the next user-agent line after a rule.
type Group struct {
	// UserAgents are the product tokens the group names, as Google reads
	// a user-agent line: the value up to its first character that is not
	// a letter, '-' or '_' ("Googlebot/2.1" names "Googlebot"); "*" for
	// the group every crawler without a group of its own obeys; "" for a
	// line naming no token, which no crawler matches.
	UserAgents []string `json:"user_agents"`
	// Rules are the group's allow and disallow lines, in order.
	Rules []Rule `json:"rules"`
	// CrawlDelays are the group's Crawl-delay lines, each with the user
	// agents it applies to (see CrawlDelay).
	CrawlDelays []CrawlDelay `json:"crawl_delays,omitempty"`
	// Line is the line number of the group's first user-agent line.
	Line int `json:"line"`
}

// CrawlDelay is a Crawl-delay line: not part of RFC 9309 and ignored by
// Google, obeyed by other crawlers. For those a Crawl-delay line is a
// group member that ends a run of user-agent lines, so it applies to the
// user agents named since the group's previous Crawl-delay line (all of
// them for the first): in "User-agent: slowbot / Crawl-delay: 30 /
// User-agent: * / Crawl-delay: 1 / Disallow: /x", which is one group as
// Google reads the rules, slowbot's delay is 30 s and everyone else's 1 s.
type CrawlDelay struct {
	UserAgents []string `json:"user_agents"`
	Seconds    float64  `json:"seconds"`
	Line       int      `json:"line"`
}

// Rule is one allow or disallow line.
type Rule struct {
	Directive Directive `json:"directive"`
	// Pattern is the rule's path pattern, normalised: percent-escapes in
	// upper case and octets outside ASCII percent-encoded ("/café" is
	// "/caf%C3%A9"). Its length in octets is the rule's priority.
	Pattern string `json:"pattern"`
	// Line is the rule's line number, from 1.
	Line int `json:"line"`
}

// Warning is a line that was ignored or read with a correction.
type Warning struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Parse reads a robots.txt body (see the package documentation for the
// rules it follows). It never fails: what it cannot read it ignores, with
// a warning.
func Parse(body []byte) *Robots {
	kept, cut := capBody(body)
	return parse(kept, cut)
}

// parse is Parse without the size cap: cut says that body was capped.
func parse(body []byte, cut bool) *Robots {
	p := parser{r: &Robots{Groups: []Group{}, Sitemaps: []string{}, Warnings: []Warning{}}, seen: map[string]bool{}}
	lines := scanLines(string(body), p.line)
	if cut {
		p.warn(lines, "robots.txt is longer than 500 KiB (512,000 bytes): line %d and everything after it are ignored (RFC 9309 §2.5)", lines)
	}
	if p.dropped > 0 {
		p.r.Warnings = append(p.r.Warnings, Warning{Line: lines, Message: fmt.Sprintf("%d more warnings not listed", p.dropped)})
	}
	return p.r
}

// parser builds a Robots line by line.
type parser struct {
	r       *Robots
	group   *Group // the group rules are added to; nil before the first user-agent line
	ruled   bool   // the current group has a rule, so a user-agent line starts a new one
	delayed int    // the current group's user agents up to this index have a crawl-delay
	seen    map[string]bool
	dropped int // warnings past maxWarnings
}

func (p *parser) warn(line int, format string, args ...any) {
	if len(p.r.Warnings) >= maxWarnings {
		p.dropped++
		return
	}
	p.r.Warnings = append(p.r.Warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}

// line reads one line (its number from 1, without its line end; cut when
// it was longer than maxLineBytes).
func (p *parser) line(num int, s string, cut bool) {
	if cut {
		p.warn(num, "line longer than %d bytes: the rest of it is ignored", maxLineBytes)
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = trimSpace(s)
	if s == "" {
		return
	}
	key, value, colon, ok := splitKeyValue(s)
	if !ok {
		p.warn(num, "not a \"key: value\" line: ignored")
		return
	}
	kind, canonical := classifyKey(key)
	switch {
	case kind == keyUnknown:
		p.warn(num, "unknown directive %q: ignored", key)
		return
	case !strings.EqualFold(key, canonical):
		p.warn(num, "%q read as %q", key, canonical)
	}
	if !colon {
		p.warn(num, "no colon after %q: read as if there were one", key)
	}
	switch kind {
	case keyUserAgent:
		p.userAgent(num, value)
	case keyAllow:
		p.rule(num, Allow, value)
	case keyDisallow:
		p.rule(num, Disallow, value)
	case keySitemap:
		p.sitemap(num, value)
	case keyCrawlDelay:
		p.crawlDelay(num, value)
	}
}

// userAgent adds a product token to the current group, or starts a group
// when the current one already has rules.
func (p *parser) userAgent(num int, value string) {
	if p.group == nil || p.ruled {
		p.r.Groups = append(p.r.Groups, Group{UserAgents: []string{}, Rules: []Rule{}, Line: num})
		p.group, p.ruled, p.delayed = &p.r.Groups[len(p.r.Groups)-1], false, 0
	}
	token := userAgentToken(value)
	switch {
	case token == "":
		p.warn(num, "user-agent %q names no product token: no crawler matches it", value)
	case token != value:
		p.warn(num, "user-agent %q read as %q", value, token)
	}
	p.group.UserAgents = append(p.group.UserAgents, token)
}

// userAgentToken is the product token a user-agent line names. A value
// that is "*", or "*" then whitespace, names every crawler (as Google
// reads it).
func userAgentToken(value string) string {
	if value == "*" || len(value) > 1 && value[0] == '*' && isSpace(value[1]) {
		return "*"
	}
	return tokenPrefix(value)
}

func (p *parser) rule(num int, d Directive, value string) {
	if p.group == nil {
		p.warn(num, "%s before any user-agent line: ignored", d)
		return
	}
	pattern := normalise(value)
	if pattern != "" && pattern[0] != '/' && pattern[0] != '*' {
		p.warn(num, "pattern %q starts with neither \"/\" nor \"*\": it matches no URL", value)
	}
	p.group.Rules = append(p.group.Rules, Rule{Directive: d, Pattern: pattern, Line: num})
	p.ruled = true
}

func (p *parser) sitemap(num int, value string) {
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.warn(num, "sitemap %q is not an absolute http(s) URL: ignored", value)
		return
	}
	if !p.seen[value] {
		p.seen[value] = true
		p.r.Sitemaps = append(p.r.Sitemaps, value)
	}
}

// delaySyntax is a Crawl-delay value: decimal seconds, maybe fractional.
var delaySyntax = regexp.MustCompile(`^([0-9]+(\.[0-9]*)?|\.[0-9]+)$`)

func (p *parser) crawlDelay(num int, value string) {
	switch {
	case p.group == nil:
		p.warn(num, "crawl-delay before any user-agent line: ignored")
		return
	case !delaySyntax.MatchString(value):
		p.warn(num, "crawl-delay %q is not a number of seconds: ignored", value)
		return
	case p.delayed == len(p.group.UserAgents):
		p.warn(num, "second crawl-delay for the same user agents (group of line %d): ignored", p.group.Line)
		return
	}
	seconds, err := strconv.ParseFloat(value, 64)
	if err != nil { // out of range: delaySyntax admits nothing else
		p.warn(num, "crawl-delay %q is too large: ignored", value)
		return
	}
	agents := append([]string(nil), p.group.UserAgents[p.delayed:]...)
	p.group.CrawlDelays = append(p.group.CrawlDelays, CrawlDelay{UserAgents: agents, Seconds: seconds, Line: num})
	p.delayed = len(p.group.UserAgents)
}
