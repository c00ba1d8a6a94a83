package citation_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/webinfra/webinfra/aeo/citation"
	"github.com/webinfra/webinfra/aeo/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

// goldenCase is one page under testdata/<page>.html: its report must equal
// testdata/<page>.json, have the score and the component scores in report
// order, and recommend exactly the components given.
type goldenCase struct {
	page            string
	url             string
	score           int
	components      []int
	recommendations []string
}

var goldenCases = []goldenCase{
	// every component scores: statistics, entities, .gov.uk, doi.org, who.int and wikipedia.org
	// links, cite-marked links, byline and schema author, dateModified, quotes and a footnote
	{"rich", "https://example.com/news/herons", 95, []int{100, 100, 100, 100, 100, 52, 100},
		[]string{"content_length"}},
	// a marketing blurb: one ordinary outbound link, nothing else
	{"thin", "https://example.com/", 2, []int{0, 0, 10, 0, 0, 0, 0},
		[]string{"statistics", "authoritative_links", "entities", "author"}},
	// no url: the canonical URL tells the site's own links (www., shop.) from outbound ones;
	// gov.uk, go.jp, ac.uk, ac.jp and arxiv.org are authoritative, a blog is not
	{"links", "", 31, []int{0, 75, 100, 0, 0, 0, 0},
		[]string{"statistics", "author", "last_updated", "content_length"}},
	// no article: the page's visible text is scored
	{"nocontent", "https://example.com/gallery", 0, []int{0, 0, 0, 0, 0, 0, 0},
		[]string{"statistics", "authoritative_links", "entities", "author"}},
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, c := range goldenCases {
		t.Run(c.page, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join("testdata", c.page)
			raw, err := os.ReadFile(base + ".html")
			if err != nil {
				t.Fatal(err)
			}
			r, err := citation.Check(context.Background(), citation.Input{HTML: string(raw), URL: c.url}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var comps []int
			for _, comp := range r.Components {
				comps = append(comps, comp.Score)
			}
			var recs []string
			for _, rec := range r.Recommendations {
				recs = append(recs, rec.Component)
			}
			if r.Score != c.score || !slices.Equal(comps, c.components) || !slices.Equal(recs, c.recommendations) {
				t.Errorf("score %d, components %v, recommendations %q; want %d, %v, %q",
					r.Score, comps, recs, c.score, c.components, c.recommendations)
			}
			golden.Compare(t, base+".json", r, *update)
		})
	}
}
