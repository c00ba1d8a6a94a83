package corpus_test

import (
	"context"
	"encoding/json"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/aeo/citation"
	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/aeo/schemacov"
	"github.com/webinfra/webinfra/aeo/snippetformat"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
	"github.com/webinfra/webinfra/seo/keywords"
	"github.com/webinfra/webinfra/seo/readability"
	"github.com/webinfra/webinfra/seo/schema"
)

// page is one page of the shared corpus.
type page struct{ id, url, html string }

var (
	corpusOnce  sync.Once
	corpusPages []page
)

// corpus is the 181 + 1,497 pages of ../shared/testdata, read once; it
// skips when they are absent.
func corpus(tb testing.TB) []page {
	tb.Helper()
	articles := articlebench.Load(tb)
	dev := wcxb.Load(tb)
	corpusOnce.Do(func() {
		for _, p := range articles {
			corpusPages = append(corpusPages, page{"article/" + p.ID, p.URL, string(p.HTML)})
		}
		for _, p := range dev {
			corpusPages = append(corpusPages, page{"wcxb/" + p.ID, p.URL, string(p.HTML)})
		}
	})
	return corpusPages
}

// url is the page's URL when it is one the audits accept, else "".
func (p page) pageURL() string {
	if strings.HasPrefix(p.url, "http://") || strings.HasPrefix(p.url, "https://") {
		return p.url
	}
	return ""
}

// audit is one audit as a caller runs it: from the HTML, or with the
// page already extracted.
type audit struct {
	name string
	run  func(ctx context.Context, p page, given *pagedata.Page) (any, error)
}

// now is after every date the corpus pages were captured on.
var now = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)

var audits = []audit{
	{"schema-validate", func(ctx context.Context, p page, given *pagedata.Page) (any, error) {
		o := &schema.Options{}
		if given != nil {
			o.Structured = given.Structured
		}
		return schema.Validate(ctx, schema.Input{HTML: p.html, URL: p.pageURL()}, o)
	}},
	{"schema-coverage", func(ctx context.Context, p page, given *pagedata.Page) (any, error) {
		return schemacov.Check(ctx, schemacov.Input{HTML: p.html, URL: p.pageURL()}, &schemacov.Options{Page: given})
	}},
	{"freshness-signal", func(ctx context.Context, p page, given *pagedata.Page) (any, error) {
		return freshness.Check(ctx, freshness.Input{HTML: p.html, URL: p.pageURL(), Now: now}, &freshness.Options{Page: given})
	}},
	{"citation-readiness", func(ctx context.Context, p page, given *pagedata.Page) (any, error) {
		return citation.Check(ctx, citation.Input{HTML: p.html, URL: p.pageURL()}, &citation.Options{Page: given})
	}},
	// The text and outline audits take no shared page; they run here so
	// that every page of the corpus goes through them too.
	{"readability", func(ctx context.Context, p page, _ *pagedata.Page) (any, error) {
		return readability.HTML(ctx, p.html, nil)
	}},
	{"keyword-extract", func(ctx context.Context, p page, _ *pagedata.Page) (any, error) {
		return keywords.HTML(ctx, p.html, "", nil)
	}},
	{"snippet-format-detect", func(ctx context.Context, p page, _ *pagedata.Page) (any, error) {
		doc, err := htmltag.Parse(p.html, "html")
		if err != nil {
			return nil, err
		}
		return snippetformat.Detect(doc), nil
	}},
}

// TestCorpus runs the audits over every corpus page (every 20th
// under the race detector, which slows content extraction tenfold), the
// page extracted once and shared as the page audit does, and again from
// the HTML alone: no error, every score within 0-100, every report
// encodes as JSON, and the two runs agree (but for schema-coverage, whose
// page type comes from the shared extraction in the first). It logs how
// many pages each finding appears on.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("audits 1,678 pages; skipped with -short")
	}
	pages := corpus(t)
	if len(pages) < 1600 {
		t.Fatalf("only %d corpus pages", len(pages))
	}
	step := 1
	if testenv.Race {
		step = 20
	}
	var (
		mu    sync.Mutex
		tally = map[string]int{}
	)
	work := make(chan page)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range work {
				seen := auditPage(t, p)
				mu.Lock()
				for k := range seen {
					tally[k]++
				}
				mu.Unlock()
			}
		})
	}
	for i := 0; i < len(pages); i += step {
		work <- pages[i]
	}
	close(work)
	wg.Wait()
	keys := make([]string, 0, len(tally))
	for k := range tally {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-45s %5d pages", k, tally[k])
	}
}

