package webinfra

import (
	"context"
	"net/url"

	"github.com/webinfra/webinfra/aeo/aibots"
	"github.com/webinfra/webinfra/aeo/citation"
	"github.com/webinfra/webinfra/aeo/fetchsim"
	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/aeo/headings"
	"github.com/webinfra/webinfra/aeo/llmstxt"
	"github.com/webinfra/webinfra/aeo/pageaudit"
	"github.com/webinfra/webinfra/aeo/schemacov"
	"github.com/webinfra/webinfra/aeo/snippetformat"
	"github.com/webinfra/webinfra/fetch/robots"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit"
	"github.com/webinfra/webinfra/seo/keywords"
	"github.com/webinfra/webinfra/seo/linkcheck"
	"github.com/webinfra/webinfra/seo/readability"
	"github.com/webinfra/webinfra/seo/redirects"
	"github.com/webinfra/webinfra/seo/schema"
)

// The audits' inputs and reports (packages seo/…, aeo/… and fetch/robots
// document every field).
type (
	ReadabilityInput      = readability.Input
	ReadabilityResult     = readability.Result
	KeywordsInput         = keywords.Input
	KeywordsResult        = keywords.Result
	Robots                = robots.Robots
	AIBotsReport          = aibots.Report
	MetaReport            = htmlaudit.MetaReport
	MixedContentReport    = htmlaudit.MixedContentReport
	AnchorTextReport      = htmlaudit.AnchorTextReport
	SnippetReport         = htmlaudit.SnippetReport
	HeadingsReport        = headings.Report
	SnippetFormatReport   = snippetformat.Report
	SchemaInput           = schema.Input
	SchemaReport          = schema.Report
	SchemaCoverageInput   = schemacov.Input
	SchemaCoverageReport  = schemacov.Report
	FreshnessInput        = freshness.Input
	FreshnessReport       = freshness.Report
	CitationInput         = citation.Input
	CitationReport        = citation.Report
	RedirectsInput        = redirects.Input
	RedirectsReport       = redirects.Report
	BrokenLinksInput      = linkcheck.Input
	BrokenLinksReport     = linkcheck.Report
	LlmsTxtInput          = llmstxt.Input
	LlmsTxtReport         = llmstxt.Report
	FetchSimulationInput  = fetchsim.Input
	FetchSimulationReport = fetchsim.Report
	PageAuditInput        = pageaudit.Input
	PageAuditReport       = pageaudit.Report
	CompetitorDiffInput   = pageaudit.CompareInput
	CompetitorDiffReport  = pageaudit.Comparison
)

// HTMLPage is a page for the HTML audits: its HTML, and its URL when known
// (links are resolved against it).
type HTMLPage struct {
	HTML string
	URL  string
}

// HTMLAudits are the audits that read one page's parsed HTML.
type HTMLAudits struct {
	Meta              *MetaReport
	MixedContent      *MixedContentReport
	AnchorText        *AnchorTextReport
	SnippetCandidates *SnippetReport
	Headings          *HeadingsReport
	SnippetFormat     *SnippetFormatReport
}

// AuditHTML parses the page once and runs the six HTML audits on it:
// meta-audit, mixed-content, anchor-text-audit, snippet-candidates,
// heading-hierarchy-score and snippet-format-detect.
func (c *Client) AuditHTML(ctx context.Context, p HTMLPage) (*HTMLAudits, error) {
	doc, err := htmltag.Parse(p.HTML, "html")
	if err != nil {
		return nil, err
	}
	var u *url.URL
	if p.URL != "" {
		if u, err = url.Parse(p.URL); err != nil {
			return nil, err
		}
	}
	return &HTMLAudits{Meta: htmlaudit.Meta(doc, u), MixedContent: htmlaudit.MixedContent(doc, u),
		AnchorText: htmlaudit.AnchorText(doc, u), SnippetCandidates: htmlaudit.SnippetCandidates(doc, u),
		Headings: headings.Score(doc), SnippetFormat: snippetformat.Detect(doc)}, ctx.Err()
}

