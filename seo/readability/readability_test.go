package readability

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

// reference is testdata/textstat-0.7.4.json, written by
// testdata/gen_textstat_reference.py: the values textstat 0.7.4 itself
// (run with pyphen 0.13.2 and pyphen's PyPI hyph_en_US.dic) computes for
// each testdata/*.txt. See that script for the command.
type reference struct {
	Tool  string                        `json:"tool"`
	Texts map[string]map[string]float64 `json:"texts"`
}

func loadReference(t *testing.T) reference {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "textstat-0.7.4.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// asMap turns a Result into field name → value through its JSON tags.
func asMap(t *testing.T, r *Result) map[string]float64 {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for k, v := range m {
		if f, ok := v.(float64); ok {
			out[k] = f
		}
	}
	return out
}

// TestMatchesTextstat compares every field with textstat 0.7.4 on the
// reference texts: a children's story, a news report, an academic
// abstract, a licence clause, a list-heavy packing list and a web page's
// prose (curly quotes, ellipsis, URL, decimals, "e.g."). The issue asks
// for ±0.5; the syllable counter is pyphen's own algorithm on pyphen's own
// dictionary, so the values are expected to be identical.
func TestMatchesTextstat(t *testing.T) {
	t.Parallel()
	ref := loadReference(t)
	names := []string{"children.txt", "news.txt", "abstract.txt", "legal.txt", "list.txt", "web.txt"}
	if len(ref.Texts) != len(names) {
		t.Fatalf("reference has %d texts, the test names %d", len(ref.Texts), len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, ok := ref.Texts[name]
			if !ok {
				t.Fatalf("no reference for %s", name)
			}
			text, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Text(context.Background(), string(text), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := asMap(t, res)
			for field, w := range want {
				g, ok := got[field]
				if !ok {
					t.Errorf("%s: missing from Result", field)
					continue
				}
				if d := math.Abs(g - w); d > 1e-9 {
					t.Errorf("%s = %v, textstat %v (off by %.3g)", field, g, w, d)
				}
			}
		})
	}
}

func TestSyllablesMatchPyphen(t *testing.T) {
	t.Parallel()
	// Values from textstat 0.7.4's syllable_count (pyphen 0.13.2, en_US).
	cases := map[string]int{
		"hyphenation":                  3,
		"international":                5,
		"a":                            1,
		"the":                          1,
		"readability":                  4,
		"dog":                          1,
		"beautiful":                    3,
		"2021":                         1,
		"café":                         1,
		"extraordinary":                5,
		"unbelievable":                 4,
		"antidisestablishmentarianism": 10,
		"naïve":                        1,
		"approximately":                5,
	}
	for word, want := range cases {
		if got, _ := syllables(word, nil); got != want {
			t.Errorf("syllables(%q) = %d, want %d", word, got, want)
		}
	}
}

func TestSentenceRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text string
		want int
	}{
		{"One two three. Four five six!", 2},
		{"Hi. Bye. This one counts.", 1}, // sentences of two words or fewer are ignored
		{"No terminator at all here", 1},
		{"Pi is 3.14 in short form. Yes it is.", 3},
		{"...  leading dots then words here.", 1},
		{"Short.", 1}, // never below 1
	}
	for _, c := range cases {
		res, err := Text(context.Background(), c.text, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Sentences != c.want {
			t.Errorf("%q: sentences = %d, want %d", c.text, res.Sentences, c.want)
		}
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
		{Input{Text: "   \n\t"}, "text"},
		{Input{Text: "... !!! ---"}, "text"},
		{Input{Text: "a b c.", HTML: "<p>a b c.</p>"}, "html"},
	}
	for _, c := range cases {
		_, err := Analyze(ctx, c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: err = %v, want invalid %s", c.in, err, c.field)
		}
	}
	// A page that shows no text is valid input: zero scores, and a note.
	r, err := Analyze(ctx, Input{HTML: "<p> </p><script>var a = 'words here';</script>"}, nil)
	if err != nil || r.Words != 0 || r.Note == "" {
		t.Errorf("a page without text: %+v, %v", r, err)
	}
}

func TestHugeInputIsCut(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 1000)
	res, err := Text(context.Background(), text, &Options{MaxInputBytes: 4500})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || res.Words > 1000 || res.Words < 900 {
		t.Fatalf("truncated=%v words=%d", res.Truncated, res.Words)
	}
	full, err := Text(context.Background(), text, nil)
	if err != nil {
		t.Fatal(err)
	}
	if full.Truncated || full.Words != 9000 {
		t.Fatalf("uncut: truncated=%v words=%d", full.Truncated, full.Words)
	}
}

func TestCancelledContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Text(ctx, "Some words here.", nil); err == nil {
		t.Fatal("no error on a cancelled context")
	}
}

// TestHTMLBlocks checks the HTML variant: hidden text is skipped, and a
// page whose blocks all end sentences scores as its visible text does.
func TestHTMLBlocks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	page := `<!doctype html><html><head><title>Ignored title words here</title>
<style>p { color: red; }</style><script>var ignored = "script words are not text";</script></head>
<body><h1>Why the sky is blue.</h1>
<p>Sunlight is made of many colours. Blue light is scattered more than red light by the air.</p>
<noscript>Enable scripts to see more words.</noscript><template><p>Template words never show.</p></template>
<ul><li>Short waves scatter most.</li><li>Long waves pass straight through.</li></ul>
<p hidden>Hidden paragraph words.</p><p>That is why we see a <b>blue</b> sky.</p></body></html>`
	visible := "Why the sky is blue.\nSunlight is made of many colours. Blue light is scattered more than red light by the air.\n" +
		"Enable scripts to see more words.\n" +
		"Short waves scatter most.\nLong waves pass straight through.\nThat is why we see a blue sky."
	got, err := HTML(ctx, page, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Text(ctx, visible, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *got != *want {
		t.Fatalf("HTML = %+v\nText = %+v", got, want)
	}

	// A heading without a full stop is its own sentence in HTML, but runs
	// into the next sentence in plain text, as in textstat.
	heading := `<h2>Getting started with the toolkit</h2><p>Install the package and run the first example.</p>`
	h, err := HTML(ctx, heading, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Text(ctx, "Getting started with the toolkit Install the package and run the first example.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if h.Sentences != 2 || p.Sentences != 1 || h.Words != p.Words {
		t.Fatalf("html sentences=%d words=%d, text sentences=%d words=%d", h.Sentences, h.Words, p.Sentences, p.Words)
	}
}

// FuzzText checks that no input panics and that counts stay consistent.
func FuzzText(f *testing.F) {
	for _, s := range []string{"The cat sat.", "a\xffb c.d!e?", "<p>x</p>", "İstanbul ǅemal ﬁne.", "3.14 ... ?!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Text(context.Background(), s, nil)
		if err != nil {
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if r.Words == 0 || r.Sentences < 1 || r.Syllables < r.Words || r.Letters > r.Characters {
			t.Fatalf("%q: inconsistent %+v", s, r)
		}
		if _, err := HTML(context.Background(), s, nil); err != nil && !errs.Is(err, errs.KindInvalid) {
			t.Fatalf("html %q: %v", s, err)
		}
	})
}
