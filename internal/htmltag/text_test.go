package htmltag

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/unicode/norm"
)

// nfcSamples hold composed and decomposed accents after ASCII, at either
// end and after other non-ASCII text, Hangul jamo, marks out of order
// and runs longer than eight bytes either side.
var nfcSamples = []string{
	"", "plain ASCII text longer than eight bytes", "café", "cafe\u0301", "e\u0301", "\u0301 leading mark",
	"naïve résumé — “quoted” text", "Å and A\u030a", "\u1100\u1161 jamo", "\uac00 syllable",
	"a\u0323\u0302 marks in order", "a\u0302\u0323 marks out of order", "x\u0307\u0323",
	"東京 2026 and more text after", "abcdefgh\u00e9ijklmnop", "abcdefg\u0065\u0301ijklmnop",
	"\u212b angstrom sign", "\u0958 devanagari", "ok\u0344", "\u00e9\u0301",
}

func TestIsNFCAsNorm(t *testing.T) {
	for _, s := range nfcSamples {
		checkNFC(t, s)
	}
}

func FuzzIsNFC(f *testing.F) {
	for _, s := range nfcSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		checkNFC(t, s)
	})
}

func checkNFC(t *testing.T, s string) {
	t.Helper()
	if got, want := isNFC(s), norm.NFC.IsNormalString(s); got != want {
		t.Errorf("isNFC(%q) = %v, want %v", s, got, want)
	}
}

// ParseText repairs mojibake: UTF-8 read as Windows-1252 and written
// again, and its decomposed accents then composed.
func TestParseTextRepairsMojibake(t *testing.T) {
	doc, err := ParseText("<p>It doesnâ€™t cost 5 â‚¬ at the cafe\u00cc\u0081</p>", "html")
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for n := range doc.Descendants() {
		if n.Type == html.TextNode {
			text += n.Data
		}
	}
	if want := "It doesn’t cost 5 € at the café"; text != want {
		t.Errorf("text %q, want %q", text, want)
	}
}
