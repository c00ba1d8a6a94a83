package schemacov_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/webinfra/webinfra/aeo/internal/golden"
	"github.com/webinfra/webinfra/aeo/schemacov"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

// goldenCase is one page under testdata/<page>.html audited as pageType
// ("" to detect it): its report must equal testdata/<page>.json, have the
// score, find exactly found ("type:source,source") and miss exactly missing.
type goldenCase struct {
	page, pageType string
	score          int
	found          []string
	missing        []string
}

var goldenCases = []goldenCase{
	{"article_full", "article", 89, []string{
		"Organization:json_ld", "WebSite:json_ld", "WebPage:json_ld", "Article:json_ld", "BreadcrumbList:json_ld",
		"Person:json_ld",
	}, nil},
	{"product_microdata", "product", 36, []string{"Product:microdata", "Review/AggregateRating:microdata"},
		[]string{"BreadcrumbList", "Organization", "WebSite", "WebPage"}},
	{"rdfa_forum", "forum", 45, []string{"WebSite:rdfa", "Person:rdfa", "QAPage:rdfa"},
		[]string{"Organization", "WebPage", "BreadcrumbList"}},
	{"service", "service", 62, []string{
		"Organization:json_ld", "WebPage:json_ld", "FAQPage:json_ld", "Review/AggregateRating:json_ld",
		"LocalBusiness:json_ld",
	}, []string{"WebSite"}},
	{"empty", "", 0, nil, []string{"Organization", "WebSite", "WebPage", "FAQPage"}}, // detected as a service page
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
			r, err := schemacov.Check(context.Background(), schemacov.Input{HTML: string(raw), URL: "https://example.com/page", PageType: c.pageType}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var found, missing []string
			for _, tc := range r.Types {
				if tc.Found {
					s := tc.Type + ":"
					for i, src := range tc.Sources {
						if i > 0 {
							s += ","
						}
						s += src
					}
					found = append(found, s)
				}
			}
			for _, m := range r.Missing {
				missing = append(missing, m.Type)
			}
			if r.Score != c.score {
				t.Errorf("score %d, want %d", r.Score, c.score)
			}
			if !slices.Equal(found, c.found) {
				t.Errorf("found %q, want %q", found, c.found)
			}
			if !slices.Equal(missing, c.missing) {
				t.Errorf("missing %q, want %q", missing, c.missing)
			}
			golden.Compare(t, base+".json", r, *update)
		})
	}
}
