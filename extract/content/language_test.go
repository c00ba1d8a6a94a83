package content

import (
	"testing"

	"github.com/RadhiFadlillah/whatlanggo"

	"github.com/webinfra/webinfra/internal/articlebench"
)

// TestLanguageOnBenchmark checks that the evidence threshold does not
// cost real articles their language: on every benchmark page whose
// ground-truth body the detector reads confidently, both modes report that
// language.
func TestLanguageOnBenchmark(t *testing.T) {
	t.Parallel()
	pages := articlebench.Load(t)
	for _, m := range modes {
		agree, judged := 0, 0
		for _, p := range pages {
			truth := whatlanggo.Detect(p.Body)
			want := truth.Lang.Iso6391()
			if !truth.IsReliable() || countLetters(p.Body) < minLangLetters || want == "" {
				continue
			}
			judged++
			r, err := Extract(t.Context(), Input{HTML: string(p.HTML), URL: p.URL, Mode: m}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Language == want {
				agree++
			} else {
				t.Logf("%s %s: language %q, ground truth reads as %q", m, p.ID, r.Language, want)
			}
		}
		t.Logf("%s: %d of %d pages agree", m, agree, judged)
		if judged < 150 || float64(agree) < 0.98*float64(judged) {
			t.Errorf("%s: language agrees with the ground truth on %d of %d pages, want ≥ 98%%", m, agree, judged)
		}
	}
}

// TestLanguageGuess checks how another detector's guess for the article
// is used: when it agrees with the declared language, that is the answer
// without detecting again; otherwise the text decides as before.
func TestLanguageGuess(t *testing.T) {
	german := "Ein Forscherteam hat Spuren von Wasserdampf über der Oberfläche des eisigen Jupitermondes Europa bestätigt, eines der wichtigsten Ziele bei der Suche nach Leben außerhalb der Erde."
	tests := []struct {
		declared, guess, want string
	}{
		{"de", "de", "de"},
		{"en", "", "de"},   // no guess: detected
		{"en", "de", "de"}, // guess and declaration differ: detected
		{"", "de", "de"},   // nothing declared: detected
		{"en", "en", "en"}, // guess and declaration agree: taken as they are
	}
	for _, tt := range tests {
		if got := language(german, tt.declared, tt.guess); got != tt.want {
			t.Errorf("language(german, %q, %q) = %q, want %q", tt.declared, tt.guess, got, tt.want)
		}
	}
}
