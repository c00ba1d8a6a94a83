package crawl

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"

	"github.com/webinfra/webinfra/errs"
)

// Limits and defaults of a Request.
const (
	MaxSeeds           = 100
	DefaultMaxPages    = 100
	MaxPagesLimit      = 10000
	DefaultMaxDepth    = 3
	MaxDepthLimit      = 1000
	MaxPatterns        = 50   // include and exclude patterns, each
	MaxPatternLength   = 1000 // bytes per pattern
	DefaultRatePerHost = 10.0 // requests per second per host
	MaxRatePerHost     = 1000.0
)

// Page formats: what each Page carries.
const (
	FormatMarkdown = "markdown" // Page.Markdown
	FormatHTML     = "html"     // Page.HTML
	FormatFull     = "full"     // both
)

// Request is one crawl. The same struct is the JSON body of POST /v1/crawl
// (the server adds webhook_url to its asynchronous form).
type Request struct {
	Seeds           []string `json:"seeds" minItems:"1" maxItems:"100" example:"[\"https://example.com/\"]" doc:"Start URLs (http or https). The crawl stays on the seeds' sites (host and port) unless allow_subdomains widens it."`
	MaxPages        int      `json:"max_pages,omitempty" minimum:"0" maximum:"10000" default:"100" doc:"Most pages fetched, failed fetches included; 0 = 100. One credit per page, refunded for pages not crawled."`
	MaxDepth        int      `json:"max_depth,omitempty" minimum:"0" maximum:"1000" default:"3" doc:"Most link hops from a seed (seeds and sitemap URLs are depth 0); 0 = 3."`
	Include         []string `json:"include,omitempty" maxItems:"50" doc:"Go regular expressions (RE2) matched against discovered URLs: when given, a link is followed only if one matches. Seeds are always crawled."`
	Exclude         []string `json:"exclude,omitempty" maxItems:"50" doc:"Go regular expressions matched against discovered URLs: a link that matches any is not followed."`
	AllowSubdomains bool     `json:"allow_subdomains,omitempty" doc:"Also follow links to subdomains of the seeds' hosts (a leading www. is dropped first)."`
	IgnoreRobots    bool     `json:"ignore_robots,omitempty" doc:"Do not apply robots.txt rules. By default they are obeyed for the crawler's user agent."`
	Sitemap         bool     `json:"sitemap,omitempty" doc:"Also seed from /sitemap.xml and the robots.txt Sitemap: lines of each seed's site, sitemap index files included."`
	RatePerHost     float64  `json:"rate_per_host,omitempty" minimum:"0" maximum:"1000" doc:"Requests per second to any one host; omitted or 0: 10 (a server may cap it lower by plan). A robots.txt Crawl-delay for the crawler slows its host further (unless ignore_robots)."`
	Format          string   `json:"format,omitempty" enum:"markdown,html,full" default:"markdown" doc:"What each page carries: markdown, html, or both (full)."`
}

// CreditItems is the sticker cost of the crawl: one credit per page it may
// fetch. Pages not crawled are refunded.
func (r *Request) CreditItems() int {
	switch {
	case r.MaxPages <= 0:
		return DefaultMaxPages
	case r.MaxPages > MaxPagesLimit:
		return MaxPagesLimit
	}
	return r.MaxPages
}

// TargetURL names the crawl by its first seed (for usage logs).
func (r *Request) TargetURL() string {
	if len(r.Seeds) == 0 {
		return ""
	}
	return r.Seeds[0]
}

// Validate checks the request as Crawl would, without crawling: a bad
// field is an errs.KindInvalid error naming it ("seeds[2]", "include[0]").
func (r *Request) Validate() error {
	_, err := r.plan()
	return err
}

// plan is a validated Request with defaults filled in.
type plan struct {
	seeds           []*url.URL
	maxPages        int
	maxDepth        int
	include         []*regexp.Regexp
	exclude         []*regexp.Regexp
	allowSubdomains bool
	ignoreRobots    bool
	sitemap         bool
	rate            float64
	format          string
}

