package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/internal/cputime"
)

// page50KB is a realistic 50 KB article page: headings, paragraphs, links,
// a list and a table.
func page50KB() []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Benchmark article</title>
<meta name="description" content="A long page for the fetch benchmark."></head><body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><article><h1>Benchmark article</h1>`)
	for i := 0; b.Len() < 50<<10; i++ {
		fmt.Fprintf(&b, `<h2>Section %d</h2><p>Paragraph %d explains <a href="/topic/%d">topic %d</a> with <strong>bold</strong> and <em>emphasis</em>, enough words to look like prose that a reader would actually read through.</p>
<ul><li>First point of %d</li><li>Second point</li></ul><table><tr><th>Key</th><th>Value</th></tr><tr><td>%d</td><td>value</td></tr></table>`, i, i, i, i, i, i)
	}
	b.WriteString(`</article><footer>Footer text</footer></body></html>`)
	return []byte(b.String())
}

// BenchmarkDirectScrape fetches a 50 KB loopback page on the direct tier
// and converts it to markdown, from 8 concurrent callers, and reports
// pages per second, the process's CPU time per page (the test server
// included) and what that CPU time allows on two cores: a figure other
// load on the machine skews far less than pages/s.
func BenchmarkDirectScrape(b *testing.B) {
	body := page50KB()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(body)
	}))
	defer srv.Close()
	f, err := New(&Options{AllowPrivateNetworks: true, CacheEntries: -1})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.SetParallelism(4)
	start, startCPU := time.Now(), cputime.Process()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := f.Scrape(ctx, ScrapeRequest{URL: srv.URL})
			if err != nil || len(res.Markdown) < 10<<10 {
				b.Errorf("scrape: %v", err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pages/s")
	cpu := float64((cputime.Process() - startCPU).Microseconds()) / float64(b.N)
	b.ReportMetric(cpu, "cpu-µs/page")
	b.ReportMetric(2e6/cpu, "pages/s-on-2-cores")
}
