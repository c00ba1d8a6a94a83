package server

import (
	"context"
	"net/http"

	"github.com/webinfra/webinfra/aeo/citation"
	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/aeo/pageaudit"
	"github.com/webinfra/webinfra/aeo/schemacov"
	"github.com/webinfra/webinfra/seo/schema"
)

// The bodies of the audits that read a page's HTML with the extractors,
// named as SPEC names them.
type (
	FreshnessSignalRequest struct {
		PageAuditRequest
		LastModified string `json:"last_modified,omitempty" maxLength:"200" example:"Wed, 01 May 2024 09:00:00 GMT" doc:"The Last-Modified header the page was served with, when html is given; a fetched page's own header is read."`
	}
	AeoSchemaCoverageRequest struct {
		PageAuditRequest
		PageType string `json:"page_type,omitempty" enum:"article,forum,product,collection,listing,documentation,service" doc:"The kind of page, when you know it; omitted: detected."`
	}
	AeoCitationReadinessRequest struct{ PageAuditRequest }
	SchemaValidateRequest       struct{ PageAuditRequest }
)

// The answers: each report, and where the page came from when fetched.
type (
	FreshnessSignalResult struct {
		freshness.Report
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	SchemaCoverageResult struct {
		schemacov.Report
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	CitationReadinessResult struct {
		citation.Report
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
	SchemaValidateResult struct {
		schema.Report
		Source *PageSource `json:"source,omitempty" doc:"Where the page came from, when the server fetched it."`
	}
)

// htmlAudit is the handler of an audit over the page's HTML: load the
// page the body B names (html, or its url fetched), then run audit.
func htmlAudit[B any, PB pageAuditBody[B], R any](s *Server, audit func(context.Context, *B, *htmlPage) (*R, error)) func(context.Context, *B) (*R, error) {
	return func(ctx context.Context, in *B) (*R, error) {
		req := PB(in).pageAudit()
		p, err := s.loadPage(ctx, &ExtractRequest{URL: req.URL, HTML: req.HTML, TimeoutMS: req.TimeoutMS,
			UseResidentialProxy: req.UseResidentialProxy, MaxAgeMS: req.MaxAgeMS})
		if err != nil {
			return nil, err
		}
		res, err := audit(ctx, in, p)
		if err != nil {
			return nil, bodyField(err)
		}
		return res, nil
	}
}

func (s *Server) aeoFreshness(ctx context.Context, in *FreshnessSignalRequest, p *htmlPage) (*FreshnessSignalResult, error) {
	header := http.Header{}
	for k, v := range p.header {
		header.Set(k, v)
	}
	rep, err := freshness.Check(ctx, freshness.Input{HTML: p.html, URL: p.url, LastModified: in.LastModified, Header: header, Now: s.now()}, nil)
	if err != nil {
		return nil, err
	}
	return &FreshnessSignalResult{Report: *rep, Source: p.source}, nil
}

func (s *Server) aeoSchemaCoverage(ctx context.Context, in *AeoSchemaCoverageRequest, p *htmlPage) (*SchemaCoverageResult, error) {
	rep, err := schemacov.Check(ctx, schemacov.Input{HTML: p.html, URL: p.url, PageType: in.PageType}, nil)
	if err != nil {
		return nil, err
	}
	return &SchemaCoverageResult{Report: *rep, Source: p.source}, nil
}

func (s *Server) aeoCitationReadiness(ctx context.Context, _ *AeoCitationReadinessRequest, p *htmlPage) (*CitationReadinessResult, error) {
	rep, err := citation.Check(ctx, citation.Input{HTML: p.html, URL: p.url}, nil)
	if err != nil {
		return nil, err
	}
	return &CitationReadinessResult{Report: *rep, Source: p.source}, nil
}

func (s *Server) seoSchemaValidate(ctx context.Context, _ *SchemaValidateRequest, p *htmlPage) (*SchemaValidateResult, error) {
	rep, err := schema.Validate(ctx, schema.Input{HTML: p.html, URL: p.url}, nil)
	if err != nil {
		return nil, err
	}
	return &SchemaValidateResult{Report: *rep, Source: p.source}, nil
}

// The page audit and the competitor diff fetch for themselves.
type (
	AeoPageAuditRequest      struct{ pageaudit.Input }
	AeoCompetitorDiffRequest struct{ pageaudit.CompareInput }
)

// TargetURL names the audited page for the usage log.
func (r *AeoPageAuditRequest) TargetURL() string { return r.URL }

// TargetURL names the first page for the usage log.
func (r *AeoCompetitorDiffRequest) TargetURL() string {
	if len(r.URLs) == 0 {
		return ""
	}
	return r.URLs[0]
}

func (s *Server) pageAuditOptions() *pageaudit.Options { return &pageaudit.Options{Now: s.now} }

func (s *Server) aeoPageAudit(ctx context.Context, in *AeoPageAuditRequest) (*pageaudit.Report, error) {
	rep, err := pageaudit.Audit(ctx, s.fetcher, in.Input, s.pageAuditOptions())
	if err != nil {
		return nil, bodyField(err)
	}
	return rep, nil
}

func (s *Server) aeoCompetitorDiff(ctx context.Context, in *AeoCompetitorDiffRequest) (*pageaudit.Comparison, error) {
	rep, err := pageaudit.Compare(ctx, s.fetcher, in.CompareInput, s.pageAuditOptions())
	if err != nil {
		return nil, bodyField(err)
	}
	return rep, nil
}
