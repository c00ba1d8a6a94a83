package headings_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/webinfra/webinfra/aeo/headings"
	"github.com/webinfra/webinfra/internal/htmltag"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

// TestScoreGolden runs Score over each page under testdata (one per
// problem it can report): the report must equal the page's .json file,
// and the score, problem codes and question count are checked here too.
func TestScoreGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		page      string
		score     int
		codes     []string
		questions int
	}{
		{page: "good", score: 100, questions: 2},
		{page: "no_headings", score: 75, codes: []string{"missing_h1"}},
		{page: "no_h1", score: 75, codes: []string{"missing_h1"}},
		{page: "multiple_h1", score: 90, codes: []string{"multiple_h1", "multiple_h1"}},
		{page: "skipped_levels", score: 90, codes: []string{"skipped_level", "skipped_level"}},
		{page: "first_below_h2", score: 95, codes: []string{"skipped_level"}},
		{page: "empty", score: 90, codes: []string{"empty_heading", "empty_heading"}},
		{page: "long", score: 98, codes: []string{"long_heading"}},
		{page: "duplicate", score: 96, codes: []string{"duplicate_heading", "duplicate_heading"}},
		{page: "questions", score: 100, questions: 4},
		{page: "hidden", score: 100},
	}
	for _, c := range cases {
		t.Run(c.page, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join("testdata", c.page)
			raw, err := os.ReadFile(base + ".html")
			if err != nil {
				t.Fatal(err)
			}
			doc, err := htmltag.Parse(string(raw), "html")
			if err != nil {
				t.Fatal(err)
			}
			r := headings.Score(doc)
			var codes []string
			for _, p := range r.Problems {
				codes = append(codes, p.Code)
			}
			if r.Score != c.score || !slices.Equal(codes, c.codes) || r.QuestionCount != c.questions {
				t.Errorf("score %d, codes %q, questions %d; want %d, %q, %d", r.Score, codes, r.QuestionCount, c.score, c.codes, c.questions)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(base+".json", buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			golden, err := os.ReadFile(base + ".json")
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(buf.Bytes(), golden) {
				t.Errorf("report differs from %s.json (run with -update and review the diff):\n%s", base, buf.Bytes())
			}
		})
	}
}

// TestScoreLimits checks the caps: a page with more headings than
// MaxHeadings lists MaxHeadings, counts them all and says it was cut; the
// deductions of one code stop at its limit.
func TestScoreLimits(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	b.WriteString("<h1>Top</h1>")
	for range headings.MaxHeadings + 10 {
		b.WriteString("<h4>Same</h4>")
	}
	doc, err := htmltag.Parse(b.String(), "html")
	if err != nil {
		t.Fatal(err)
	}
	r := headings.Score(doc)
	if len(r.Outline) != headings.MaxHeadings || r.Total != headings.MaxHeadings+11 || !r.Truncated {
		t.Errorf("outline %d, total %d, truncated %v", len(r.Outline), r.Total, r.Truncated)
	}
	if len(r.Problems) != headings.MaxProblems {
		t.Errorf("%d problems listed, want %d", len(r.Problems), headings.MaxProblems)
	}
	// skipped_level once (h1 → h4), duplicate_heading capped at 10.
	if r.Score != 100-5-10 {
		t.Errorf("score %d, deductions %+v", r.Score, r.Deductions)
	}
}
