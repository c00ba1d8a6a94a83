package corpus_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/webinfra/webinfra/aeo/internal/pagedata"
	"github.com/webinfra/webinfra/extract/content"
)

// BenchmarkAudits times each audit on every corpus page, one page at a
// time on one goroutine, and reports the median (p50-ms) and 90th
// percentile (p90-ms) per page:
//
//   - html: the audit given only the HTML, as the endpoint runs it: the
//     parse and the extractions it needs (structured data; the article
//     for citation-readiness) included;
//   - page: the audit given the page already parsed and extracted (what
//     the page audit shares between its probes): the audit's own work.
//
// load/structured and load/content time the shared work itself: parsing
// with structured.FromNode, and with content.FromNode as well.
//
//	go test -run '^$' -bench Audits -benchtime 1x ./aeo/internal/corpus/
func BenchmarkAudits(b *testing.B) {
	pages := corpus(b)
	ctx := context.Background()
	given := make([]*pagedata.Page, len(pages))
	for i, p := range pages {
		l, err := pagedata.Load(ctx, p.html, p.pageURL(), nil, pagedata.Need{Content: true, Mode: content.ModeFast})
		if err != nil {
			b.Fatal(err)
		}
		given[i] = &l.Page
	}
	for _, withContent := range []bool{false, true} {
		name := "load/structured"
		if withContent {
			name = "load/content"
		}
		b.Run(name, func(b *testing.B) {
			timePages(b, pages, func(i int) error {
				_, err := pagedata.Load(ctx, pages[i].html, pages[i].pageURL(), nil, pagedata.Need{Content: withContent, Mode: content.ModeFast})
				return err
			})
		})
	}
	for _, a := range audits {
		b.Run(a.name+"/html", func(b *testing.B) {
			timePages(b, pages, func(i int) error { _, err := a.run(ctx, pages[i], nil); return err })
		})
		b.Run(a.name+"/page", func(b *testing.B) {
			timePages(b, pages, func(i int) error { _, err := a.run(ctx, pages[i], given[i]); return err })
		})
	}
}

// timePages runs f over every page per iteration and reports the
// percentiles of the per-page times of all iterations.
func timePages(b *testing.B, pages []page, f func(i int) error) {
	var times []time.Duration
	for b.Loop() {
		for i := range pages {
			start := time.Now()
			if err := f(i); err != nil {
				b.Fatalf("%s: %v", pages[i].id, err)
			}
			times = append(times, time.Since(start))
		}
	}
	slices.Sort(times)
	pct := func(p float64) float64 {
		return float64(times[int(p*float64(len(times)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.9), "p90-ms")
	b.ReportMetric(float64(len(pages)), "pages")
}
