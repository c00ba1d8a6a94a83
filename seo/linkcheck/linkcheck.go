package linkcheck

import (
	"context"
	"fmt"
	"net/url"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// Bounds of Audit.
const (
	// DefaultMaxLinks is how many links Audit probes when Input.MaxLinks
	// is 0.
	DefaultMaxLinks = 100
	// MaxMaxLinks is the most links one Audit probes.
	MaxMaxLinks = 500
)

// Input names the page whose links are checked.
type Input struct {
	URL              string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"The page whose links are checked. It is fetched through the cascade (direct, then the render tier when the server has one and the page is a JavaScript shell)."`
	MaxLinks         int    `json:"max_links,omitempty" minimum:"0" maximum:"500" example:"100" doc:"The most links probed, the first ones in page order; 0 means 100. Links past it are counted in counts.found and not probed (truncated is then true)."`
	IncludeResources bool   `json:"include_resources,omitempty" doc:"Also check images (img src), scripts (script src) and links (link href: stylesheets, icons, preloads, canonical, alternates; not preconnect or dns-prefetch), not only anchors (a href, area href)."`
}

// Options tune Audit. The zero value (or nil) means defaults.
type Options struct {
	// Probe tunes the link probes (workers, per-host politeness, timeouts,
	// time budget); see ProbeOptions.
	Probe ProbeOptions
}

// Report is the answer of the broken-links audit.
type Report struct {
	URL         string  `json:"url" doc:"The page as requested."`
	FinalURL    string  `json:"final_url" doc:"The page after redirects: links resolve against it (and its <base href>)."`
	StatusCode  int     `json:"status_code" doc:"The page's HTTP status."`
	ContentType string  `json:"content_type" doc:"The page's media type; only HTML pages have links read."`
	Counts      Counts  `json:"counts"`
	Skipped     Skipped `json:"skipped" doc:"hrefs found and not checked, by reason."`
	Links       []Link  `json:"links" doc:"Each probed link in page order, at most max_links."`
	Truncated   bool    `json:"truncated" doc:"The page had more links than max_links (or than 5,000 distinct ones, or more than 200,000 elements): only the first were probed."`
}

// Counts sum up the links.
type Counts struct {
	Found        int `json:"found" doc:"Distinct links found (after skipping), probed or not."`
	Checked      int `json:"checked" doc:"Links probed (at most max_links)."`
	Internal     int `json:"internal" doc:"Probed links on the page's own site."`
	External     int `json:"external" doc:"Probed links to other sites."`
	OK           int `json:"ok"`
	Broken       int `json:"broken" doc:"client_error + server_error + network_error + invalid_url."`
	ClientError  int `json:"client_error"`
	ServerError  int `json:"server_error"`
	NetworkError int `json:"network_error"`
	RateLimited  int `json:"rate_limited"`
	Blocked      int `json:"blocked" doc:"Refused by the SSRF guard (private, loopback or metadata addresses): never fetched, not counted as broken."`
	Unchecked    int `json:"unchecked" doc:"Not probed before the time budget ran out."`
	Redirected   int `json:"redirected" doc:"Links that answered after one or more redirects."`
}

// Link is one probed link: where the page links it and what the probe
// found.
type Link struct {
	FoundLink
	LinkStatus
}

// Audit fetches in.URL, collects its links (see Collect) and probes the
// first in.MaxLinks of them in parallel (see Probe, whose per-host
// politeness and time budget apply). A page that is not HTML has no links
// read; its report is empty but for the page's own fields.
//
// Bad input is errs.KindInvalid naming the field ("url", "max_links");
// the page's own fetch failing is that fetch's error (see
// fetch.Fetcher.Fetch); cancelling ctx returns ctx's error.
func Audit(ctx context.Context, f *fetch.Fetcher, in Input, opts *Options) (*Report, error) {
	if in.MaxLinks < 0 || in.MaxLinks > MaxMaxLinks {
		return nil, errs.Invalid("max_links", "must be between 0 and %d, got %d", MaxMaxLinks, in.MaxLinks)
	}
	if f == nil {
		return nil, errs.Invalid("fetcher", "must not be nil")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if _, err := o.Probe.resolve(); err != nil {
		return nil, err
	}
	res, err := f.Fetch(ctx, fetch.Request{URL: in.URL})
	if err != nil {
		return nil, err
	}
	rep := &Report{URL: in.URL, FinalURL: res.FinalURL, StatusCode: res.StatusCode, ContentType: res.ContentType, Links: []Link{}}
	if res.ContentType != "text/html" && res.ContentType != "application/xhtml+xml" {
		return rep, nil
	}
	doc, err := htmltag.Parse(string(res.Body), "url")
	if err != nil {
		return nil, errs.Wrap(errs.KindUpstream, err, "the page at %s cannot be parsed", in.URL)
	}
	final, err := url.Parse(res.FinalURL)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "final URL %q", res.FinalURL)
	}
	found, skipped, cut := Collect(doc, final, in.IncludeResources)
	rep.Skipped, rep.Truncated, rep.Counts.Found = skipped, cut, len(found)
	limit := cmpOr(in.MaxLinks, DefaultMaxLinks)
	if len(found) > limit {
		found, rep.Truncated = found[:limit], true
	}
	urls := make([]string, len(found))
	for i, l := range found {
		urls[i] = l.URL
	}
	statuses, err := Probe(ctx, f, urls, &o.Probe)
	if err != nil {
		return nil, fmt.Errorf("probe the links of %s: %w", in.URL, err)
	}
	for i, st := range statuses {
		rep.Links = append(rep.Links, Link{FoundLink: found[i], LinkStatus: st})
		rep.Counts.add(found[i], st)
	}
	return rep, nil
}

func (c *Counts) add(l FoundLink, st LinkStatus) {
	c.Checked++
	if l.Internal {
		c.Internal++
	} else {
		c.External++
	}
	if st.Broken {
		c.Broken++
	}
	if st.Redirects > 0 {
		c.Redirected++
	}
	switch st.Result {
	case ResultOK:
		c.OK++
	case ResultClientError:
		c.ClientError++
	case ResultServerError:
		c.ServerError++
	case ResultNetworkError:
		c.NetworkError++
	case ResultRateLimited:
		c.RateLimited++
	case ResultBlocked:
		c.Blocked++
	case ResultUnchecked:
		c.Unchecked++
	}
}
