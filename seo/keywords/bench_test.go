package keywords

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchText is about 50 KB of English prose: the readability package's
// reference texts and the paper's abstract, repeated.
func benchText(b *testing.B) string {
	b.Helper()
	names, _ := filepath.Glob(filepath.Join("..", "readability", "testdata", "*.txt"))
	names = append(names, filepath.Join("testdata", "rose2010-abstract.txt"))
	var sb strings.Builder
	for sb.Len() < 50_000 {
		for _, n := range names {
			raw, err := os.ReadFile(n)
			if err != nil {
				b.Fatal(err)
			}
			sb.Write(raw)
			sb.WriteString("\n\n")
		}
	}
	return sb.String()
}

func BenchmarkExtract50KB(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	ctx := context.Background()
	for b.Loop() {
		if _, err := Extract(ctx, Input{Text: text}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExtractHTML50KB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<html><head><script>var x = 1;</script></head><body>")
	for _, para := range strings.Split(benchText(b), "\n\n") {
		sb.WriteString("<p>" + para + "</p>\n")
	}
	sb.WriteString("</body></html>")
	page := sb.String()
	b.SetBytes(int64(len(page)))
	ctx := context.Background()
	for b.Loop() {
		if _, err := Extract(ctx, Input{HTML: page}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
