package fetchsim

import (
	"net/url"
	"testing"
	"time"

	"github.com/webinfra/webinfra/aeo/llmstxt"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/articlebench"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
	"github.com/webinfra/webinfra/seo/linkcheck"
	"github.com/webinfra/webinfra/seo/redirects"
)

// TestPageReadingCorpus runs the page-reading parts of the four fetching
// audits (this package's analyze and similarity, linkcheck.Collect,
// redirects.MetaRefresh, and llmstxt.Parse over the page's visible text)
// on the 181 + 1,497 real pages of ../shared/testdata, read once for all
// four (skipped when absent, with -short, and under the race detector: it
// runs on one goroutine, and reading the corpus alone takes a minute
// there): no panic, sane answers, and
// the slowest page's CPU time logged. The fetches themselves are
// network-bound and tested on loopback servers.
func TestPageReadingCorpus(t *testing.T) {
	if testing.Short() || testenv.Race {
		t.Skip("reads 1,678 pages on one goroutine; skipped with -short and under -race")
	}
	t.Parallel()
	type page struct{ id, url, html string }
	var pages []page
	for _, p := range articlebench.Load(t) {
		pages = append(pages, page{"article/" + p.ID, p.URL, string(p.HTML)})
	}
	for _, p := range wcxb.Load(t) {
		pages = append(pages, page{"wcxb/" + p.ID, p.URL, string(p.HTML)})
	}
	fallback, _ := url.Parse("https://example.com/")
	var slowest time.Duration
	var slowID string
	links := 0
	for _, p := range pages {
		u, err := url.Parse(p.url)
		if err != nil || !u.IsAbs() {
			u = fallback
		}
		start := time.Now()
		pg := analyze(&fetch.Response{ContentType: "text/html", Body: []byte(p.html), FinalURL: u.String()})
		if s := similarity(pg.words, pg.words); s != 1 {
			t.Errorf("%s: similarity with itself %v", p.id, s)
		}
		doc, err := htmltag.Parse(p.html, "html")
		if err != nil {
			continue // nested deeper than the parser allows: refused before any audit
		}
		found, _, _ := linkcheck.Collect(doc, u, true)
		for _, l := range found {
			if lu, err := url.Parse(l.URL); err != nil || (lu.Scheme != "http" && lu.Scheme != "https") || lu.Host == "" || lu.Fragment != "" {
				t.Errorf("%s: bad link %q", p.id, l.URL)
			}
		}
		links += len(found)
		if r := redirects.MetaRefresh(doc, u); r != nil && r.DelaySeconds < 0 {
			t.Errorf("%s: refresh %+v", p.id, r)
		}
		if s := llmstxt.Parse(pg.text, u); s.Lines == 0 && pg.text != "" {
			t.Errorf("%s: llms.txt parse read no line", p.id)
		}
		if d := time.Since(start); d > slowest {
			slowest, slowID = d, p.id
		}
	}
	t.Logf("%d pages, %d links; slowest page %s (%s)", len(pages), links, slowest, slowID)
}
