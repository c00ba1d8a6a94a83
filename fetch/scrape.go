package fetch

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// The formats a scrape can return.
const (
	FormatHTML       = "html"       // the page without scripts, styles and comments
	FormatRawHTML    = "raw_html"   // the page as served, converted to UTF-8
	FormatMarkdown   = "markdown"   // CommonMark, links absolute
	FormatText       = "text"       // the visible text
	FormatLinks      = "links"      // the page's links, absolute and deduplicated
	FormatMetadata   = "metadata"   // title, description, language, canonical, OpenGraph
	FormatScreenshot = "screenshot" // a full-page PNG (render tier)
)

// Formats lists every format, in the order results are built.
var Formats = []string{FormatHTML, FormatRawHTML, FormatMarkdown, FormatText, FormatLinks, FormatMetadata, FormatScreenshot}

// ScrapeRequest asks for one page. The same struct is the JSON body of
// POST /v1/scrape.
type ScrapeRequest struct {
	URL                 string            `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"An http or https URL."`
	Formats             []string          `json:"formats,omitempty" enum:"html,raw_html,markdown,text,links,metadata,screenshot" maxItems:"7" doc:"What the result carries. html is the page without scripts and styles, raw_html the page as served (UTF-8), screenshot a base64 PNG from the render tier. Omitted: html (the page as served) and markdown."`
	Tier                Tier              `json:"tier,omitempty" enum:"direct,render,residential" doc:"Pin one fetch tier; omitted, the cascade starts at direct and escalates when the page is blocked or empty."`
	MaxTier             Tier              `json:"max_tier,omitempty" enum:"direct,render,residential" doc:"The last tier the cascade may reach."`
	TimeoutMS           int               `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Whole-request timeout in milliseconds, every tier tried included; 0 = the server default."`
	WaitFor             string            `json:"wait_for,omitempty" maxLength:"1024" doc:"A CSS selector the page must contain: the render tier waits for it, and a static page without it escalates to the render tier."`
	Headers             map[string]string `json:"headers,omitempty" maxProperties:"50" doc:"Extra request headers. Host, hop-by-hop and proxy headers are refused."`
	UseResidentialProxy bool              `json:"use_residential_proxy,omitempty" doc:"Let the cascade escalate to the residential proxy tier (costs a surcharge)."`
	RespectRobots       bool              `json:"respect_robots,omitempty" doc:"Refuse URLs the site's robots.txt disallows."`
	MainContentOnly     bool              `json:"main_content_only,omitempty" doc:"markdown and text carry the main content (the article) rather than the whole page."`
	MaxAgeMS            int64             `json:"max_age_ms,omitempty" minimum:"0" doc:"Accept a cached copy of the same scrape up to this old; 0 = always fetch."`

	// CacheScope partitions the scrape cache: a max_age_ms hit comes only
	// from a scrape of the same scope. A multi-tenant server sets it to the
	// caller's account, so one tenant never reads a page another fetched
	// (with its headers, or before it changed); a library caller may leave
	// it empty. Not part of the JSON body.
	CacheScope string `json:"-"`
}

// TargetURL names the page (for usage logs).
func (r *ScrapeRequest) TargetURL() string { return r.URL }

// UsesResidentialProxy reports whether the request may use the residential
// tier, which costs a surcharge.
func (r *ScrapeRequest) UsesResidentialProxy() bool {
	return r.UseResidentialProxy || r.Tier == TierResidential
}