// Readability scores a text, or the visible text of an HTML document, with
// the readability formulas as textstat computes them.
func (c *Client) Readability(ctx context.Context, in ReadabilityInput) (*ReadabilityResult, error) {
	return readability.Analyze(ctx, in, nil)
}

// Keywords extracts key phrases from a text, or the visible text of an
// HTML document, by RAKE.
func (c *Client) Keywords(ctx context.Context, in KeywordsInput) (*KeywordsResult, error) {
	return keywords.Extract(ctx, in, nil)
}

// SchemaValidate checks a page's JSON-LD against the rich-result types'
// required and recommended fields.
func (c *Client) SchemaValidate(ctx context.Context, in SchemaInput) (*SchemaReport, error) {
	return schema.Validate(ctx, in, nil)
}

// SchemaCoverage scores a page's coverage of the 12 AEO-critical schema
// types.
func (c *Client) SchemaCoverage(ctx context.Context, in SchemaCoverageInput) (*SchemaCoverageReport, error) {
	return schemacov.Check(ctx, in, nil)
}

// Freshness scores how fresh a page looks from the dates it states.
func (c *Client) Freshness(ctx context.Context, in FreshnessInput) (*FreshnessReport, error) {
	return freshness.Check(ctx, in, nil)
}

// Citation scores how ready a page is to be cited by an answer engine.
func (c *Client) Citation(ctx context.Context, in CitationInput) (*CitationReport, error) {
	return citation.Check(ctx, in, nil)
}

// Redirects maps a URL's redirect chain and its problems.
func (c *Client) Redirects(ctx context.Context, in RedirectsInput) (*RedirectsReport, error) {
	return redirects.Map(ctx, c.fetcher, in, nil)
}

// BrokenLinks probes every link of a page.
func (c *Client) BrokenLinks(ctx context.Context, in BrokenLinksInput) (*BrokenLinksReport, error) {
	return linkcheck.Audit(ctx, c.fetcher, in, nil)
}

// LlmsTxt audits a site's /llms.txt.
func (c *Client) LlmsTxt(ctx context.Context, in LlmsTxtInput) (*LlmsTxtReport, error) {
	return llmstxt.Audit(ctx, c.fetcher, in, nil)
}

// FetchSimulation fetches a page as 11 AI crawlers and a browser.
func (c *Client) FetchSimulation(ctx context.Context, in FetchSimulationInput) (*FetchSimulationReport, error) {
	return fetchsim.Simulate(ctx, c.fetcher, in, nil)
}

// PageAudit runs the nine AEO probes on a page.
func (c *Client) PageAudit(ctx context.Context, in PageAuditInput) (*PageAuditReport, error) {
	return pageaudit.Audit(ctx, c.fetcher, in, nil)
}

// CompetitorDiff audits 2 to 5 pages and ranks them.
func (c *Client) CompetitorDiff(ctx context.Context, in CompetitorDiffInput) (*CompetitorDiffReport, error) {
	return pageaudit.Compare(ctx, c.fetcher, in, nil)
}

// Robots fetches the robots.txt of pageURL's site (through the SSRF guard,
// cached) and reads it as RFC 9309 and Google read it; Robots.Test then
// decides for a crawler and a URL. A 4xx robots.txt allows all, a 5xx or
// 429 disallows all; a site that cannot be reached is an error, which
// RFC 9309 reads as disallow all.
func (c *Client) Robots(ctx context.Context, pageURL string) (*Robots, error) {
	return c.fetcher.Robots(ctx, pageURL)
}

// AIBots says which of fourteen named AI crawlers pageURL's site lets
// fetch it, each with the deciding robots.txt rule.
func (c *Client) AIBots(ctx context.Context, pageURL string) (*AIBotsReport, error) {
	r, err := c.fetcher.Robots(ctx, pageURL)
	if err != nil {
		return nil, err
	}
	return aibots.Check(r, pageURL), nil
}
