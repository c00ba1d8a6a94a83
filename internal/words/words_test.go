package words

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCount(t *testing.T) {
	for s, want := range map[string]int{"": 0, "Arc Brass, $89.00": 4, "  one ": 1, "naïve café-bar": 3, "東京 2026": 2} {
		if got := Count(s); got != want {
			t.Errorf("Count(%q) = %d, want %d", s, got, want)
		}
	}
}

// spaceSamples hold ASCII, Latin-1 and wide spaces, U+0085 and invalid
// UTF-8 (\x85 alone is not U+0085).
var spaceSamples = []string{"", "a", " a", "a b", "\u00a0x", "x\u2003y", "naïve\tcafé", "東京\u3000都", "\x85", "ab\xffc d", "\u0085z", "  \n "}

func TestSpaceAsStrings(t *testing.T) {
	for _, s := range spaceSamples {
		checkSpace(t, s)
	}
}

func FuzzSpace(f *testing.F) {
	for _, s := range spaceSamples {
		f.Add(s)
	}
	f.Fuzz(checkSpace)
}

// checkSpace checks IndexSpace, TrimLeftSpace and CountFields against the strings
// functions they stand for.
func checkSpace(t *testing.T, s string) {
	i, size := IndexSpace(s)
	if want := strings.IndexFunc(s, unicode.IsSpace); i != want {
		t.Errorf("IndexSpace(%q) = %d, want %d", s, i, want)
	}
	if i >= 0 {
		r, n := utf8.DecodeRuneInString(s[i:])
		if size != n || !unicode.IsSpace(r) {
			t.Errorf("IndexSpace(%q) size %d, want %d", s, size, n)
		}
	}
	if got, want := TrimLeftSpace(s), strings.TrimLeftFunc(s, unicode.IsSpace); got != want {
		t.Errorf("TrimLeftSpace(%q) = %q, want %q", s, got, want)
	}
	if got, want := CountFields(s), len(strings.Fields(s)); got != want {
		t.Errorf("CountFields(%q) = %d, want %d", s, got, want)
	}
}
