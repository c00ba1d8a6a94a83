package pageaudit

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/webinfra/webinfra/aeo/aibots"
	"github.com/webinfra/webinfra/aeo/citation"
	"github.com/webinfra/webinfra/aeo/fetchsim"
	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/aeo/headings"
	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/aeo/llmstxt"
	"github.com/webinfra/webinfra/aeo/schemacov"
	"github.com/webinfra/webinfra/aeo/snippetformat"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/htmlaudit"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Input is the body of POST /v1/aeo/page-audit.
type Input struct {
	URL       string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/guide" doc:"The page to audit (absolute http or https)."`
	TimeoutMS int    `json:"timeout_ms,omitempty" minimum:"0" maximum:"120000" doc:"Timeout of the page's fetch in milliseconds; 0 = the fetcher's default. The probes that fetch have their own bounds."`
}

// Categories and their weights (they sum to 100).
var Categories = []struct {
	Name   string
	Weight int
}{{"access", 25}, {"structure", 20}, {"markup", 20}, {"authority", 20}, {"freshness", 15}}

// Report is the audit's answer.
type Report struct {
	URL             string           `json:"url"`
	FinalURL        string           `json:"final_url"`
	StatusCode      int              `json:"status_code"`
	Score           int              `json:"score" minimum:"0" maximum:"100" doc:"The weighted mean of the categories."`
	Grade           string           `json:"grade" enum:"A,B,C,D,F"`
	Categories      []CategoryScore  `json:"categories" doc:"The five categories, in a fixed order."`
	Probes          []Probe          `json:"probes" doc:"The nine probes, in a fixed order."`
	TopIssues       []Issue          `json:"top_issues" doc:"At most 10 problems, errors first, then by the weight of what they cost."`
	Recommendations []Recommendation `json:"recommendations" doc:"What would raise the score most, best first (at most 9)."`
	Details         Details          `json:"details" doc:"Each probe's full report (null when it failed)."`
}

// CategoryScore is one category's score.
type CategoryScore struct {
	Name   string   `json:"name" enum:"access,structure,markup,authority,freshness"`
	Weight int      `json:"weight"`
	Score  int      `json:"score" minimum:"0" maximum:"100"`
	Grade  string   `json:"grade" enum:"A,B,C,D,F"`
	Probes []string `json:"probes"`
}

// Probe is one probe's outcome.
type Probe struct {
	Name       string  `json:"name" enum:"ai_bots,fetch_simulation,llms_txt,headings,snippet_format,schema_coverage,meta,citation,freshness"`
	Category   string  `json:"category"`
	Score      int     `json:"score" minimum:"0" maximum:"100"`
	Grade      string  `json:"grade" enum:"A,B,C,D,F"`
	Summary    string  `json:"summary"`
	Error      string  `json:"error,omitempty" doc:"Why the probe could not run; it then scores 0."`
	DurationMS float64 `json:"duration_ms"`
}

// Issue is one problem a probe found.
type Issue struct {
	Probe    string `json:"probe"`
	Severity string `json:"severity" enum:"error,warning,notice"`
	Code     string `json:"code,omitempty"`
	Message  string `json:"message"`
}

// Recommendation is what to improve, with the overall points at stake.
type Recommendation struct {
	Probe    string  `json:"probe"`
	Category string  `json:"category"`
	Points   float64 `json:"points" doc:"Overall points a perfect score on this probe would add."`
	Action   string  `json:"action"`
}

// Details are the probes' own reports.
type Details struct {
	AIBots          *aibots.Report        `json:"ai_bots"`
	FetchSimulation *fetchsim.Report      `json:"fetch_simulation"`
	LlmsTxt         *llmstxt.Report       `json:"llms_txt"`
	Headings        *headings.Report      `json:"headings"`
	SnippetFormat   *snippetformat.Report `json:"snippet_format"`
	SchemaCoverage  *schemacov.Report     `json:"schema_coverage"`
	Meta            *htmlaudit.MetaReport `json:"meta"`
	Citation        *citation.Report      `json:"citation"`
	Freshness       *freshness.Report     `json:"freshness"`
}

// Options tune Audit; nil means defaults.
type Options struct {
	// Now is the clock freshness ages are measured against; nil: time.Now.
	Now func() time.Time
}

// result is what a probe function answers.
type result struct {
	score   int
	summary string
	issues  []Issue
	advice  string
}

