package pagetype

import (
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/words"
)

// countSamples are texts for the counting helpers: phrases at either
// end, overlapping and repeated, split by a byte, non-ASCII text.
var countSamples = []string{
	"",
	"a",
	"re",
	"reply",
	"replies replies repliesreplies",
	"add to cartadd to cart add to car",
	"posts:posts: messages:\n quote unquote",
	"in stock in stockin stock out of stock",
	"naïve café: add to bag — 30 min read, ﬁlter ÿ€",
	"class class  function(x) import import",
	"\t leave a comment \u00a0 see also\u2003learn more",
}

// TestPhraseCountIsStringsCount: the one-pass phrase count gives, per
// group, the sum over its words of strings.Count.
func TestPhraseCountIsStringsCount(t *testing.T) {
	for _, text := range countSamples {
		checkPhraseCount(t, text)
	}
}

// TestCountFieldsIsStringsFields: words.CountFields is
// len(strings.Fields).
func TestCountFieldsIsStringsFields(t *testing.T) {
	for _, text := range countSamples {
		checkCountFields(t, text)
	}
}

// TestClassGroupsMatchByPrefix: a class token counts for a group when
// one of its prefixes is a word of it, as the plain way finds.
func TestClassGroupsMatchByPrefix(t *testing.T) {
	for _, val := range []string{"", "post", "posts", "po", "product-card__price", "commentlist",
		"navbar nav-item", "CartItem", "x-docs-api", "mdx hljs", "Kelvin-\u212aart", "pre-order"} {
		checkClassGroups(t, val)
	}
}

// FuzzCounts checks the counting helpers against the plain strings
// calls on any text.
func FuzzCounts(f *testing.F) {
	for _, s := range countSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkPhraseCount(t, text)
		checkCountFields(t, text)
		checkClassGroups(t, text)
	})
}

func checkCountFields(t *testing.T, text string) {
	t.Helper()
	if got, want := words.CountFields(text), len(strings.Fields(text)); got != want {
		t.Errorf("words.CountFields(%q) = %d, want %d", text, got, want)
	}
}

func checkPhraseCount(t *testing.T, text string) {
	t.Helper()
	got := textPhrases.count(text)
	for i, g := range textGroups {
		want := 0
		for _, w := range g.words {
			want += strings.Count(text, w)
		}
		if got[i] != want {
			t.Errorf("%q: group %s counted %d, strings.Count says %d", text, g.name, got[i], want)
		}
	}
}

func checkClassGroups(t *testing.T, val string) {
	t.Helper()
	w := walker{scan: &scan{class: make([]int, len(classGroups))}}
	w.classes(val)
	want := make([]int, len(classGroups))
	notLetter := func(r rune) bool { return r < 'a' || r > 'z' }
	for _, tok := range strings.FieldsFunc(strings.ToLower(val), notLetter) {
		for i, g := range classGroups {
			for _, word := range g.words {
				if strings.HasPrefix(tok, word) {
					want[i]++
					break
				}
			}
		}
	}
	for i, g := range classGroups {
		if w.class[i] != want[i] {
			t.Errorf("%q: class group %s counted %d, want %d", val, g.name, w.class[i], want[i])
		}
	}
}
