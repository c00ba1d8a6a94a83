package server

import (
	"context"
	"net/url"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/extract/tables"
	"github.com/webinfra/webinfra/fetch"
)

// ExtractRequest is the body of POST /v1/extract/clean and
// /v1/extract/structured: a page given as html, or a url the fetch engine
// gets (the cascade, SSRF guard and cache as for /v1/scrape).
type ExtractRequest struct {
	URL                 string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/article" doc:"The page to fetch. With html, only the page's address: links are made absolute against it and nothing is fetched."`
	HTML                string `json:"html,omitempty" maxLength:"10485760" example:"<html><head><title>Herons</title></head><body><article><h1>Herons</h1><p>The grey heron waits at the edge of the reeds.</p></article></body></html>" doc:"The page's HTML (UTF-8). Omitted: url is fetched."`
	Mode                string `json:"mode,omitempty" enum:"accurate,fast" example:"accurate" doc:"extract/clean only. accurate (default) or fast: a little less precise, several times quicker."`
	TimeoutMS           int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Fetch timeout in milliseconds; 0 = the server default."`
	UseResidentialProxy bool   `json:"use_residential_proxy,omitempty" doc:"Let the fetch escalate to the residential proxy tier (costs a surcharge)."`
	MaxAgeMS            int64  `json:"max_age_ms,omitempty" minimum:"0" doc:"Accept a cached copy of the page up to this old; 0 = always fetch."`
}

// TargetURL names the page for the usage log.
func (r *ExtractRequest) TargetURL() string { return r.URL }

// UsesResidentialProxy prices the surcharge.
func (r *ExtractRequest) UsesResidentialProxy() bool { return r.UseResidentialProxy }

// PageSource says where an extraction's page came from: present when the
// server fetched it.
type PageSource struct {
	URL         string       `json:"url"`
	FinalURL    string       `json:"final_url"`
	StatusCode  int          `json:"status_code"`
	TierUsed    fetch.Tier   `json:"tier_used" enum:"direct,render,residential"`
	CascadePath []fetch.Tier `json:"cascade_path"`
	Cached      bool         `json:"cached"`
}

// htmlPage is the HTML an extraction reads and the URL it came from.
type htmlPage struct {
	html   string
	url    string            // absolute, or "" when html came without one
	source *PageSource       // nil unless fetched
	header map[string]string // the fetched page's response headers; nil unless fetched
}

// loadPage returns the request's page: its html, or its url fetched as
// raw_html as POST /v1/scrape fetches it (errors and the tier reported
// the same way).
func (s *Server) loadPage(ctx context.Context, in *ExtractRequest) (*htmlPage, error) {
	if in.HTML != "" {
		if in.URL != "" {
			// Only a base for relative links here, but held to the same
			// http(s) rule as a URL to fetch, so every extractor gets one
			// it accepts and no error names a field the request lacks.
			if u, err := url.Parse(in.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return nil, errs.Invalid("body.url", "must be an absolute http(s) URL, got %q", in.URL)
			}
		}
		return &htmlPage{html: in.HTML, url: in.URL}, nil
	}
	if in.URL == "" {
		return nil, errs.Invalid("body.html", "give html, or a url to fetch")
	}
	// The page is worked on after the fetch, for the rest of the call, and
	// is let in once for that below (a cached page too), not also while
	// the fetch only copies it out as raw_html.
	res, err := s.scrape(fetch.WithPageAdmission(ctx, nil), &fetch.ScrapeRequest{URL: in.URL, Formats: []string{fetch.FormatRawHTML},
		TimeoutMS: in.TimeoutMS, UseResidentialProxy: in.UseResidentialProxy, MaxAgeMS: in.MaxAgeMS})
	if err != nil {
		return nil, err
	}
	if err := s.holdPage(ctx, int64(len(res.RawHTML))); err != nil {
		return nil, err
	}
	return &htmlPage{html: res.RawHTML, url: res.FinalURL, header: res.Headers, source: &PageSource{URL: res.URL, FinalURL: res.FinalURL,
		StatusCode: res.StatusCode, TierUsed: res.TierUsed, CascadePath: res.CascadePath, Cached: res.Cached}}, nil
}

// ExtractCleanResult is the answer of POST /v1/extract/clean.
type ExtractCleanResult struct {
	content.Result
	Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
}

func (s *Server) extractClean(ctx context.Context, in *ExtractRequest) (*ExtractCleanResult, error) {
	p, err := s.loadPage(ctx, in)
	if err != nil {
		return nil, err
	}
	res, err := content.Extract(ctx, content.Input{HTML: p.html, URL: p.url, Mode: content.Mode(in.Mode)}, nil)
	if err != nil {
		return nil, bodyField(err)
	}
	return &ExtractCleanResult{Result: *res, Source: p.source}, nil
}

// ExtractStructuredResult is the answer of POST /v1/extract/structured.
type ExtractStructuredResult struct {
	structured.Result
	Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
}

func (s *Server) extractStructured(ctx context.Context, in *ExtractRequest) (*ExtractStructuredResult, error) {
	p, err := s.loadPage(ctx, in)
	if err != nil {
		return nil, err
	}
	res, err := structured.Extract(ctx, structured.Input{HTML: p.html, BaseURL: p.url}, nil)
	if err != nil {
		return nil, bodyField(err)
	}
	return &ExtractStructuredResult{Result: *res, Source: p.source}, nil
}

func (s *Server) extractTables(ctx context.Context, in *tables.Input) (*tables.Result, error) {
	res, err := tables.Extract(ctx, *in, nil)
	if err != nil {
		return nil, bodyField(err)
	}
	return res, nil
}

func (s *Server) extractContacts(ctx context.Context, in *contacts.Input) (*contacts.Result, error) {
	res, err := contacts.Extract(ctx, *in, nil)
	if err != nil {
		return nil, bodyField(err)
	}
	return res, nil
}