// probeDef is one of the nine probes.
type probeDef struct {
	name, category string
	run            func(ctx context.Context, a *audit) (result, error)
}

// Audit fetches the page and runs the nine probes on it in parallel.
func Audit(ctx context.Context, f *fetch.Fetcher, in Input, opts *Options) (*Report, error) {
	if _, err := pagedata.ParseURL(in.URL); err != nil || in.URL == "" {
		return nil, errs.Invalid("url", "must be an absolute http(s) URL, got %q", in.URL)
	}
	now := time.Now
	if opts != nil && opts.Now != nil {
		now = opts.Now
	}
	page, err := f.Scrape(ctx, fetch.ScrapeRequest{URL: in.URL, Formats: []string{fetch.FormatRawHTML}, TimeoutMS: in.TimeoutMS})
	if err != nil {
		return nil, err
	}
	loaded, err := pagedata.Load(ctx, page.RawHTML, page.FinalURL, nil, pagedata.Need{Content: true, Mode: content.ModeFast})
	if err != nil {
		return nil, err
	}
	a := &audit{f: f, page: page, loaded: loaded, now: now()}
	rep := &Report{URL: page.URL, FinalURL: page.FinalURL, StatusCode: page.StatusCode}
	rep.Probes = make([]Probe, len(probes))
	results := make([]result, len(probes))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i, p := range probes {
		g.Go(func() error {
			start := time.Now()
			res, err := p.run(gctx, a)
			rep.Probes[i] = Probe{Name: p.name, Category: p.category, DurationMS: float64(time.Since(start).Microseconds()) / 1000}
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				rep.Probes[i].Error, res = err.Error(), result{summary: "the probe could not run"}
			}
			results[i] = res
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	a.mu.Lock()
	rep.Details = a.details
	a.mu.Unlock()
	fold(rep, results)
	return rep, nil
}

// audit is one audit's shared state.
type audit struct {
	f       *fetch.Fetcher
	page    *fetch.ScrapeResult
	loaded  *pagedata.Loaded
	now     time.Time
	mu      sync.Mutex
	details Details
}

func (a *audit) pageURL() *url.URL { return a.loaded.URL }

// fold computes the category scores, the overall score, the top issues
// and the recommendations from the probes' results.
func fold(rep *Report, results []result) {
	var issues []Issue
	var recs []Recommendation
	total := 0.0
	for _, c := range Categories {
		cs := CategoryScore{Name: c.Name, Weight: c.Weight}
		sum, n := 0, 0
		for _, p := range probes {
			if p.category == c.Name {
				n++
			}
		}
		for i, p := range probes {
			if p.category != c.Name {
				continue
			}
			res := results[i]
			rep.Probes[i].Score, rep.Probes[i].Grade, rep.Probes[i].Summary = auditkit.Clamp(res.score), auditkit.Grade(auditkit.Clamp(res.score)), res.summary
			sum += rep.Probes[i].Score
			cs.Probes = append(cs.Probes, p.name)
			issues = append(issues, res.issues...)
			if gain := float64(c.Weight) * float64(100-rep.Probes[i].Score) / 100 / float64(n); gain >= 0.5 && res.advice != "" {
				recs = append(recs, Recommendation{Probe: p.name, Category: c.Name, Points: float64(int(gain*10+0.5)) / 10, Action: res.advice})
			}
		}
		cs.Score = (sum + n/2) / n
		cs.Grade = auditkit.Grade(cs.Score)
		total += float64(c.Weight * cs.Score)
		rep.Categories = append(rep.Categories, cs)
	}
	rep.Score = int(total/100 + 0.5)
	rep.Grade = auditkit.Grade(rep.Score)
	rank := map[string]int{"error": 0, "warning": 1, "notice": 2}
	slices.SortStableFunc(issues, func(x, y Issue) int { return cmp.Compare(rank[x.Severity], rank[y.Severity]) })
	rep.TopIssues = issues[:min(len(issues), 10)]
	if rep.TopIssues == nil {
		rep.TopIssues = []Issue{}
	}
	slices.SortStableFunc(recs, func(x, y Recommendation) int { return cmp.Compare(y.Points, x.Points) })
	rep.Recommendations = recs
	if rep.Recommendations == nil {
		rep.Recommendations = []Recommendation{}
	}
}
