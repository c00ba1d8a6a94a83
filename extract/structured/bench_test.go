package structured

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/articlebench"
)

// loadPages reads the article-extraction benchmark's pages (181 real
// articles), skipping when they are missing.
func loadPages(tb testing.TB) map[string]string {
	tb.Helper()
	pages := map[string]string{}
	for _, p := range articlebench.Load(tb) {
		pages[p.ID] = string(p.HTML)
	}
	return pages
}

// TestBenchmarkPages runs over real pages: no error, and most articles
// carry JSON-LD or OpenGraph.
func TestBenchmarkPages(t *testing.T) {
	pages := loadPages(t)
	var withData, withErrors int
	for name, page := range pages {
		res, err := Extract(context.Background(), Input{HTML: page, BaseURL: "https://example.com/article"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.JSONLD != nil && len(res.JSONLD.Items) > 0 || len(res.OpenGraph) > 0 {
			withData++
		}
		if res.JSONLD != nil && len(res.JSONLD.Errors) > 0 {
			withErrors++
			t.Logf("%s: %+v", name, res.JSONLD.Errors)
		}
	}
	t.Logf("%d pages, %d with JSON-LD or OpenGraph, %d with unreadable JSON-LD", len(pages), withData, withErrors)
	if withData < len(pages)*3/4 {
		t.Errorf("%d of %d pages with JSON-LD or OpenGraph, want at least 3/4", withData, len(pages))
	}
}

// BenchmarkExtract extracts every benchmark page in turn and reports
// pages per second.
func BenchmarkExtract(b *testing.B) {
	pages := loadPages(b)
	var inputs []Input
	var size int64
	for _, p := range pages {
		inputs = append(inputs, Input{HTML: p, BaseURL: "https://example.com/article"})
		size += int64(len(p))
	}
	b.SetBytes(size / int64(len(inputs)))
	ctx := context.Background()
	n := 0
	start := time.Now()
	for b.Loop() {
		if _, err := Extract(ctx, inputs[n%len(inputs)], nil); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "pages/s")
}

// BenchmarkFromNode reads every benchmark page's tree, parsed beforehand,
// in turn and reports pages per second: the cost beyond parsing.
func BenchmarkFromNode(b *testing.B) {
	var docs []*html.Node
	for _, p := range loadPages(b) {
		doc, err := html.Parse(strings.NewReader(p))
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, doc)
	}
	u, _ := url.Parse("https://example.com/article")
	n := 0
	start := time.Now()
	for b.Loop() {
		FromNode(docs[n%len(docs)], u, nil)
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "pages/s")
}
