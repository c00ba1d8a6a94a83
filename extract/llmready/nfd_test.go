package llmready_test

import (
	"context"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/extract/llmready"
)

// A page that writes accents as combining marks (NFD) keeps its accented
// words in the chunks: the extracted article is NFC, and the two are
// matched in NFC.
func TestBuildDecomposedAccents(t *testing.T) {
	cafe := "cafe\u0301" // e + COMBINING ACUTE ACCENT
	page := "<html><body><article><h1>Menu</h1><p>" +
		strings.Repeat("The "+cafe+" serves coffee and the "+cafe+" opens early every morning. ", 5) + "</p></article></body></html>"
	res, err := llmready.Build(context.Background(), []byte(page), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.AlignedWords != res.ContentWords || !strings.Contains(res.Chunks[0].Text, "The café serves") {
		t.Fatalf("aligned %d of %d words; chunk %q", res.AlignedWords, res.ContentWords, res.Chunks[0].Text)
	}
	c := res.Chunks[0]
	if !strings.Contains(page[c.Start:c.End], cafe) {
		t.Fatalf("offsets [%d, %d) miss the decomposed word", c.Start, c.End)
	}
}
