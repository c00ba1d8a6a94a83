package fetch

import (
	"context"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// ScrapeRequest asks for one page. The same struct is the JSON body of
// POST /v1/scrape.
type ScrapeRequest struct {
	URL       string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"An http or https URL."`
	TimeoutMS int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Whole-request timeout in milliseconds; 0 = the server default."`
}

// TargetURL names the page (for usage logs).
func (r *ScrapeRequest) TargetURL() string { return r.URL }

// ScrapeResult is a fetched page with its markdown.
type ScrapeResult struct {
	URL         string            `json:"url"`
	FinalURL    string            `json:"final_url"`
	StatusCode  int               `json:"status_code" doc:"The page's HTTP status."`
	Headers     map[string]string `json:"headers" doc:"The page's response headers (repeated values joined with \", \")."`
	ContentType string            `json:"content_type"`
	HTML        string            `json:"html" doc:"The page, converted to UTF-8."`
	Markdown    string            `json:"markdown"`
	Redirects   []Hop             `json:"redirects"`
	TierUsed    Tier              `json:"tier_used" enum:"direct,render,residential"`
	CascadePath []Tier            `json:"cascade_path"`
	DurationMS  float64           `json:"duration_ms"`
}

// Scrape fetches req.URL and converts the page to markdown, with links
// made absolute against the final URL. Errors are those of Fetch.
func (f *Fetcher) Scrape(ctx context.Context, req ScrapeRequest) (*ScrapeResult, error) {
	if req.TimeoutMS < 0 {
		return nil, errs.Invalid("timeout_ms", "must not be negative")
	}
	res, err := f.Fetch(ctx, Request{URL: req.URL, Timeout: time.Duration(req.TimeoutMS) * time.Millisecond})
	if err != nil {
		return nil, err
	}
	md, err := Markdown(res.Body, res.FinalURL)
	if err != nil {
		return nil, errs.Wrap(errs.KindUpstream, err, "converting the page to markdown")
	}
	out := &ScrapeResult{URL: req.URL, FinalURL: res.FinalURL, StatusCode: res.StatusCode,
		Headers: make(map[string]string, len(res.Header)), ContentType: res.ContentType, HTML: string(res.Body),
		Markdown: md, Redirects: res.Redirects, TierUsed: res.TierUsed, CascadePath: res.CascadePath,
		DurationMS: float64(res.Duration.Microseconds()) / 1000}
	if out.Redirects == nil {
		out.Redirects = []Hop{}
	}
	for k, v := range res.Header {
		out.Headers[k] = strings.Join(v, ", ")
	}
	return out, nil
}
