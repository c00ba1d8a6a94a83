package server

import (
	"context"
	"net/url"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/aeo/headings"
	"github.com/webinfra/webinfra/aeo/snippetformat"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit"
)

// PageAuditRequest is the body of the audits that read one page's HTML:
// html, or a url the server fetches.
type PageAuditRequest struct {
	HTML string `json:"html,omitempty" maxLength:"10485760" example:"<html><head><title>Herons</title></head><body><h1>Herons</h1><p>The grey heron waits.</p></body></html>" doc:"The page's HTML (UTF-8). Omitted: url is fetched. With html, url is only the page's address (links are resolved against it)."`
	PageFetch
}

// The bodies of the HTML audits, named as SPEC names them.
type (
	MixedContentRequest         struct{ PageAuditRequest }
	AnchorTextAuditRequest      struct{ PageAuditRequest }
	SeoMetaAuditRequest         struct{ PageAuditRequest }
	SeoSnippetCandidatesRequest struct{ PageAuditRequest }
	HeadingHierarchyRequest     struct{ PageAuditRequest }
	SnippetFormatDetectRequest  struct{ PageAuditRequest }
)

func (r *PageAuditRequest) pageAudit() *PageAuditRequest { return r }

// pageAuditBody is a pointer to one of the bodies above.
type pageAuditBody[B any] interface {
	*B
	pageAudit() *PageAuditRequest
}

// auditedPage is a page ready for an HTML audit.
type auditedPage struct {
	doc    *html.Node
	url    *url.URL // nil when html came without an address
	source *PageSource
}

// loadAuditPage parses the request's html, or fetches its url and parses
// that.
func (s *Server) loadAuditPage(ctx context.Context, in *PageAuditRequest) (*auditedPage, error) {
	p, err := s.loadPage(ctx, &ExtractRequest{URL: in.URL, HTML: in.HTML, TimeoutMS: in.TimeoutMS,
		UseResidentialProxy: in.UseResidentialProxy, MaxAgeMS: in.MaxAgeMS})
	if err != nil {
		return nil, err
	}
	doc, err := htmltag.Parse(p.html, "body.html")
	if err != nil {
		return nil, err
	}
	page := &auditedPage{doc: doc, source: p.source}
	if p.url != "" {
		page.url, _ = url.Parse(p.url) // loadPage checked it
	}
	return page, nil
}

// The answers of the HTML audits: each report, and where the page came
// from when the server fetched it.
type (
	MixedContentResult struct {
		htmlaudit.MixedContentReport
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	AnchorTextResult struct {
		htmlaudit.AnchorTextReport
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	MetaAuditResult struct {
		htmlaudit.MetaReport
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	SnippetCandidatesResult struct {
		htmlaudit.SnippetReport
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	HeadingHierarchyResult struct {
		headings.Report
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	SnippetFormatResult struct {
		snippetformat.Report
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
)

// pageAudit is the handler of an HTML audit: load the page the body B
// names, run audit on it, answer its report with the page's source.
func pageAudit[B any, PB pageAuditBody[B], R any](s *Server, audit func(*auditedPage) *R) func(context.Context, *B) (*R, error) {
	return func(ctx context.Context, in *B) (*R, error) {
		p, err := s.loadAuditPage(ctx, PB(in).pageAudit())
		if err != nil {
			return nil, err
		}
		return audit(p), nil
	}
}

func (s *Server) seoMixedContent(p *auditedPage) *MixedContentResult {
	return &MixedContentResult{MixedContentReport: *htmlaudit.MixedContent(p.doc, p.url), Source: p.source}
}

func (s *Server) seoAnchorText(p *auditedPage) *AnchorTextResult {
	return &AnchorTextResult{AnchorTextReport: *htmlaudit.AnchorText(p.doc, p.url), Source: p.source}
}

func (s *Server) seoMetaAudit(p *auditedPage) *MetaAuditResult {
	return &MetaAuditResult{MetaReport: *htmlaudit.Meta(p.doc, p.url), Source: p.source}
}

func (s *Server) seoSnippetCandidates(p *auditedPage) *SnippetCandidatesResult {
	return &SnippetCandidatesResult{SnippetReport: *htmlaudit.SnippetCandidates(p.doc, p.url), Source: p.source}
}

func (s *Server) aeoHeadingHierarchy(p *auditedPage) *HeadingHierarchyResult {
	return &HeadingHierarchyResult{Report: *headings.Score(p.doc), Source: p.source}
}

func (s *Server) aeoSnippetFormat(p *auditedPage) *SnippetFormatResult {
	return &SnippetFormatResult{Report: *snippetformat.Detect(p.doc), Source: p.source}
}