// formats returns the requested formats, checked and deduplicated, in
// Formats order; none means the legacy result (html as served, markdown).
func (r *ScrapeRequest) formats() ([]string, error) {
	for _, f := range r.Formats {
		if !slices.Contains(Formats, f) {
			return nil, errs.Invalid("formats", "unknown format %q (want one of %s)", f, strings.Join(Formats, ", "))
		}
	}
	var out []string
	for _, f := range Formats {
		if slices.Contains(r.Formats, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// Metadata describes a page.
type Metadata struct {
	Title       string            `json:"title,omitempty" doc:"<title>, else og:title."`
	Description string            `json:"description,omitempty" doc:"<meta name=description>, else og:description."`
	Language    string            `json:"language,omitempty" doc:"<html lang>, else Content-Language."`
	Canonical   string            `json:"canonical,omitempty" doc:"<link rel=canonical>, absolute."`
	OpenGraph   map[string]string `json:"open_graph,omitempty" doc:"OpenGraph properties by name, e.g. og:title, og:image."`
}

// ScrapeResult is a fetched page in the formats asked for.
type ScrapeResult struct {
	URL         string            `json:"url"`
	FinalURL    string            `json:"final_url"`
	StatusCode  int               `json:"status_code" doc:"The page's HTTP status."`
	Headers     map[string]string `json:"headers" doc:"The page's response headers (repeated values joined with \", \")."`
	ContentType string            `json:"content_type"`
	HTML        string            `json:"html" doc:"Without formats: the page as served, converted to UTF-8. With format html: the page without scripts, styles and comments."`
	RawHTML     string            `json:"raw_html,omitempty" doc:"The page as served, converted to UTF-8."`
	Markdown    string            `json:"markdown" doc:"The page (or with main_content_only its main content) as CommonMark, links absolute."`
	Text        string            `json:"text,omitempty" doc:"The visible text (or with main_content_only the main content's)."`
	Links       []string          `json:"links,omitempty" doc:"The page's http(s) links, absolute, without fragments, deduplicated, in page order."`
	Metadata    *Metadata         `json:"metadata,omitempty"`
	Screenshot  string            `json:"screenshot,omitempty" contentEncoding:"base64" doc:"A full-page PNG, base64; render tier only."`
	Redirects   []Hop             `json:"redirects"`
	TierUsed    Tier              `json:"tier_used" enum:"direct,render,residential"`
	CascadePath []Tier            `json:"cascade_path" doc:"The tiers tried, in order."`
	Cached      bool              `json:"cached" doc:"The result is a cached copy (see max_age_ms)."`
	CacheAgeMS  int64             `json:"cache_age_ms,omitempty" doc:"How old the cached copy is, in milliseconds."`
	DurationMS  float64           `json:"duration_ms"`
}

// Scrape fetches req.URL through the cascade (see Fetch) and returns it in
// the formats asked for; with none, it returns html (the page as served)
// and markdown, as it did before formats existed. Links in markdown and
// links are absolute against the final URL and <base href>.
//
// With respect_robots, a URL the origin's robots.txt disallows is refused
// with errs.KindForbidden before anything else is fetched. With max_age_ms,
// a cached result of the same scrape (same URL, tiers, formats, headers)
// no older than that is returned with cached set and its age; every scrape
// that answered 2xx is kept in the bounded in-memory cache
// (Options.CacheEntries, CacheBytes), whatever its max_age_ms. Errors are
// those of Fetch, with input fields named as in the JSON body.
func (f *Fetcher) Scrape(ctx context.Context, req ScrapeRequest) (*ScrapeResult, error) {
	start := f.now()
	formats, err := req.formats()
	if err != nil {
		return nil, err
	}
	switch {
	case req.TimeoutMS < 0:
		return nil, errs.Invalid("timeout_ms", "must not be negative")
	case req.MaxAgeMS < 0:
		return nil, errs.Invalid("max_age_ms", "must not be negative")
	}
	p, err := f.prepare(ctx, req.fetchRequest(formats))
	if err != nil {
		return nil, err
	}
	defer p.cancel()
	if req.RespectRobots {
		if err := f.checkRobots(p); err != nil {
			return nil, err
		}
	}
	var key string
	if f.cache != nil {
		key = scrapeCacheKey(&req, formats)
		if req.MaxAgeMS > 0 {
			now := f.now()
			if hit, stored, ok := f.cache.Get(ctx, key, now, time.Duration(req.MaxAgeMS)*time.Millisecond); ok {
				out := hit
				out.Cached, out.CacheAgeMS = true, now.Sub(stored).Milliseconds()
				out.DurationMS = float64(f.now().Sub(start).Microseconds()) / 1000
				return out, nil
			}
		}
	}
	res, err := f.run(p)
	if err != nil {
		return nil, err
	}
	out, err := admitAndBuild(ctx, &req, res, formats)
	if err != nil {
		return nil, err
	}
	out.DurationMS = float64(f.now().Sub(start).Microseconds()) / 1000
	if f.cache != nil && out.StatusCode >= 200 && out.StatusCode <= 299 {
		f.cache.Put(ctx, key, out, f.now())
	}
	return out, nil
}

// admitAndBuild is buildResult once ctx's PageAdmission has let the page in.
func admitAndBuild(ctx context.Context, req *ScrapeRequest, res *Response, formats []string) (*ScrapeResult, error) {
	release, err := admitPage(ctx, len(res.Body))
	if err != nil {
		return nil, err
	}
	defer release()
	return buildResult(req, res, formats)
}

// fetchRequest is the Fetch request behind a scrape.
func (r *ScrapeRequest) fetchRequest(formats []string) Request {
	return Request{
		URL:            r.URL,
		Headers:        r.Headers,
		Timeout:        time.Duration(r.TimeoutMS) * time.Millisecond,
		Tier:           r.Tier,
		MaxTier:        r.MaxTier,
		UseResidential: r.UseResidentialProxy,
		WaitFor:        r.WaitFor,
		Screenshot:     slices.Contains(formats, FormatScreenshot),
	}
}
