package keywords

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

// paperAbstract is the sample abstract of Rose, Engel, Cramer and Cowley
// (2010), "Automatic keyword extraction from individual documents",
// Figure 1.1.
func paperAbstract(t testing.TB) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "rose2010-abstract.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// round1 rounds as the paper prints scores: 1 decimal, and whole numbers
// without one.
func round1(x float64) string {
	s := fmt.Sprintf("%.1f", math.Round(x*10)/10)
	return strings.TrimSuffix(s, ".0")
}

// TestPaperKeywords reproduces the keywords RAKE extracts from the paper's
// sample abstract, with the paper's scores, in the paper's order: the top
// T = one third of the 29 candidate words, i.e. 9 keywords.
func TestPaperKeywords(t *testing.T) {
	t.Parallel()
	want := []struct{ phrase, score string }{
		{"minimal generating sets", "8.7"},
		{"linear diophantine equations", "8.5"},
		{"minimal supporting set", "7.7"},
		{"minimal set", "4.7"},
		{"linear constraints", "4.5"},
		{"natural numbers", "4"},
		{"strict inequations", "4"},
		{"nonstrict inequations", "4"},
		{"upper bounds", "4"},
	}
	res, err := Extract(context.Background(), Input{Text: paperAbstract(t), TopThird: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StopList != "smart" || res.Words != 29 || len(res.Keywords) != len(want) {
		t.Fatalf("stop list %s, %d words, %d keywords: %+v", res.StopList, res.Words, len(res.Keywords), res.Keywords)
	}
	for i, w := range want {
		k := res.Keywords[i]
		if k.Phrase != w.phrase || round1(k.Score) != w.score {
			t.Errorf("keyword %d = %q (%s), paper %q (%s)", i+1, k.Phrase, round1(k.Score), w.phrase, w.score)
		}
	}
	all, err := Extract(context.Background(), Input{Text: paperAbstract(t), IncludeWordScores: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range all.Keywords {
		t.Logf("%2d. %-30s %.4f (%s)", i+1, k.Phrase, k.Score, round1(k.Score))
	}
	for _, w := range all.WordScores {
		t.Logf("word %-14s deg %d freq %d score %.3f", w.Word, w.Degree, w.Frequency, w.Score)
	}
	// Exact values behind the paper's rounded ones.
	exact := map[string]float64{
		"minimal generating sets": 8 + 2.0/3, "minimal supporting set": 7 + 2.0/3, "minimal set": 4 + 2.0/3,
	}
	for _, k := range res.Keywords {
		if e, ok := exact[k.Phrase]; ok && math.Abs(k.Score-e) > 1e-12 {
			t.Errorf("%s = %v, want %v", k.Phrase, k.Score, e)
		}
	}
}

// TestPaperFigureCandidates feeds the paper's own candidate split: with the
// words its Figure 1.2 drops as the stop list, the candidates are exactly
// Figure 1.2's, and word scores deg(w)/freq(w) are those its Table 1.1
// lists (plus "solutions", a candidate in Figure 1.2 but not a column of
// the table).
func TestPaperFigureCandidates(t *testing.T) {
	t.Parallel()
	stop := strings.Fields("of over the a and are considered for all types given these can be used in mixed construction")
	s := newScanner(makeStopSet(stop), 1, 16, 1000)
	s.scan(paperAbstract(t))
	var got []string
	start := 0
	for _, end := range s.ends {
		var ws []string
		for _, id := range s.phrases[start:end] {
			ws = append(ws, s.words[id])
		}
		got = append(got, strings.Join(ws, " "))
		start = end
	}
	figure := strings.Split("compatibility – systems – linear constraints – set – natural numbers – criteria – "+
		"compatibility – system – linear diophantine equations – strict inequations – nonstrict inequations – "+
		"upper bounds – components – minimal set – solutions – algorithms – minimal generating sets – "+
		"solutions – systems – criteria – corresponding algorithms – constructing – minimal supporting set – "+
		"solutions – solving – systems – systems", " – ")
	if !reflect.DeepEqual(got, figure) {
		t.Fatalf("candidates\n got %q\nwant %q", got, figure)
	}
	table := map[string][2]int{ // word: deg, freq
		"algorithms": {3, 2}, "bounds": {2, 1}, "compatibility": {2, 2}, "components": {1, 1},
		"constraints": {2, 1}, "constructing": {1, 1}, "corresponding": {2, 1}, "criteria": {2, 2},
		"diophantine": {3, 1}, "equations": {3, 1}, "generating": {3, 1}, "inequations": {4, 2},
		"linear": {5, 2}, "minimal": {8, 3}, "natural": {2, 1}, "nonstrict": {2, 1}, "numbers": {2, 1},
		"set": {6, 3}, "sets": {3, 1}, "solving": {1, 1}, "strict": {2, 1}, "supporting": {3, 1},
		"system": {1, 1}, "systems": {4, 4}, "upper": {2, 1}, "solutions": {3, 3},
	}
	scores := s.wordScores()
	if len(scores) != len(table) {
		t.Fatalf("%d words, want %d", len(scores), len(table))
	}
	for _, ws := range scores {
		if df := table[ws.Word]; ws.Degree != df[0] || ws.Frequency != df[1] {
			t.Errorf("%s: deg %d freq %d, want %d %d", ws.Word, ws.Degree, ws.Frequency, df[0], df[1])
		}
	}
	ranked := s.rank()
	if ranked[9].phrase != "corresponding algorithms" || round1(ranked[9].score) != "3.5" {
		t.Errorf("10th = %+v, want corresponding algorithms 3.5", ranked[9])
	}
}

func TestUnicodeAndDeterminism(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name, lang, text string
		want             []string // the first keywords, in order
	}{
		{
			name: "german umlauts", lang: "de",
			text: "Die schnelle Überprüfung großer Dateien ist wichtig. Eine schnelle Überprüfung spart Zeit.",
			want: []string{"schnelle überprüfung großer dateien", "schnelle überprüfung spart zeit", "wichtig"},
		},
		{
			name: "russian", lang: "ru",
			text: "Машинное обучение и анализ данных. Анализ данных помогает бизнесу.",
			want: []string{"анализ данных помогает бизнесу", "анализ данных", "машинное обучение"},
		},
		{
			name: "french elision", lang: "fr",
			text: "L'apprentissage automatique et l'intelligence artificielle.",
			want: []string{"apprentissage automatique", "intelligence artificielle"},
		},
		{
			name: "curly apostrophes and hyphens", lang: "en",
			text: "Don’t buy cheap running shoes. Well-known brands sell durable shoes!",
			want: []string{"well-known brands sell durable shoes", "buy cheap running shoes"},
		},
		{
			name: "ties keep first occurrence", lang: "en",
			text: "zebra crossing; apple orchard; mango tree.",
			want: []string{"zebra crossing", "apple orchard", "mango tree"},
		},
		{
			name: "numbers end phrases", lang: "en",
			text: "Windows 11 release notes 2024 edition",
			want: []string{"release notes", "windows", "edition"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var first []Keyword
			for run := 0; run < 3; run++ {
				res, err := Text(ctx, c.text, c.lang, nil)
				if err != nil {
					t.Fatal(err)
				}
				if run == 0 {
					first = res.Keywords
				} else if !reflect.DeepEqual(first, res.Keywords) {
					t.Fatalf("run %d differs: %+v vs %+v", run, res.Keywords, first)
				}
			}
			var got []string
			for _, k := range first[:min(len(first), len(c.want))] {
				got = append(got, k.Phrase)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("keywords %q, want %q (all: %+v)", got, c.want, first)
			}
		})
	}
}

func TestLengthLimitsAndCap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	text := paperAbstract(t)
	res, err := Extract(ctx, Input{Text: text, MinWords: 2, MaxWords: 2, MaxKeywords: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Keywords) != 3 {
		t.Fatalf("%d keywords, want 3", len(res.Keywords))
	}
	for _, k := range res.Keywords {
		if n := len(strings.Fields(k.Phrase)); n != 2 {
			t.Errorf("%q has %d words", k.Phrase, n)
		}
	}
	res, err = Extract(ctx, Input{Text: text, MinWords: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Keywords) != 3 || res.Keywords[0].Phrase != "linear diophantine equations" || res.Keywords[0].Score != 9 {
		t.Fatalf("three-word candidates only: %+v", res.Keywords)
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		in    Input
		field string
	}{
		{Input{}, "text"},
		{Input{Text: " \n "}, "text"},
		{Input{Text: "the of and, 42!"}, "text"},
		{Input{Text: "a", HTML: "<p>a</p>"}, "html"},
		{Input{Text: "words", Language: "xx"}, "language"},
		{Input{Text: "words", MaxKeywords: -1}, "max_keywords"},
		{Input{Text: "words", MaxKeywords: 501}, "max_keywords"},
		{Input{Text: "words", MinWords: 4, MaxWords: 2}, "min_words"},
		{Input{Text: "words", MaxWords: 17}, "max_words"},
	}
	for _, c := range cases {
		_, err := Extract(ctx, c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: err = %v, want invalid %s", c.in, err, c.field)
		}
	}
	// A page that shows no text is valid input: no keywords, and a note.
	r, err := Extract(ctx, Input{HTML: "<script>x()</script>"}, nil)
	if err != nil || len(r.Keywords) != 0 || r.Note == "" {
		t.Errorf("a page without text: %+v, %v", r, err)
	}
}

func TestHugeInputIsBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	text := strings.Repeat("alpha beta, gamma delta; ", 10_000) // 250 KB, 20,000 candidates
	res, err := Extract(ctx, Input{Text: text}, &Options{MaxInputBytes: 2500})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Candidates > 200 {
		t.Fatalf("byte cap: truncated=%v candidates=%d", res.Truncated, res.Candidates)
	}
	res, err = Extract(ctx, Input{Text: text}, &Options{MaxCandidates: 500})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Candidates != 500 {
		t.Fatalf("candidate cap: truncated=%v candidates=%d", res.Truncated, res.Candidates)
	}
	res, err = Extract(ctx, Input{Text: text}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated || res.Candidates != 20_000 {
		t.Fatalf("defaults: truncated=%v candidates=%d", res.Truncated, res.Candidates)
	}
}

func TestHTML(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Title words</title><script>var hidden = "script words";</script></head><body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<h1>Solar panel installation</h1>
<p>Solar panel installation costs dropped sharply. Roof orientation matters.</p>
<ul><li>Roof orientation</li><li>Local permits</li></ul></body></html>`
	res, err := HTML(context.Background(), page, "en", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, k := range res.Keywords {
		got[k.Phrase] = k.Occurrences
	}
	if got["solar panel installation"] != 1 || got["roof orientation"] != 1 || got["local permits"] != 1 || got["home docs"] != 1 {
		t.Fatalf("keywords %+v", res.Keywords)
	}
	for p := range got {
		if strings.Contains(p, "script") || strings.Contains(p, "title") || strings.Contains(p, "docs solar") ||
			strings.Contains(p, "orientation local") {
			t.Errorf("%q comes from hidden text or joins two blocks", p)
		}
	}
}

// FuzzExtract checks that no input panics and that answers are well formed.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{"linear constraints, natural numbers.", "a\xffb-c d’e 3.14", "<p>x</p><li>y z</li>", "l'homme d'état\n\nnext"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, in := range []Input{{Text: s}, {HTML: s}, {Text: s, Language: "fr", MinWords: 2}} {
			r, err := Extract(context.Background(), in, nil)
			if err != nil {
				if !errs.Is(err, errs.KindInvalid) {
					t.Fatalf("%+v: %v", in, err)
				}
				continue
			}
			if (len(r.Keywords) == 0) != (r.Note != "") || len(r.Keywords) > DefaultMaxKeywords {
				t.Fatalf("%+v: %d keywords", in, len(r.Keywords))
			}
			for i, k := range r.Keywords {
				if k.Phrase == "" || k.Score < 1 || (i > 0 && quantize(k.Score) > quantize(r.Keywords[i-1].Score)) {
					t.Fatalf("%+v: bad keyword %d %+v", in, i, k)
				}
			}
		}
	})
}
