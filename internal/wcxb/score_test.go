package wcxb

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScoreIsTheREADMEsMetric(t *testing.T) {
	truth := Truth{MainContent: "The cat sat.\n\nThe cat ran_fast 3 times, café!",
		With: []string{"Cat sat", "dog"}, Without: []string{"Menu"}}
	// truth words: the cat sat the cat ran_fast 3 times café (9)
	// predicted: the cat sat menu (4); overlap: the cat sat (3)
	s := Score(truth, "The CAT sat. MENU")
	if !near(s.Precision, 3.0/4) || !near(s.Recall, 3.0/9) || !near(s.F1, 2*0.75*(1.0/3)/(0.75+1.0/3)) {
		t.Errorf("P %.4f R %.4f F1 %.4f", s.Precision, s.Recall, s.F1)
	}
	if s.With != 0.5 || s.Without != 1 {
		t.Errorf("with %.2f without %.2f, want 0.5 and 1", s.With, s.Without)
	}
	// Multiset: a word repeated beyond the truth's count is not overlap.
	if s := Score(Truth{MainContent: "a b"}, "a a a b"); !near(s.Precision, 0.5) || !near(s.Recall, 1) {
		t.Errorf("repeats: P %.4f R %.4f", s.Precision, s.Recall)
	}
	if s := Score(Truth{}, ""); s.F1 != 1 || s.With != 1 || s.Without != 0 {
		t.Errorf("empty truth, empty prediction: %+v, want F1 1, with 1 and without 0 (no snippets: met)", s)
	}
	if s := Score(Truth{}, "anything"); s.F1 != 0 {
		t.Errorf("empty truth, some prediction: F1 %.2f, want 0", s.F1)
	}
	if s := Score(Truth{MainContent: "words"}, ""); s.F1 != 0 {
		t.Errorf("empty prediction: F1 %.2f, want 0", s.F1)
	}
}

func TestSummaryAveragesPages(t *testing.T) {
	pages := []Page{{Type: "forum"}, {Type: "forum"}, {Type: "article"}}
	scores := []PageScore{{F1: 1}, {F1: 0}, {F1: 0.5}}
	by := ByType(pages, scores)
	if !near(by[""].F1, 0.5) || !near(by["forum"].F1, 0.5) || by["article"].Pages != 1 {
		t.Errorf("%+v", by)
	}
	if got := SortedTypes(by); len(got) != 2 || got[0] != "article" || got[1] != "forum" {
		t.Errorf("SortedTypes = %v", got)
	}
}

func TestLoadReadsTheSplit(t *testing.T) {
	pages := Load(t)
	if len(pages) != 1497 {
		t.Fatalf("%d pages, want 1497", len(pages))
	}
	n := map[string]int{}
	for _, p := range pages {
		n[p.Type]++
		if len(p.HTML) == 0 { // one page (0551) has no URL
			t.Fatalf("page %s: empty HTML", p.ID)
		}
	}
	if n["article"] != 793 || n["documentation"] != 91 || len(n) != 7 {
		t.Errorf("types %v", n)
	}
}
