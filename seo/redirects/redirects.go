package redirects

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Limits and thresholds.
const (
	// LongChain is the chain length (in redirects) above which a chain is
	// an error; above 1 it is a warning.
	LongChain = 3
	// MaxTraceHops is the most hops the hop-by-hop trace follows.
	MaxTraceHops = 20
	// MaxTimeoutMS bounds Input.TimeoutMS.
	MaxTimeoutMS = 120_000
)

// How a chain ended (Report.Outcome).
const (
	OutcomeAnswered = "answered"           // a final answer that is not a followed redirect
	OutcomeLoop     = "loop"               // back to a URL already visited
	OutcomeTooMany  = "too_many_redirects" // MaxTraceHops redirects and still going
	OutcomeFailed   = "failed"             // a hop did not answer
	OutcomeRefused  = "refused"            // the SSRF guard refused a hop's target
)

// Input names the URL whose redirects are mapped.
type Input struct {
	URL       string `json:"url" minLength:"1" maxLength:"8192" example:"http://example.com/old-page" doc:"The URL to follow."`
	TimeoutMS int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Timeout of the whole fetch, redirects included, in milliseconds; 0 = the server default."`
}

// Options tune Map. The zero value (or nil) means defaults.
type Options struct {
	// UserAgent is sent by the hop-by-hop trace; empty means
	// fetch.DefaultUserAgent. (The first fetch sends the fetcher's own.)
	UserAgent string
}

// Report is the redirect chain of a URL.
type Report struct {
	URL         string             `json:"url" doc:"The URL as given."`
	FinalURL    string             `json:"final_url,omitempty" doc:"Where the chain ended; absent when it did not end in an answer."`
	FinalStatus int                `json:"final_status,omitempty" doc:"The final answer's HTTP status; absent when there was none (a loop, a failed hop)."`
	Redirects   int                `json:"redirects" doc:"Redirects followed."`
	Hops        []Hop              `json:"hops" doc:"Each redirect, in order."`
	Final       *FinalPage         `json:"final,omitempty" doc:"The final answer; absent when the chain did not end in one."`
	Outcome     string             `json:"outcome" enum:"answered,loop,too_many_redirects,failed,refused" doc:"How the chain ended: in an answer (final), in a loop, past 20 traced hops, at a hop that did not answer, or at a target the SSRF guard refused."`
	Error       string             `json:"error,omitempty" doc:"Why the chain did not end in a page: the fetch's error (redirect limit, failed hop, SSRF refusal, bot wall, size cap)."`
	Traced      bool               `json:"traced" doc:"The fetch failed, so the chain was then traced hop by hop (at most 20 hops) to show where it went."`
	Findings    []auditkit.Finding `json:"findings" doc:"Problems, chain first, then hop by hop, then the final page."`
}

// Hop is one redirect.
type Hop struct {
	URL              string `json:"url" doc:"The URL that answered with a redirect."`
	Status           int    `json:"status" example:"301"`
	Location         string `json:"location" doc:"Where it redirected, absolute."`
	Permanent        bool   `json:"permanent" doc:"301 or 308."`
	SchemeChange     string `json:"scheme_change,omitempty" enum:"http_to_https,https_to_http" doc:"The hop changed the scheme."`
	HostChange       bool   `json:"host_change" doc:"The hop went to another host (or port)."`
	Canonicalisation string `json:"canonicalisation,omitempty" example:"https+www" doc:"When the hop only canonicalises the URL, what it changed, joined with +: https (http to https), www, no_www, trailing_slash, no_trailing_slash, lowercase. Such a move is permanent: 301 or 308 fits it."`
}

// FinalPage is the answer the chain ended in.
type FinalPage struct {
	URL         string   `json:"url"`
	Status      int      `json:"status"`
	ContentType string   `json:"content_type,omitempty"`
	Refresh     *Refresh `json:"refresh,omitempty" doc:"A meta refresh (or Refresh header) on the final page: a client-side redirect or reload."`
}

