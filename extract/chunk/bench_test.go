package chunk_test

import (
	"testing"

	"github.com/webinfra/webinfra/extract/chunk"
)

// BenchmarkSplit splits the markdown of every benchmark page (extracted
// beforehand, outside the timer) with the default options and reports
// pages per second.
func BenchmarkSplit(b *testing.B) {
	var pages []extracted
	for _, p := range benchPages(b) {
		if p.Markdown != "" {
			pages = append(pages, p)
		}
	}
	var bytes int64
	for _, p := range pages {
		bytes += int64(len(p.HTML))
	}
	b.SetBytes(bytes)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, err := chunk.Split(p.HTML, p.Markdown, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "pages/s")
}
