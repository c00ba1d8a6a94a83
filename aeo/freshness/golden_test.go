package freshness_test

import (
	"context"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/webinfra/webinfra/aeo/freshness"
	"github.com/webinfra/webinfra/aeo/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

// now is the clock of every golden case.
var now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// goldenCase is one page under testdata/<page>.html: its report must equal
// testdata/<page>.json, have the score and list exactly the signals
// ("source property date") and inconsistency codes given.
type goldenCase struct {
	page            string
	lastModified    string
	score           int
	signals         []string
	inconsistencies []string
}

var goldenCases = []goldenCase{
	{"fresh", "Tue, 20 May 2025 09:00:00 GMT", 100, []string{
		"json_ld dateModified 2025-05-20T09:00:00Z", "json_ld datePublished 2025-01-10T08:00:00Z",
		"meta article:modified_time 2025-05-20T08:00:00Z", "meta article:published_time 2025-01-10T08:00:00Z",
		"http_header Last-Modified 2025-05-20T09:00:00Z", "visible_text Last updated 2025-05-20",
		"copyright © 2025",
	}, nil},
	{"stale", "Sat, 10 May 2025 08:00:00 GMT", 0, []string{
		"json_ld datePublished 2022-03-01", "http_header Last-Modified 2025-05-10T08:00:00Z",
		"visible_text Published 2022-03-01", "copyright © 2022",
	}, []string{"last_modified_far_newer"}},
	{"inconsistent", "Sat, 01 Nov 2025 00:00:00 GMT", 70, []string{
		"json_ld dateModified 2025-02-15T10:00:00Z", "json_ld datePublished 2025-03-01T10:00:00Z",
		"json_ld dateModified 2026-01-01", "meta article:modified_time 2025-01-01",
		"meta article:published_time 2025-02-01", "http_header Last-Modified 2025-11-01T00:00:00Z",
		"copyright © 2023",
	}, []string{
		"modified_before_published", "modified_before_published", "json_ld_meta_disagree", "json_ld_meta_disagree",
		"future_date", "future_date", "copyright_outdated",
	}},
	{"visible", "", 100, []string{
		"visible_text Updated 2025-05-28T16:00:00Z", "visible_text Published 2025-03-02",
		"visible_text Reviewed 2025-05-14", "visible_text Posted 2025-05-29", "copyright © 2025",
	}, nil},
	{"microdata", "", 67, []string{
		"microdata dateModified ", "microdata datePublished 2024-11-02",
	}, nil},
	{"header_only", "Mon, 19 May 2025 10:00:00 GMT", 60, []string{"http_header Last-Modified 2025-05-19T10:00:00Z"}, nil},
	{"copyright_only", "", 30, []string{"copyright © 2024"}, nil},
	{"none", "", 0, nil, nil},
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
			in := freshness.Input{HTML: string(raw), URL: "https://example.com/page", Now: now}
			if c.lastModified != "" {
				in.Header = http.Header{"Last-Modified": {c.lastModified}}
			}
			r, err := freshness.Check(context.Background(), in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Score != c.score {
				t.Errorf("score %d, want %d (%s)", r.Score, c.score, r.Reason)
			}
			var sigs, incs []string
			for _, s := range r.Signals {
				sigs = append(sigs, s.Source+" "+s.Property+" "+s.Date)
			}
			for _, in := range r.Inconsistencies {
				incs = append(incs, in.Code)
			}
			if !slices.Equal(sigs, c.signals) {
				t.Errorf("signals\n%q\nwant\n%q", sigs, c.signals)
			}
			if !slices.Equal(incs, c.inconsistencies) {
				t.Errorf("inconsistencies %q, want %q", incs, c.inconsistencies)
			}
			golden.Compare(t, base+".json", r, *update)
		})
	}
}
