package crawl

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/cputime"
)

// BenchmarkCrawl crawls one generated 2,000-page loopback site (the test
// site: robots.txt, 200 disallowed links) with Crawl and with a bare colly
// collector, and reports pages/s for each. The variants:
//
//   - our: Crawl with the default format, every page converted to
//     Markdown; robots.txt obeyed; parallelism 4 per host; the rate limit
//     lifted (Options.Unthrottled), since bare colly has none;
//   - our-html: the same with format html, so no Markdown conversion;
//   - bare-colly: an async colly collector with a LimitRule of parallelism
//     4 and colly's own robots.txt handling, visiting every a[href] and
//     converting nothing; it uses colly's default client
//     (http.DefaultTransport, without the SSRF guard);
//   - bare-colly-markdown: the same, also converting every page with
//     fetch.Markdown: the same work as our.
//
// The sub-benchmarks named after the variants run one after the other;
// side-by-side runs every variant in each iteration, rotating their order,
// so that load on the machine weighs on all of them alike, and reports
// each one's pages/s, its CPU time per page (the process's, test server
// included: a measure other load on the machine does not skew) and
// our/bare pages/s ratios in percent. Every crawl must get
// all 2,000 pages, or the benchmark fails.
func BenchmarkCrawl(b *testing.B) {
	const n = 2000
	site := newTestSite(b, n)
	seed := pageURL(site, 0)
	f := loopbackFetcher(b)
	ours := func(format string) func(testing.TB) int {
		return func(tb testing.TB) int {
			req := Request{Seeds: []string{seed}, MaxPages: 5000, MaxDepth: 1000, Format: format}
			res, err := Crawl(context.Background(), f, req, &Options{Unthrottled: true})
			if err != nil {
				tb.Fatal(err)
			}
			return res.Crawled
		}
	}
	variants := []struct {
		name string
		run  func(testing.TB) int
	}{
		{"our", ours(FormatMarkdown)},
		{"our-html", ours(FormatHTML)},
		{"bare-colly", func(tb testing.TB) int { return bareColly(tb, seed, false) }},
		{"bare-colly-markdown", func(tb testing.TB) int { return bareColly(tb, seed, true) }},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			pages := 0
			for b.Loop() {
				got := v.run(b)
				if got != n {
					b.Fatalf("%s crawled %d pages, want %d", v.name, got, n)
				}
				pages += got
			}
			b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
		})
	}
	b.Run("side-by-side", func(b *testing.B) {
		spent := make([]time.Duration, len(variants))
		cpu := make([]time.Duration, len(variants))
		pages := make([]int, len(variants))
		for i := 0; b.Loop(); i++ {
			for k := range variants {
				j := (i + k) % len(variants)
				start, startCPU := time.Now(), cputime.Process()
				got := variants[j].run(b)
				spent[j] += time.Since(start)
				cpu[j] += cputime.Process() - startCPU
				if got != n {
					b.Fatalf("%s crawled %d pages, want %d", variants[j].name, got, n)
				}
				pages[j] += got
			}
		}
		rate := map[string]float64{}
		for j, v := range variants {
			rate[v.name] = float64(pages[j]) / spent[j].Seconds()
			b.ReportMetric(rate[v.name], v.name+"-pages/s")
			b.ReportMetric(float64(cpu[j].Microseconds())/float64(pages[j]), v.name+"-cpu-µs/page")
		}
		b.ReportMetric(100*rate["our"]/rate["bare-colly"], "our/bare-colly-%")
		b.ReportMetric(100*rate["our-html"]/rate["bare-colly"], "our-html/bare-colly-%")
		b.ReportMetric(100*rate["our"]/rate["bare-colly-markdown"], "our/bare-colly-markdown-%")
	})
}

// bareColly is the baseline: a plain async colly crawl of the site,
// converting each page to Markdown when markdown is set. It returns the
// number of distinct pages fetched.
func bareColly(tb testing.TB, seed string, markdown bool) int {
	c := colly.NewCollector(colly.Async(true), colly.MaxDepth(1001))
	c.IgnoreRobotsTxt = false
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: DefaultParallelism}); err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	pages := map[string]bool{} // distinct: colly's visited check can let a URL through twice
	c.OnResponse(func(r *colly.Response) {
		if markdown {
			if _, err := fetch.Markdown(r.Body, r.Request.URL.String()); err != nil {
				tb.Error(err)
			}
		}
		mu.Lock()
		pages[r.Request.URL.String()] = true
		mu.Unlock()
	})
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { _ = e.Request.Visit(e.Attr("href")) })
	if err := c.Visit(seed); err != nil {
		tb.Fatal(err)
	}
	c.Wait()
	return len(pages)
}
