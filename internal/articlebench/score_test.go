package articlebench

import (
	"math"
	"testing"
)

func TestScore(t *testing.T) {
	truth := "one two three four five"
	if s := Score(truth, truth); s.TP != 1 || s.FP != 0 || s.FN != 0 {
		t.Fatalf("identical: %+v", s)
	}
	// truth shingles: (1234) (2345); predicted: (1234) (2346) → TP 1, FP 1, FN 1.
	s := Score(truth, "one two three four six")
	if math.Abs(s.TP-1.0/3) > 1e-9 || math.Abs(s.FP-1.0/3) > 1e-9 || math.Abs(s.FN-1.0/3) > 1e-9 {
		t.Fatalf("one wrong word: %+v", s)
	}
	if s := Score("short text", "short text"); s.TP != 1 {
		t.Fatalf("fewer than four words is one shingle: %+v", s)
	}
	if s := Score("", ""); s != (PageScore{}) {
		t.Fatalf("empty: %+v", s)
	}
	if w := Words("Don’t stop—über_cool 3.14"); len(w) != 6 {
		t.Fatalf("words: %q", w)
	}
}

func TestSummarize(t *testing.T) {
	sum := Summarize([]PageScore{{TP: 1}, {TP: 0.5, FP: 0.5}, {FN: 1}})
	// precision over pages 1 and 2: (1 + 0.5)/2; recall over all three: (1 + 1 + 0)/3.
	if math.Abs(sum.Precision-0.75) > 1e-9 || math.Abs(sum.Recall-2.0/3) > 1e-9 {
		t.Fatalf("%+v", sum)
	}
}

func TestLoad(t *testing.T) {
	pages := Load(t)
	if len(pages) != 181 {
		t.Fatalf("%d pages, want 181", len(pages))
	}
	for _, p := range pages {
		if len(p.HTML) == 0 || p.Body == "" || p.URL == "" {
			t.Fatalf("page %s incomplete", p.ID)
		}
	}
}