func (r *Request) plan() (*plan, error) {
	p := &plan{
		maxPages:        r.MaxPages,
		maxDepth:        r.MaxDepth,
		allowSubdomains: r.AllowSubdomains,
		ignoreRobots:    r.IgnoreRobots,
		sitemap:         r.Sitemap,
		rate:            r.RatePerHost,
		format:          strings.ToLower(strings.TrimSpace(r.Format)),
	}
	var err error
	if p.seeds, err = parseSeeds(r.Seeds); err != nil {
		return nil, err
	}
	if p.maxPages, err = bounded("max_pages", p.maxPages, DefaultMaxPages, MaxPagesLimit); err != nil {
		return nil, err
	}
	if p.maxDepth, err = bounded("max_depth", p.maxDepth, DefaultMaxDepth, MaxDepthLimit); err != nil {
		return nil, err
	}
	if p.include, err = compilePatterns("include", r.Include); err != nil {
		return nil, err
	}
	if p.exclude, err = compilePatterns("exclude", r.Exclude); err != nil {
		return nil, err
	}
	switch {
	case math.IsNaN(p.rate) || p.rate < 0 || p.rate > MaxRatePerHost:
		return nil, errs.Invalid("rate_per_host", "must be between 0 and %g requests per second, got %g", MaxRatePerHost, p.rate)
	case p.rate == 0:
		p.rate = DefaultRatePerHost
	}
	switch p.format {
	case "":
		p.format = FormatMarkdown
	case FormatMarkdown, FormatHTML, FormatFull:
	default:
		return nil, errs.Invalid("format", "must be %q, %q or %q, not %q", FormatMarkdown, FormatHTML, FormatFull, r.Format)
	}
	return p, nil
}

// bounded applies a default to 0 and refuses values outside 0..max.
func bounded(field string, v, def, max int) (int, error) {
	switch {
	case v < 0:
		return 0, errs.Invalid(field, "must not be negative")
	case v > max:
		return 0, errs.Invalid(field, "must be at most %d, got %d", max, v)
	case v == 0:
		return def, nil
	}
	return v, nil
}

func parseSeeds(seeds []string) ([]*url.URL, error) {
	switch {
	case len(seeds) == 0:
		return nil, errs.Invalid("seeds", "at least one seed URL is required")
	case len(seeds) > MaxSeeds:
		return nil, errs.Invalid("seeds", "at most %d seeds, got %d", MaxSeeds, len(seeds))
	}
	out := make([]*url.URL, len(seeds))
	for i, s := range seeds {
		field := fmt.Sprintf("seeds[%d]", i)
		u, err := url.Parse(strings.TrimSpace(s))
		switch {
		case err != nil:
			return nil, errs.Invalid(field, "is not a valid URL: %v", unwrapURLError(err))
		case u.Scheme != "http" && u.Scheme != "https":
			return nil, errs.Invalid(field, "scheme must be http or https, not %q", u.Scheme)
		case u.Hostname() == "":
			return nil, errs.Invalid(field, "must have a host")
		case u.User != nil:
			return nil, errs.Invalid(field, "must not contain credentials (user:password@)")
		}
		u.Fragment, u.RawFragment = "", ""
		out[i] = u
	}
	return out, nil
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

func compilePatterns(field string, patterns []string) ([]*regexp.Regexp, error) {
	if len(patterns) > MaxPatterns {
		return nil, errs.Invalid(field, "at most %d patterns, got %d", MaxPatterns, len(patterns))
	}
	out := make([]*regexp.Regexp, 0, len(patterns))
	for i, p := range patterns {
		name := fmt.Sprintf("%s[%d]", field, i)
		if len(p) > MaxPatternLength {
			return nil, errs.Invalid(name, "pattern longer than %d bytes", MaxPatternLength)
		}
		re, err := compiled.get(p)
		if err != nil {
			return nil, errs.Invalid(name, "%v", err)
		}
		out = append(out, re)
	}
	return out, nil
}

// Page is one crawled (or failed) page.
type Page struct {
	URL         string `json:"url" doc:"The URL as discovered."`
	FinalURL    string `json:"final_url,omitempty" doc:"Where redirects ended, when not url."`
	Depth       int    `json:"depth" doc:"Link hops from a seed."`
	StatusCode  int    `json:"status_code,omitempty" doc:"The page's HTTP status; absent when the fetch failed."`
	ContentType string `json:"content_type,omitempty"`
	Title       string `json:"title,omitempty"`
	Markdown    string `json:"markdown,omitempty" doc:"The page as Markdown (formats markdown and full); plain-text pages as they are."`
	HTML        string `json:"html,omitempty" doc:"The page as UTF-8 HTML (formats html and full)."`
	Links       int    `json:"links" doc:"Distinct http(s) links on the page."`
	Error       string `json:"error,omitempty" doc:"Why the page could not be fetched or converted."`
}

// Result is a finished crawl.
type Result struct {
	Pages           []Page `json:"pages" doc:"Every page fetched or failed, by depth then URL."`
	Crawled         int    `json:"crawled" doc:"Pages answered with a status below 400: the pages charged."`
	Failed          int    `json:"failed" doc:"Pages answered 400 or more (listed with their status) or not answered (network, timeout, SSRF guard, robots.txt unreachable); not charged."`
	SkippedByRobots int    `json:"skipped_by_robots" doc:"Distinct URLs not fetched because robots.txt disallows them."`
	Truncated       bool   `json:"truncated" doc:"max_pages was reached while more pages were waiting."`
}
