package server

import (
	"context"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// ScrapeRequest fetches one page.
type ScrapeRequest struct {
	URL       string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"An http or https URL."`
	TimeoutMS int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Whole-request timeout in milliseconds; 0 = the server default."`
}

// TargetURL names the page for the usage log.
func (r *ScrapeRequest) TargetURL() string { return r.URL }

// RedirectHop is one hop of a redirect chain.
type RedirectHop struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// ScrapeResponse is the fetched page.
type ScrapeResponse struct {
	URL         string            `json:"url"`
	FinalURL    string            `json:"final_url"`
	StatusCode  int               `json:"status_code" doc:"The page's HTTP status."`
	Headers     map[string]string `json:"headers" doc:"The page's response headers (multiple values joined with \", \")."`
	ContentType string            `json:"content_type"`
	HTML        string            `json:"html" doc:"The page, converted to UTF-8."`
	Markdown    string            `json:"markdown"`
	Redirects   []RedirectHop     `json:"redirects"`
	TierUsed    string            `json:"tier_used" enum:"direct,render,residential"`
	CascadePath []string          `json:"cascade_path"`
	DurationMS  float64           `json:"duration_ms"`
}

func (s *Server) scrape(ctx context.Context, in *ScrapeRequest) (*ScrapeResponse, error) {
	res, err := s.fetcher.Fetch(ctx, fetch.Request{URL: in.URL, Timeout: time.Duration(in.TimeoutMS) * time.Millisecond})
	if err != nil {
		if errs.FieldOf(err) == "url" {
			return nil, &errs.Error{Kind: errs.KindOf(err), Field: "body.url", Message: err.Error()}
		}
		return nil, err
	}
	md, err := fetch.Markdown(res.Body, res.FinalURL)
	if err != nil {
		return nil, errs.Wrap(errs.KindUpstream, err, "converting the page to markdown")
	}
	path := make([]string, len(res.CascadePath))
	for i, t := range res.CascadePath {
		path[i] = string(t)
	}
	reportFetch(ctx, in.URL, string(res.TierUsed), path)
	out := &ScrapeResponse{URL: in.URL, FinalURL: res.FinalURL, StatusCode: res.StatusCode,
		Headers: map[string]string{}, ContentType: res.ContentType, HTML: string(res.Body), Markdown: md,
		Redirects: make([]RedirectHop, 0, len(res.Redirects)), TierUsed: string(res.TierUsed), CascadePath: path,
		DurationMS: float64(res.Duration.Microseconds()) / 1000}
	for k, v := range res.Header {
		out.Headers[k] = joinValues(v)
	}
	for _, h := range res.Redirects {
		out.Redirects = append(out.Redirects, RedirectHop{URL: h.URL, Status: h.Status})
	}
	return out, nil
}

func joinValues(v []string) string { return strings.Join(v, ", ") }

// Health is the answer of GET /healthz.
type Health struct {
	Status string `json:"status" example:"ok"`
}

func (s *Server) health(ctx context.Context, _ *struct{}) (*bodyOutput[Health], error) {
	return reply(&Health{Status: "ok"}), nil
}
