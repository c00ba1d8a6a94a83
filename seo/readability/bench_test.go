package readability

import (
	"context"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchText is about 50 KB of the reference texts, repeated.
func benchText(b *testing.B) string {
	b.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(names) == 0 {
		b.Fatal("no testdata texts", err)
	}
	var sb strings.Builder
	for sb.Len() < 50_000 {
		for _, n := range names {
			raw, err := os.ReadFile(n)
			if err != nil {
				b.Fatal(err)
			}
			sb.Write(raw)
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

func BenchmarkText50KB(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	ctx := context.Background()
	for b.Loop() {
		if _, err := Text(ctx, text, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHTML50KB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<html><head><title>t</title><script>var x = 1;</script></head><body>")
	for _, para := range strings.Split(benchText(b), "\n\n") {
		sb.WriteString("<p>" + html.EscapeString(para) + "</p>\n")
	}
	sb.WriteString("</body></html>")
	page := sb.String()
	b.SetBytes(int64(len(page)))
	ctx := context.Background()
	for b.Loop() {
		if _, err := HTML(ctx, page, nil); err != nil {
			b.Fatal(err)
		}
	}
}
