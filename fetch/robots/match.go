package robots

import (
	"math"
	"strings"
	"time"
)

// Decision is Test's answer for one crawler and URL.
type Decision struct {
	Allowed bool `json:"allowed"`
	// MatchedRule is the rule that decided: the longest pattern matching
	// the URL among the crawler's rules, an allow rule winning a tie.
	// It is nil when no rule with a non-empty pattern matched (the URL is
	// then allowed), for /robots.txt, and for a blanket decision.
	MatchedRule *Rule `json:"matched_rule"`
}

// Test decides whether the crawler userAgent may fetch rawURL, which is
// an absolute URL or a path with its query ("/a?b"; the fragment is not
// part of it, an empty path is "/").
//
// userAgent is reduced to its product token (see ProductToken), matched
// case-insensitively against the groups' tokens. Every group naming the
// token applies, merged into one; only when none does, every "*" group
// applies. Among the applicable rules whose pattern matches the path (and
// query) the longest pattern decides, allow winning a tie; a URL no rule
// matches is allowed, and so is /robots.txt always.
func (r *Robots) Test(userAgent, rawURL string) Decision {
	path := requestPath(rawURL)
	if path == "/robots.txt" || strings.HasPrefix(path, "/robots.txt?") {
		return Decision{Allowed: true} // RFC 9309 §2.2.2: implicitly allowed
	}
	switch r.Blanket {
	case AllowAllURLs:
		return Decision{Allowed: true}
	case DisallowAllURLs:
		return Decision{Allowed: false}
	}
	allow, disallow := match{priority: -1}, match{priority: -1}
	groups, _ := r.groupsFor(ProductToken(userAgent))
	for _, g := range groups {
		for i := range g.Rules {
			rule := &g.Rules[i]
			switch rule.Directive {
			case Allow:
				allow.consider(rule, allowPriority(rule.Pattern, path))
			case Disallow:
				disallow.consider(rule, priority(rule.Pattern, path))
			}
		}
	}
	if allow.priority <= 0 && disallow.priority <= 0 {
		return Decision{Allowed: true} // no match, or only empty patterns
	}
	if disallow.priority > allow.priority {
		return Decision{Allowed: false, MatchedRule: disallow.copy()}
	}
	return Decision{Allowed: true, MatchedRule: allow.copy()}
}

// match is the best match so far of one directive: the first rule with
// the longest matching pattern.
type match struct {
	priority int // pattern length (0 for an empty pattern); -1 before a match
	rule     *Rule
}

func (m *match) consider(rule *Rule, priority int) {
	if priority > m.priority {
		m.priority, m.rule = priority, rule
	}
}

func (m *match) copy() *Rule {
	rule := *m.rule
	return &rule
}

// priority is the length of pattern when it matches path, else -1.
func priority(pattern, path string) int {
	if matches(pattern, path) {
		return len(pattern)
	}
	return -1
}

// allowPriority is priority, except that an allow pattern ending in
// "/index.htm" or anything longer ("/index.html") that does not match
// also allows its directory: "/a/index.html" allows "/a/" (Google's
// reading), with the priority of "/a/$".
func allowPriority(pattern, path string) int {
	if p := priority(pattern, path); p >= 0 {
		return p
	}
	slash := strings.LastIndexByte(pattern, '/')
	if slash < 0 || !strings.HasPrefix(pattern[slash:], "/index.htm") {
		return -1
	}
	return priority(pattern[:slash+1]+"$", path)
}

// groupsFor returns the groups that apply to a product token: those
// naming it (specific), else those naming "*".
func (r *Robots) groupsFor(token string) (groups []*Group, specific bool) {
	var named, global []*Group
	for i := range r.Groups {
		g := &r.Groups[i]
		for _, ua := range g.UserAgents {
			if ua == "*" {
				global = append(global, g)
				break
			}
			if token != "" && strings.EqualFold(ua, token) {
				named = append(named, g)
				break
			}
		}
	}
	if len(named) > 0 {
		return named, true
	}
	return global, false
}

// NamesAgent reports whether a group names userAgent's product token, so
// that Test applies that group rather than the "*" groups.
func (r *Robots) NamesAgent(userAgent string) bool {
	_, specific := r.groupsFor(ProductToken(userAgent))
	return specific
}

