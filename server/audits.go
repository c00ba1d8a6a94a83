package server

import (
	"context"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/seo/keywords"
	"github.com/webinfra/webinfra/seo/readability"
)

// PageFetch are the fields of an audit request that name a page for the
// server to fetch (the cascade, SSRF guard and cache as for /v1/scrape)
// when the request does not carry the page itself.
type PageFetch struct {
	URL                 string `json:"url,omitempty" maxLength:"8192" example:"https://example.com/article" doc:"The page to fetch when the request does not carry it (as text or html); with html, the page's address, which links are resolved against."`
	TimeoutMS           int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Fetch timeout in milliseconds; 0 = the server default."`
	UseResidentialProxy bool   `json:"use_residential_proxy,omitempty" doc:"Let the fetch escalate to the residential proxy tier (costs a surcharge)."`
	MaxAgeMS            int64  `json:"max_age_ms,omitempty" minimum:"0" doc:"Accept a cached copy of the page up to this old; 0 = always fetch."`
}

// TargetURL names the page for the usage log.
func (p *PageFetch) TargetURL() string { return p.URL }

// UsesResidentialProxy prices the surcharge.
func (p *PageFetch) UsesResidentialProxy() bool { return p.UseResidentialProxy }

// pageUnlessGiven leaves a request that carries its text or html alone,
// and otherwise fetches the page p names into *html (as served, so its
// visible text is read), answering where it came from; without a url
// either, it answers 422.
func (s *Server) pageUnlessGiven(ctx context.Context, text string, html *string, p PageFetch) (*PageSource, error) {
	if text != "" || *html != "" {
		return nil, nil
	}
	if p.URL == "" {
		return nil, errs.Invalid("body.text", "give text, html, or a url to fetch")
	}
	page, err := s.loadPage(ctx, &ExtractRequest{URL: p.URL, TimeoutMS: p.TimeoutMS, UseResidentialProxy: p.UseResidentialProxy, MaxAgeMS: p.MaxAgeMS})
	if err != nil {
		return nil, err
	}
	*html = page.html
	return page.source, nil
}

// SeoReadabilityRequest is the body of POST /v1/seo/readability: text, html,
// or a url whose page's visible text is scored.
type SeoReadabilityRequest struct {
	readability.Input
	PageFetch
}

// SeoReadabilityResult is the answer of POST /v1/seo/readability.
type SeoReadabilityResult struct {
	readability.Result
	Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
}

func (s *Server) seoReadability(ctx context.Context, in *SeoReadabilityRequest) (*SeoReadabilityResult, error) {
	source, err := s.pageUnlessGiven(ctx, in.Text, &in.HTML, in.PageFetch)
	if err != nil {
		return nil, err
	}
	res, err := readability.Analyze(ctx, in.Input, nil)
	if err != nil {
		return nil, bodyField(err)
	}
	return &SeoReadabilityResult{Result: *res, Source: source}, nil
}

// KeywordExtractRequest is the body of POST /v1/seo/keyword-extract:
// text, html, or a url whose page's visible text is read.
type KeywordExtractRequest struct {
	keywords.Input
	PageFetch
}

// KeywordExtractResult is the answer of POST /v1/seo/keyword-extract.
type KeywordExtractResult struct {
	keywords.Result
	Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
}

func (s *Server) seoKeywordExtract(ctx context.Context, in *KeywordExtractRequest) (*KeywordExtractResult, error) {
	source, err := s.pageUnlessGiven(ctx, in.Text, &in.HTML, in.PageFetch)
	if err != nil {
		return nil, err
	}
	res, err := keywords.Extract(ctx, in.Input, nil)
	if err != nil {
		return nil, bodyField(err)
	}
	return &KeywordExtractResult{Result: *res, Source: source}, nil
}
