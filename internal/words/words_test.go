package words

import (
	"strings"
	"testing"
	"unicode"
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

// checkSpace checks IndexSpace, TrimLeftSpace, TrimRightSpace and
// CountFields against the strings functions they stand for.
func checkSpace(t *testing.T, s string) {
	if got, want := IndexSpace(s), strings.IndexFunc(s, unicode.IsSpace); got != want {
		t.Errorf("IndexSpace(%q) = %d, want %d", s, got, want)
	}
	if got, want := TrimLeftSpace(s), strings.TrimLeftFunc(s, unicode.IsSpace); got != want {
		t.Errorf("TrimLeftSpace(%q) = %q, want %q", s, got, want)
	}
	if got, want := TrimRightSpace(s), strings.TrimRightFunc(s, unicode.IsSpace); got != want {
		t.Errorf("TrimRightSpace(%q) = %q, want %q", s, got, want)
	}
	if got, want := CountFields(s), len(strings.Fields(s)); got != want {
		t.Errorf("CountFields(%q) = %d, want %d", s, got, want)
	}
}