// Map follows in.URL's redirects with the direct tier of f (no browser)
// and reports each hop, the final answer and the problems: chains longer
// than one redirect (warning) or than LongChain (error), HTTPS to HTTP
// downgrades, 302/303/307 used for a move that only canonicalises the URL
// (see Hop.Canonicalisation), loops, redirect limits, failed or refused
// hops, a meta refresh or Refresh header on the final page, and a final
// 4xx or 5xx.
//
// The chain comes from fetch.Response.Redirects: each hop's Location is
// the URL the fetcher went to next. When the fetch fails (a loop or a
// chain past the fetcher's redirect limit, a hop that does not answer or
// that the SSRF guard refuses, a bot wall, a size cap), Map traces the
// chain again hop by hop through the fetcher's guarded client, not
// following redirects, to show where it went; that trace reads no body.
//
// Bad input is errs.KindInvalid naming the field ("url", "timeout_ms");
// a URL that cannot be fetched at all (before any redirect) is the
// fetch's error (errs.KindForbidden for an SSRF refusal, KindUpstream);
// cancelling ctx returns ctx's error. A chain that fails after a redirect
// is a report, not an error.
func Map(ctx context.Context, f *fetch.Fetcher, in Input, opts *Options) (*Report, error) {
	if f == nil {
		return nil, errs.Invalid("fetcher", "must not be nil")
	}
	if in.TimeoutMS < 0 || in.TimeoutMS > MaxTimeoutMS {
		return nil, errs.Invalid("timeout_ms", "must be between 0 and %d, got %d", MaxTimeoutMS, in.TimeoutMS)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.UserAgent == "" {
		o.UserAgent = fetch.DefaultUserAgent
	}
	timeout := time.Duration(in.TimeoutMS) * time.Millisecond
	res, err := f.Fetch(ctx, fetch.Request{URL: in.URL, Tier: fetch.TierDirect, Timeout: timeout})
	rep := &Report{URL: in.URL, Hops: []Hop{}}
	switch {
	case err == nil:
		fromResponse(rep, res)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errs.Is(err, errs.KindInvalid):
		return nil, err
	default:
		rep.Error, rep.Traced = err.Error(), true
		if err := trace(ctx, f, rep, o.UserAgent, timeout); err != nil {
			return nil, err
		}
		if len(rep.Hops) == 0 && (rep.Outcome == OutcomeFailed || rep.Outcome == OutcomeRefused) {
			return nil, err // the URL itself could not be fetched: no chain to map
		}
	}
	rep.Redirects = len(rep.Hops)
	rep.Findings = findings(rep)
	return rep, nil
}

// fromResponse fills the report from a fetch that ended in an answer.
func fromResponse(rep *Report, res *fetch.Response) {
	for i, h := range res.Redirects {
		next := res.FinalURL
		if i+1 < len(res.Redirects) {
			next = res.Redirects[i+1].URL
		}
		rep.Hops = append(rep.Hops, newHop(h.URL, h.Status, next))
	}
	rep.Outcome, rep.FinalURL, rep.FinalStatus = OutcomeAnswered, res.FinalURL, res.StatusCode
	rep.Final = &FinalPage{URL: res.FinalURL, Status: res.StatusCode, ContentType: res.ContentType}
	rep.Final.Refresh = refreshOf(res)
}

// refreshOf finds the final page's refresh: the Refresh header first (it
// takes effect before the document is parsed), else the first meta
// refresh of an HTML page.
func refreshOf(res *fetch.Response) *Refresh {
	final, err := url.Parse(res.FinalURL)
	if err != nil {
		return nil
	}
	if h := res.Header.Get("Refresh"); h != "" {
		if r := ParseRefresh(h, final); r != nil {
			r.Source = SourceHeader
			return r
		}
	}
	if res.ContentType != "text/html" && res.ContentType != "application/xhtml+xml" {
		return nil
	}
	doc, err := htmltag.Parse(string(res.Body), "url")
	if err != nil {
		return nil
	}
	return MetaRefresh(doc, final)
}

// errNoRedirect stops the trace's client at each redirect.
var errNoRedirect = http.ErrUseLastResponse

// trace follows rep.URL hop by hop, recording each redirect, until an
// answer that is not a redirect, a loop, MaxTraceHops, or a failure.
func trace(ctx context.Context, f *fetch.Fetcher, rep *Report, userAgent string, timeout time.Duration) error {
	client := *f.Client() // the fetcher's guarded transport and timeout, stopping at each redirect
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return errNoRedirect }
	if timeout > 0 {
		client.Timeout = timeout
	}
	seen := map[string]bool{}
	cur := rep.URL
	for range MaxTraceHops {
		seen[cur] = true
		status, location, err := step(ctx, &client, cur, userAgent)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			if status != 0 { // a redirect to somewhere no client goes
				rep.Hops = append(rep.Hops, newHop(cur, status, location))
			}
			rep.Outcome, rep.Error = OutcomeFailed, err.Error()
			if errs.Is(err, errs.KindForbidden) {
				rep.Outcome = OutcomeRefused
			}
			return nil
		case location == "":
			rep.Outcome, rep.FinalURL, rep.FinalStatus = OutcomeAnswered, cur, status
			rep.Final = &FinalPage{URL: cur, Status: status}
			return nil
		}
		rep.Hops = append(rep.Hops, newHop(cur, status, location))
		if seen[location] {
			rep.Outcome = OutcomeLoop
			return nil
		}
		cur = location
	}
	rep.Outcome = OutcomeTooMany
	return nil
}

// step sends one GET for u and returns its status and, for a redirect,
// its Location made absolute. A Location that is not an http(s) URL is an
// error returned with the status and the Location as written.
func step(ctx context.Context, client *http.Client, u, userAgent string) (status int, location string, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, "", errs.Wrap(errs.KindUpstream, err, "bad URL %q", u)
	}
	req.Header.Set("User-Agent", userAgent)
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, "", fmt.Errorf("hop %s: %w", u, err)
	}
	resp.Body.Close()
	if !isRedirect(resp.StatusCode) || resp.Header.Get("Location") == "" {
		return resp.StatusCode, "", nil
	}
	loc, err := resp.Location()
	if err != nil || (loc.Scheme != "http" && loc.Scheme != "https") || loc.Host == "" {
		raw := resp.Header.Get("Location")
		return resp.StatusCode, raw, errs.New(errs.KindUpstream, "hop %s: HTTP %d to %q, which is not an http(s) URL", u, resp.StatusCode, raw)
	}
	return resp.StatusCode, loc.String(), nil
}

// isRedirect is true for the statuses a client follows.
func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// newHop describes the redirect from u (answering status) to next.
func newHop(u string, status int, next string) Hop {
	h := Hop{URL: u, Status: status, Location: next,
		Permanent: status == http.StatusMovedPermanently || status == http.StatusPermanentRedirect}
	from, err1 := url.Parse(u)
	to, err2 := url.Parse(next)
	if err1 != nil || err2 != nil {
		return h
	}
	switch {
	case from.Scheme == "http" && to.Scheme == "https":
		h.SchemeChange = "http_to_https"
	case from.Scheme == "https" && to.Scheme == "http":
		h.SchemeChange = "https_to_http"
	}
	h.HostChange = hostPort(from) != hostPort(to)
	h.Canonicalisation = canonicalisation(from, to)
	return h
}