// auditPage runs every audit over one page and checks its report; it
// returns the finding keys the page has.
func auditPage(t *testing.T, p page) map[string]bool {
	ctx := context.Background()
	seen := map[string]bool{}
	loaded, err := pagedata.Load(ctx, p.html, p.pageURL(), nil, pagedata.Need{Content: true, Mode: content.ModeFast})
	if err != nil {
		t.Errorf("%s: load: %v", p.id, err)
		return seen
	}
	for _, a := range audits {
		rep, err := a.run(ctx, p, &loaded.Page)
		if err != nil {
			t.Errorf("%s: %s: %v", p.id, a.name, err)
			continue
		}
		shared, err := json.Marshal(rep)
		if err != nil {
			t.Errorf("%s: %s: encoding: %v", p.id, a.name, err)
		}
		alone, err := a.run(ctx, p, nil)
		if err != nil {
			t.Errorf("%s: %s from the HTML: %v", p.id, a.name, err)
		} else if js, _ := json.Marshal(alone); a.name != "schema-coverage" && string(js) != string(shared) {
			t.Errorf("%s: %s: the report from the HTML differs from the shared page's:\n%s\n%s", p.id, a.name, js, shared)
		}
		switch r := rep.(type) {
		case *schema.Report:
			if len(r.Problems) > schema.DefaultMaxProblems || len(r.Entities) > schema.DefaultMaxEntities {
				t.Errorf("%s: schema: %d problems, %d entities over the caps", p.id, len(r.Problems), len(r.Entities))
			}
			for _, pr := range r.Problems {
				seen["schema/"+pr.Code] = true
			}
			for _, e := range r.Eligible {
				seen["schema/eligible/"+e] = true
			}
		case *schemacov.Report:
			checkScore(t, p.id, a.name, r.Score)
			if len(r.Types) != 12 {
				t.Errorf("%s: schema-coverage: %d types", p.id, len(r.Types))
			}
			seen["schemacov/page_type/"+r.PageType] = true
		case *freshness.Report:
			checkScore(t, p.id, a.name, r.Score)
			for _, s := range r.Signals {
				seen["freshness/signal/"+s.Source] = true
			}
			for _, in := range r.Inconsistencies {
				seen["freshness/inconsistency/"+in.Code] = true
			}
			if r.Basis == nil {
				seen["freshness/no_dated_signal"] = true
			}
		case *readability.Result:
			if r.Note != "" {
				seen["readability/no_visible_text"] = true
			}
		case *keywords.Result:
			if r.Note != "" {
				seen["keywords/none"] = true
			}
		case *snippetformat.Report:
			seen["snippetformat/prediction/"+r.Prediction.Format] = true
		case *citation.Report:
			checkScore(t, p.id, a.name, r.Score)
			for _, c := range r.Components {
				checkScore(t, p.id, a.name+"/"+c.Name, c.Score)
			}
			seen["citation/text_source/"+r.TextSource] = true
		}
	}
	return seen
}

func checkScore(t *testing.T, id, name string, score int) {
	if score < 0 || score > 100 {
		t.Errorf("%s: %s: score %d outside 0-100", id, name, score)
	}
}

// TestSharedPageConcurrently runs the four audits at once over one page
// extracted once, as the page audit does: under -race it shows that they
// only read what they share.
func TestSharedPageConcurrently(t *testing.T) {
	pages := corpus(t)
	ctx := context.Background()
	for _, p := range []page{pages[0], pages[len(pages)/2], pages[len(pages)-1]} {
		loaded, err := pagedata.Load(ctx, p.html, p.pageURL(), nil, pagedata.Need{Content: true, Mode: content.ModeFast})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for _, a := range audits {
			wg.Go(func() {
				if _, err := a.run(ctx, p, &loaded.Page); err != nil {
					t.Errorf("%s: %s: %v", p.id, a.name, err)
				}
			})
		}
		wg.Wait()
	}
}
