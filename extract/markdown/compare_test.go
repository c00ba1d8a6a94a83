package markdown

import (
	"bytes"
	"net/url"
	"regexp"
	"testing"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	h2mconverter "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/articlebench"
)

// TestAgreesWithHTMLToMarkdown converts the 181 real pages of the article
// benchmark with this package and with html-to-markdown, the library it
// replaces, and checks that the two keep the same words: each keeps at
// least 97% of the other's (word multisets of the text, link destinations aside), on average
// and on nearly every page.
func TestAgreesWithHTMLToMarkdown(t *testing.T) {
	if testing.Short() {
		t.Skip("converts 181 real pages twice")
	}
	pages := articlebench.Load(t)
	var sumOurs, sumTheirs float64
	low := 0
	for _, p := range pages {
		base, _ := url.Parse(p.URL)
		ours := Convert(p.HTML, base)
		theirs, err := htmltomarkdown.ConvertString(string(p.HTML), h2mconverter.WithDomain(p.URL))
		if err != nil {
			t.Fatalf("%s: html-to-markdown: %v", p.ID, err)
		}
		keptOurs, keptTheirs := overlap(textWords(ours), textWords(theirs))
		sumOurs += keptOurs
		sumTheirs += keptTheirs
		if keptOurs < 0.9 || keptTheirs < 0.9 {
			low++
			t.Logf("%s: ours keeps %.3f of theirs, theirs %.3f of ours", p.ID, keptOurs, keptTheirs)
		}
	}
	n := float64(len(pages))
	t.Logf("mean over %d pages: ours keeps %.4f of html-to-markdown's words; it keeps %.4f of ours; %d pages under 0.9", len(pages), sumOurs/n, sumTheirs/n, low)
	// The pages under 0.9 are those where html-to-markdown keeps what this
	// package drops by design: <noscript> copies, <select> options, SVG
	// text.
	if sumOurs/n < 0.975 || sumTheirs/n < 0.995 || low > 10 {
		t.Fatalf("word agreement fell: %.4f / %.4f, %d pages under 0.9", sumOurs/n, sumTheirs/n, low)
	}
}

// The libraries differ by design in link titles (this one drops them) and
// in images (this one drops data: placeholders and finds lazily loaded
// sources), so the comparison is over the text: images and link
// destinations are left out.
var (
	images       = regexp.MustCompile(`!\[(?:[^\]\\]|\\.)*\]\((?:[^()]|\([^)]*\))*\)`)
	destinations = regexp.MustCompile(`\]\((?:[^()]|\([^)]*\))*\)`)
)

func textWords(md string) []string {
	md = images.ReplaceAllString(md, " ")
	return articlebench.Words(destinations.ReplaceAllString(md, "]"))
}

// overlap returns the share of b's words that a has, and of a's that b has.
func overlap(a, b []string) (aKeepsB, bKeepsA float64) {
	count := func(ws []string) map[string]int {
		m := make(map[string]int, len(ws))
		for _, w := range ws {
			m[w]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	common := 0
	for w, n := range ca {
		common += min(n, cb[w])
	}
	aKeepsB, bKeepsA = 1, 1
	if len(b) > 0 {
		aKeepsB = float64(common) / float64(len(b))
	}
	if len(a) > 0 {
		bKeepsA = float64(common) / float64(len(a))
	}
	return aKeepsB, bKeepsA
}

// TestTreeAndTokensAgree: FromNode over a parsed page and Convert over
// its bytes see the same words (the parser repairs markup the tokenizer
// takes as written, so the two may differ in a few places).
func TestTreeAndTokensAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("converts 181 real pages twice")
	}
	pages := articlebench.Load(t)
	var sum float64
	worst := 1.0
	for _, p := range pages {
		base, _ := url.Parse(p.URL)
		doc, err := html.Parse(bytes.NewReader(p.HTML))
		if err != nil {
			t.Fatal(err)
		}
		a, b := overlap(textWords(Convert(p.HTML, base)), textWords(FromNode(doc, base)))
		sum += min(a, b)
		worst = min(worst, a, b)
	}
	mean := sum / float64(len(pages))
	t.Logf("tree vs tokens, word overlap: mean %.4f, worst page %.4f", mean, worst)
	if mean < 0.995 || worst < 0.9 {
		t.Fatalf("tree and token conversions differ: mean %.4f, worst %.4f", mean, worst)
	}
}
