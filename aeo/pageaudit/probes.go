package pageaudit

import (
	"context"
	"fmt"
	"net/http"

	"github.com/webinfra/webinfra/aeo/aibots"
	"github.com/webinfra/webinfra/aeo/citation"
	"github.com/webinfra/webinfra/aeo/fetchsim"
	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/aeo/headings"
	"github.com/webinfra/webinfra/aeo/llmstxt"
	"github.com/webinfra/webinfra/aeo/schemacov"
	"github.com/webinfra/webinfra/aeo/snippetformat"
	"github.com/webinfra/webinfra/seo/htmlaudit"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// probes are the nine probes, in report order.
var probes = []probeDef{
	{"ai_bots", "access", probeAIBots},
	{"fetch_simulation", "access", probeFetchSim},
	{"llms_txt", "access", probeLlmsTxt},
	{"headings", "structure", probeHeadings},
	{"snippet_format", "structure", probeSnippetFormat},
	{"schema_coverage", "markup", probeSchemaCoverage},
	{"meta", "markup", probeMeta},
	{"citation", "authority", probeCitation},
	{"freshness", "freshness", probeFreshness},
}

// record stores a probe's full report under the lock.
func (a *audit) record(set func(*Details)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	set(&a.details)
}

// findings turns a probe's findings into issues.
func findings(probe string, fs []auditkit.Finding) []Issue {
	out := make([]Issue, 0, len(fs))
	for _, f := range fs {
		out = append(out, Issue{Probe: probe, Severity: f.Severity, Code: f.Code, Message: f.Message})
	}
	return out
}

// probeAIBots scores the share of AI search and user-fetch crawlers the
// site lets in: keeping training crawlers out is a policy, not a fault.
func probeAIBots(ctx context.Context, a *audit) (result, error) {
	r, err := a.f.Robots(ctx, a.page.FinalURL)
	if err != nil {
		return result{}, err
	}
	rep := aibots.Check(r, a.page.FinalURL)
	a.record(func(d *Details) { d.AIBots = rep })
	var res result
	answering, allowed := 0, 0
	for _, v := range rep.Crawlers {
		if v.Purpose == "training" {
			continue
		}
		answering++
		if v.Allowed {
			allowed++
			continue
		}
		res.issues = append(res.issues, Issue{Probe: "ai_bots", Severity: "warning", Code: "ai_crawler_blocked",
			Message: fmt.Sprintf("robots.txt keeps %s (%s, %s) out of this page", v.Name, v.Operator, v.Purpose)})
	}
	res.score = 100 * allowed / answering
	res.summary = fmt.Sprintf("%d of %d AI search and user-fetch crawlers allowed; %d of 14 crawlers blocked", allowed, answering, rep.Blocked)
	if allowed < answering {
		res.advice = "Allow AI search and user-fetch crawlers in robots.txt (block training crawlers separately if you want)."
	}
	return res, nil
}

// probeFetchSim scores how alike AI crawlers and a browser are served.
func probeFetchSim(ctx context.Context, a *audit) (result, error) {
	rep, err := fetchsim.Simulate(ctx, a.f, fetchsim.Input{URL: a.page.FinalURL}, nil)
	if err != nil {
		return result{}, err
	}
	a.record(func(d *Details) { d.FetchSimulation = rep })
	res := result{score: 100 - 10*len(rep.Blocked) - 10*len(rep.Cloaking), issues: findings("fetch_simulation", rep.Findings)}
	if rep.JSOnly.Detected {
		res.score -= 40
	}
	res.summary = fmt.Sprintf("%d of %d AI agents blocked, %d served different content, JS-only: %v", len(rep.Blocked), len(rep.Agents), len(rep.Cloaking), rep.JSOnly.Detected)
	if res.score < 100 {
		res.advice = "Serve AI crawlers the same server-rendered page a browser gets: no bot walls, no cloaking, text in the HTML."
	}
	return res, nil
}

func probeLlmsTxt(ctx context.Context, a *audit) (result, error) {
	rep, err := llmstxt.Audit(ctx, a.f, llmstxt.Input{URL: a.page.FinalURL}, nil)
	if err != nil {
		return result{}, err
	}
	a.record(func(d *Details) { d.LlmsTxt = rep })
	res := result{score: rep.Score}
	for _, p := range rep.Problems {
		issue := Issue{Probe: "llms_txt", Severity: p.Severity, Code: p.Code, Message: p.Message}
		if p.Line > 0 {
			issue.Message = fmt.Sprintf("line %d: %s", p.Line, p.Message)
		}
		res.issues = append(res.issues, issue)
	}
	if !rep.Found {
		res.summary = fmt.Sprintf("no /llms.txt (HTTP %d)", rep.StatusCode)
		res.issues = append(res.issues, Issue{Probe: "llms_txt", Severity: "notice", Code: "no_llms_txt", Message: "the site has no /llms.txt"})
		res.advice = "Publish /llms.txt: an H1 with the site's name, a one-line summary, and sections of links to the pages that answer questions."
		return res, nil
	}
	res.summary = fmt.Sprintf("/llms.txt scores %d", rep.Score)
	if rep.Score < 100 {
		res.advice = "Fix the structure problems and dead links of /llms.txt."
	}
	return res, nil
}

func probeHeadings(_ context.Context, a *audit) (result, error) {
	rep := headings.Score(a.loaded.Doc)
	a.record(func(d *Details) { d.Headings = rep })
	res := result{score: rep.Score, summary: fmt.Sprintf("%d headings, %d question-style", rep.Total, rep.QuestionCount)}
	for _, p := range rep.Problems {
		res.issues = append(res.issues, findings("headings", []auditkit.Finding{p.Finding})...)
	}
	if rep.Score < 100 {
		res.advice = "Give the page one H1 and an unbroken H2-H6 outline; phrase section headings as the questions they answer."
	}
	return res, nil
}

func probeSnippetFormat(_ context.Context, a *audit) (result, error) {
	rep := snippetformat.Detect(a.loaded.Doc)
	a.record(func(d *Details) { d.SnippetFormat = rep })
	kinds := 0
	for _, f := range snippetformat.Formats {
		if rep.Counts[f] > 0 {
			kinds++
		}
	}
	res := result{summary: "best fit: " + rep.Prediction.Format}
	if kinds > 0 {
		res.score = 55 + 15*kinds
	} else {
		res.issues = append(res.issues, Issue{Probe: "snippet_format", Severity: "warning", Code: "no_answer_blocks", Message: "no paragraph, list, table or definition an answer engine could quote"})
	}
	if res.score < 100 {
		res.advice = "Answer the page's questions in quotable blocks: a 40-60 word paragraph, a list of steps, a comparison table, a one-sentence definition."
	}
	return res, nil
}

func probeSchemaCoverage(ctx context.Context, a *audit) (result, error) {
	rep, err := schemacov.Check(ctx, schemacov.Input{HTML: a.page.RawHTML, URL: a.page.FinalURL}, &schemacov.Options{Page: &a.loaded.Page})
	if err != nil {
		return result{}, err
	}
	a.record(func(d *Details) { d.SchemaCoverage = rep })
	res := result{score: rep.Score, summary: fmt.Sprintf("%d of %d expected types for a %s page", rep.ExpectedFound, rep.Expected, rep.PageType)}
	for _, m := range rep.Missing {
		res.issues = append(res.issues, Issue{Probe: "schema_coverage", Severity: "notice", Code: "missing_schema_type", Message: m.Message})
	}
	if len(rep.Missing) > 0 {
		res.advice = rep.Missing[0].Message
	}
	return res, nil
}

func probeMeta(_ context.Context, a *audit) (result, error) {
	rep := htmlaudit.Meta(a.loaded.Doc, a.pageURL())
	a.record(func(d *Details) { d.Meta = rep })
	res := result{score: rep.Score, summary: "meta fields graded " + rep.Grade}
	f := &rep.Fields
	for _, field := range []*htmlaudit.MetaField{&f.Title, &f.Description, &f.Canonical, &f.Robots, &f.Viewport, &f.Lang, &f.Charset, &f.OpenGraph, &f.Twitter, &f.Hreflang, &f.Favicon} {
		res.issues = append(res.issues, findings("meta", field.Issues)...)
	}
	if rep.Score < 100 {
		res.advice = "Fix the meta fields graded below A (see details.meta): title 30-60 characters, a 70-160 character description, a canonical link."
	}
	return res, nil
}

func probeCitation(ctx context.Context, a *audit) (result, error) {
	rep, err := citation.Check(ctx, citation.Input{HTML: a.page.RawHTML, URL: a.page.FinalURL}, &citation.Options{Page: &a.loaded.Page})
	if err != nil {
		return result{}, err
	}
	a.record(func(d *Details) { d.Citation = rep })
	res := result{score: rep.Score, summary: fmt.Sprintf("%d words, graded %s", rep.Words, rep.Grade)}
	for _, r := range rep.Recommendations {
		res.issues = append(res.issues, Issue{Probe: "citation", Severity: "notice", Code: "weak_" + r.Component, Message: r.Message})
	}
	if len(rep.Recommendations) > 0 {
		res.advice = rep.Recommendations[0].Message
	}
	return res, nil
}

func probeFreshness(ctx context.Context, a *audit) (result, error) {
	header := http.Header{}
	for k, v := range a.page.Headers {
		header.Set(k, v)
	}
	rep, err := freshness.Check(ctx, freshness.Input{HTML: a.page.RawHTML, URL: a.page.FinalURL, Header: header, Now: a.now}, &freshness.Options{Page: &a.loaded.Page})
	if err != nil {
		return result{}, err
	}
	a.record(func(d *Details) { d.Freshness = rep })
	res := result{score: rep.Score, summary: rep.Reason}
	for _, inc := range rep.Inconsistencies {
		res.issues = append(res.issues, Issue{Probe: "freshness", Severity: "warning", Code: inc.Code, Message: inc.Message})
	}
	if rep.Score < 100 {
		res.advice = "State when the page was last updated, visibly and in JSON-LD dateModified, and keep the dates consistent."
	}
	return res, nil
}
