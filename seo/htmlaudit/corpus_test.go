package htmlaudit_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/aeo/headings"
	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/wcxb"
	"github.com/webinfra/webinfra/seo/htmlaudit"
)

// corpusPage is one page of the shared test corpus.
type corpusPage struct {
	id, url string
	html    string
}

var (
	corpusOnce  sync.Once
	corpusPages []corpusPage
)

// corpus is the 181 pages of the article-extraction benchmark and the
// 1,497 pages of the WCXB development split (../shared/testdata), read
// once per test binary; it skips when they are absent.
func corpus(tb testing.TB) []corpusPage {
	tb.Helper()
	articles := articlebench.Load(tb)
	corpusOnce.Do(func() {
		for _, p := range articles {
			corpusPages = append(corpusPages, corpusPage{"article/" + p.ID, p.URL, string(p.HTML)})
		}
		for _, p := range wcxb.Load(tb) {
			corpusPages = append(corpusPages, corpusPage{"wcxb/" + p.ID, p.URL, string(p.HTML)})
		}
	})
	return corpusPages
}

// audit is one audit under test, as the server calls it.
type audit struct {
	name string
	run  func(doc *html.Node, u *url.URL) any
}

var audits = []audit{
	{"mixed-content", func(d *html.Node, u *url.URL) any { return htmlaudit.MixedContent(d, u) }},
	{"anchor-text", func(d *html.Node, u *url.URL) any { return htmlaudit.AnchorText(d, u) }},
	{"meta", func(d *html.Node, u *url.URL) any { return htmlaudit.Meta(d, u) }},
	{"snippet-candidates", func(d *html.Node, u *url.URL) any { return htmlaudit.SnippetCandidates(d, u) }},
	{"heading-hierarchy", func(d *html.Node, _ *url.URL) any { return headings.Score(d) }},
}

// parsePage parses a corpus page as the server does.
func parsePage(p corpusPage) (*html.Node, *url.URL, error) {
	doc, err := htmltag.Parse(p.html, "html")
	if err != nil {
		return nil, nil, err
	}
	u, err := url.Parse(p.url)
	if err != nil {
		u = nil
	}
	return doc, u, nil
}

// TestCorpus runs every audit over every page of the shared corpus: none
// may panic, every report must encode as JSON and keep its bounds. It logs
// how many pages each finding code appears on.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("reads and audits 1,678 pages; skipped with -short")
	}
	t.Parallel()
	pages := corpus(t)
	if len(pages) < 1_600 {
		t.Fatalf("only %d corpus pages", len(pages))
	}
	var (
		mu       sync.Mutex
		codes    = map[string]int{} // audit/code → pages
		unparsed []string
	)
	work := make(chan corpusPage)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range work {
				doc, u, err := parsePage(p)
				if err != nil {
					mu.Lock()
					unparsed = append(unparsed, p.id)
					mu.Unlock()
					continue
				}
				seen := auditPage(t, p.id, doc, u)
				mu.Lock()
				for c := range seen {
					codes[c]++
				}
				mu.Unlock()
			}
		})
	}
	for _, p := range pages {
		work <- p
	}
	close(work)
	wg.Wait()
	t.Logf("%d pages, %d the parser refuses (nested over 512 deep): %v", len(pages), len(unparsed), unparsed)
	keys := make([]string, 0, len(codes))
	for k := range codes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-45s on %4d pages", k, codes[k])
	}
}

// auditPage runs every audit on one page and checks its report; it
// returns the set of audit/code pairs found.
func auditPage(t *testing.T, id string, doc *html.Node, u *url.URL) map[string]bool {
	seen := map[string]bool{}
	for _, a := range audits {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: %s panics: %v", id, a.name, r)
				}
			}()
			rep := a.run(doc, u)
			raw, err := json.Marshal(rep)
			if err != nil {
				t.Errorf("%s: %s: encode: %v", id, a.name, err)
				return
			}
			if err := checkBounds(rep); err != nil {
				t.Errorf("%s: %s: %v", id, a.name, err)
			}
			for _, c := range findingCodes(raw) {
				seen[a.name+"/"+c] = true
			}
		}()
	}
	return seen
}

// checkBounds checks the scores and list caps of a report.
func checkBounds(rep any) error {
	score := func(name string, s int) error {
		if s < 0 || s > 100 {
			return fmt.Errorf("%s %d out of 0-100", name, s)
		}
		return nil
	}
	switch r := rep.(type) {
	case *htmlaudit.MixedContentReport:
		if len(r.Items) > htmlaudit.MaxFindings || r.Blockable+r.Upgradeable != r.Total {
			return fmt.Errorf("items %d, blockable %d + upgradeable %d != total %d", len(r.Items), r.Blockable, r.Upgradeable, r.Total)
		}
	case *htmlaudit.AnchorTextReport:
		if len(r.Links) > htmlaudit.MaxLinksListed || len(r.Findings) > htmlaudit.MaxFindings ||
			r.Counts.Internal+r.Counts.External != r.Counts.Links {
			return fmt.Errorf("links %d, findings %d, counts %+v", len(r.Links), len(r.Findings), r.Counts)
		}
	case *htmlaudit.MetaReport:
		return score("meta score", r.Score)
	case *htmlaudit.SnippetReport:
		if len(r.Candidates) > htmlaudit.MaxSnippetCandidates {
			return fmt.Errorf("%d candidates", len(r.Candidates))
		}
		for i, c := range r.Candidates {
			if i > 0 && c.Score > r.Candidates[i-1].Score {
				return fmt.Errorf("candidates not best first")
			}
			if err := score("candidate score", c.Score); err != nil {
				return err
			}
		}
	case *headings.Report:
		if len(r.Outline) > headings.MaxHeadings || len(r.Problems) > headings.MaxProblems {
			return fmt.Errorf("outline %d, problems %d", len(r.Outline), len(r.Problems))
		}
		return score("heading score", r.Score)
	}
	return nil
}

// findingCodes returns the distinct values of every "code" key in a JSON
// document.
func findingCodes(raw []byte) []string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if c, ok := x["code"].(string); ok && !slices.Contains(out, c) {
				out = append(out, c)
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// benchAudit times one audit over every corpus page, parsing excluded,
// and reports the per-page median, 90th and 99th percentiles and maximum
// in milliseconds. One iteration is one pass over the corpus: run with
// -benchtime=1x.
func benchAudit(b *testing.B, run func(*html.Node, *url.URL) any) {
	pages := corpus(b)
	var took []time.Duration
	b.ResetTimer()
	for range b.N {
		for _, p := range pages {
			b.StopTimer()
			doc, u, err := parsePage(p)
			if err != nil {
				continue
			}
			b.StartTimer()
			start := time.Now()
			run(doc, u)
			took = append(took, time.Since(start))
		}
	}
	b.StopTimer()
	slices.Sort(took)
	at := func(q float64) float64 {
		return float64(took[int(q*float64(len(took)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.9), "p90-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(at(1), "max-ms")
}

func BenchmarkMixedContent(b *testing.B)      { benchAudit(b, audits[0].run) }
func BenchmarkAnchorText(b *testing.B)        { benchAudit(b, audits[1].run) }
func BenchmarkMeta(b *testing.B)              { benchAudit(b, audits[2].run) }
func BenchmarkSnippetCandidates(b *testing.B) { benchAudit(b, audits[3].run) }
func BenchmarkHeadingsScore(b *testing.B)     { benchAudit(b, audits[4].run) }