// CrawlDelay is the Crawl-delay set for userAgent, and whether one is:
// among the groups Test applies, the Crawl-delay lines that apply to its
// product token (or to "*", when no group names it), the longest when
// several do. A delay too long for a time.Duration is the longest one.
func (r *Robots) CrawlDelay(userAgent string) (time.Duration, bool) {
	token := ProductToken(userAgent)
	groups, specific := r.groupsFor(token)
	seconds, ok := -1.0, false
	for _, g := range groups {
		for _, d := range g.CrawlDelays {
			for _, ua := range d.UserAgents {
				if (specific && strings.EqualFold(ua, token) || !specific && ua == "*") && d.Seconds > seconds {
					seconds, ok = d.Seconds, true
				}
			}
		}
	}
	if !ok {
		return 0, false
	}
	if seconds >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64, true
	}
	return time.Duration(seconds * float64(time.Second)), true
}

// ProductToken is the token robots.txt groups are matched against, taken
// from a crawler name or a whole User-Agent header: the first run of
// letters, '-' and '_' (RFC 9309 §2.2.1), after "compatible;" when the
// header has it. "Googlebot/2.1" gives "Googlebot", "Mozilla/5.0
// (compatible; Bingbot/2.0; +url)" gives "Bingbot", and "*" or "" give ""
// (no token: only "*" groups apply).
func ProductToken(userAgent string) string {
	ua := userAgent
	const marker = "compatible;"
	for i := 0; i+len(marker) <= len(ua); i++ {
		if strings.EqualFold(ua[i:i+len(marker)], marker) {
			ua = ua[i+len(marker):]
			break
		}
	}
	return tokenPrefix(trimSpace(ua))
}

// RequestPath is the part of rawURL that rules match, as Test sees it
// (see requestPath).
func RequestPath(rawURL string) string { return requestPath(rawURL) }

// requestPath is the part of rawURL rules match, normalised: its path,
// parameters and query, without scheme, authority or fragment; "/" when
// it has none, with "/" put before one starting with "?" or ";". It reads
// an absolute URL, a scheme-relative one ("//host/p"), a host and path
// ("example.com/p") or a path, as Google's GetPathParamsQuery does.
func requestPath(raw string) string {
	start := 0
	if strings.HasPrefix(raw, "//") {
		start = 2
	}
	after := start // where the authority (or the path) starts
	if scheme := strings.Index(raw[start:], "://"); scheme >= 0 {
		early := strings.IndexAny(raw[start:], "/?;")
		if early < 0 || early > scheme {
			after = start + scheme + 3
		}
	}
	pathStart := strings.IndexAny(raw[after:], "/?;")
	if pathStart < 0 {
		return "/"
	}
	pathStart += after
	end := len(raw)
	if hash := strings.IndexByte(raw[start:], '#'); hash >= 0 {
		if start+hash < pathStart {
			return "/"
		}
		end = start + hash
	}
	path := raw[pathStart:end]
	if path[0] != '/' {
		path = "/" + path
	}
	return normalise(path)
}

// matches reports whether pattern matches path from its start: '*'
// stands for any run of octets, and a '$' that ends pattern for the end
// of path; every other octet, '$' elsewhere included, stands for itself.
//
// The segments between stars are matched leftmost-first, which is exact
// for such patterns (a match found later never leaves more room for what
// follows), so the work is at most the pattern's length times the path's,
// in strings.Index, without backtracking.
func matches(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		if anchored {
			return path == pattern
		}
		return strings.HasPrefix(path, pattern)
	}
	if !strings.HasPrefix(path, pattern[:star]) {
		return false
	}
	pos := star
	pattern = pattern[star+1:]
	for {
		star = strings.IndexByte(pattern, '*')
		if star < 0 { // the last segment
			if anchored {
				return len(path)-len(pattern) >= pos && strings.HasSuffix(path, pattern)
			}
			return strings.Contains(path[pos:], pattern)
		}
		i := strings.Index(path[pos:], pattern[:star])
		if i < 0 {
			return false
		}
		pos += i + star
		pattern = pattern[star+1:]
	}
}
