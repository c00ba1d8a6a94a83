package markdown

import (
	"bytes"
	"net/url"
	"testing"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	h2mconverter "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/articlebench"
)

// BenchmarkConvert converts the 181 real pages of the article benchmark
// with this package and with html-to-markdown, side by side, on one
// goroutine, and reports pages per second.
func BenchmarkConvert(b *testing.B) {
	pages := articlebench.Load(b)
	var size int64
	for _, p := range pages {
		size += int64(len(p.HTML))
	}
	run := func(b *testing.B, convert func(articlebench.Page)) {
		b.SetBytes(size / int64(len(pages)))
		for i := 0; b.Loop(); i++ {
			convert(pages[i%len(pages)])
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	}
	b.Run("webinfra", func(b *testing.B) {
		run(b, func(p articlebench.Page) {
			base, _ := url.Parse(p.URL)
			Convert(p.HTML, base)
		})
	})
	b.Run("webinfra-tree", func(b *testing.B) {
		// FromNode, the HTML parse included.
		run(b, func(p articlebench.Page) {
			base, _ := url.Parse(p.URL)
			doc, err := html.Parse(bytes.NewReader(p.HTML))
			if err != nil {
				b.Fatal(err)
			}
			FromNode(doc, base)
		})
	})
	b.Run("html-to-markdown", func(b *testing.B) {
		run(b, func(p articlebench.Page) {
			if _, err := htmltomarkdown.ConvertString(string(p.HTML), h2mconverter.WithDomain(p.URL)); err != nil {
				b.Fatal(err)
			}
		})
	})
}
