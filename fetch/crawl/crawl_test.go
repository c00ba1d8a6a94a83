package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"golang.org/x/time/rate"
)

// fast lifts the rate limit for tests that are not about it.
var fast = &Options{Unthrottled: true}

func TestCrawlWholeSiteEveryPageOnce(t *testing.T) {
	t.Parallel()
	const n = 2000
	site := newTestSite(t, n)
	var streamed atomic.Int64
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{
		Seeds: []string{pageURL(site, 0)}, MaxPages: 5000, MaxDepth: 1000, RatePerHost: MaxRatePerHost,
	}, &Options{OnPage: func(Page) { streamed.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if got := site.hitsOf(fmt.Sprintf("/page/%d", i)); got != 1 {
			t.Errorf("/page/%d requested %d times, want 1", i, got)
		}
	}
	if got := site.hitsUnder("/private/"); got != 0 {
		t.Errorf("%d requests under /private/, disallowed by robots.txt", got)
	}
	if site.hitsOf("/robots.txt") != 1 {
		t.Errorf("robots.txt requested %d times, want 1", site.hitsOf("/robots.txt"))
	}
	if res.Crawled != n || res.Failed != 0 || len(res.Pages) != n || res.SkippedByRobots != n/10 || res.Truncated {
		t.Errorf("crawled %d failed %d pages %d skipped %d truncated %v; want %d, 0, %d, %d, false",
			res.Crawled, res.Failed, len(res.Pages), res.SkippedByRobots, res.Truncated, n, n, n/10)
	}
	if streamed.Load() != int64(n) {
		t.Errorf("OnPage called %d times, want %d", streamed.Load(), n)
	}
	if p := site.peakInflight(); p > DefaultParallelism {
		t.Errorf("%d requests in flight at once, parallelism is %d", p, DefaultParallelism)
	}
	first := res.Pages[0]
	if first.URL != pageURL(site, 0) || first.Depth != 0 || first.StatusCode != 200 || first.Title != "Page 0" ||
		first.Links != 3 || !strings.Contains(first.Markdown, "# Page 0") || first.HTML != "" {
		t.Errorf("first page %+v", first)
	}
}

func TestCrawlIncludeExclude(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 2000)
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{
		Seeds: []string{pageURL(site, 0)}, MaxPages: 5000, MaxDepth: 1000,
		Include: []string{`/page/\d{1,2}$`}, Exclude: []string{`/page/5$`},
	}, fast)
	if err != nil {
		t.Fatal(err)
	}
	if res.Crawled != 99 || site.hitsUnder("/page/") != 99 {
		t.Errorf("crawled %d, %d page requests; want pages 0-99 but 5: 99", res.Crawled, site.hitsUnder("/page/"))
	}
	if site.hitsOf("/page/5") != 0 || site.hitsOf("/page/100") != 0 {
		t.Errorf("excluded or not included pages requested")
	}
}

func TestCrawlMaxDepth(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 50)
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{site.URL + "/chain/0"}, MaxDepth: 3}, fast)
	if err != nil {
		t.Fatal(err)
	}
	if res.Crawled != 4 || site.hitsUnder("/chain/") != 4 || site.hitsOf("/chain/4") != 0 {
		t.Fatalf("crawled %d (%d requests); want /chain/0-3", res.Crawled, site.hitsUnder("/chain/"))
	}
	for i, p := range res.Pages {
		if p.Depth != i || p.URL != fmt.Sprintf("%s/chain/%d", site.URL, i) {
			t.Errorf("page %d: %s at depth %d", i, p.URL, p.Depth)
		}
	}
	if res.Truncated {
		t.Error("truncated, though max_pages was not reached")
	}
}

func TestCrawlMaxPagesExact(t *testing.T) {
	t.Parallel()
	for _, max := range []int{1, 7, 50} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			t.Parallel()
			site := newTestSite(t, 2000)
			res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, MaxPages: max, MaxDepth: 100}, fast)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pages) != max || res.Crawled != max || site.hitsUnder("/page/") != max || !res.Truncated {
				t.Errorf("pages %d crawled %d requests %d truncated %v; want %d pages and requests, truncated",
					len(res.Pages), res.Crawled, site.hitsUnder("/page/"), res.Truncated, max)
			}
		})
	}
}

func TestCrawlMaxPagesWholeSiteNotTruncated(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 10) // 10 pages, and /private/0 disallowed
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, MaxPages: 10, MaxDepth: 100}, fast)
	if err != nil {
		t.Fatal(err)
	}
	if res.Crawled != 10 || res.Truncated {
		t.Errorf("crawled %d, truncated %v; want all 10 pages, not truncated", res.Crawled, res.Truncated)
	}
}

func TestCrawlSameSite(t *testing.T) {
	t.Parallel()
	other := newTestSite(t, 10)
	link := func(s *testSite) {
		s.extra["/"] = func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<html><body><a href="/page/0">home</a> <a href="%s/page/0">elsewhere</a></body></html>`, other.URL)
		}
	}
	tests := []struct {
		name       string
		seeds      func(home *testSite) []string
		wantOther  int
		wantPages  int
		subdomains bool
	}{
		{"seed's host only", func(h *testSite) []string { return []string{h.URL + "/"} }, 0, 11, false},
		{"subdomains do not widen to another port", func(h *testSite) []string { return []string{h.URL + "/"} }, 0, 11, true},
		// A seed's host is in scope: all of the other site is crawled too.
		{"both hosts are seeds", func(h *testSite) []string { return []string{h.URL + "/", other.URL + "/page/9"} }, 10, 21, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := newTestSite(t, 10, link)
			before := other.hitsUnder("/page/")
			res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: tt.seeds(home), MaxDepth: 20, AllowSubdomains: tt.subdomains}, fast)
			if err != nil {
				t.Fatal(err)
			}
			if got := other.hitsUnder("/page/") - before; got != tt.wantOther {
				t.Errorf("other host got %d page requests, want %d", got, tt.wantOther)
			}
			if res.Crawled != tt.wantPages {
				t.Errorf("crawled %d pages, want %d", res.Crawled, tt.wantPages)
			}
		})
	}
}

func TestCrawlSitemap(t *testing.T) {
	t.Parallel()
	origin := func(r *http.Request) string { return "http://" + r.Host }
	site := newTestSite(t, 5, func(s *testSite) {
		s.extra["/robots.txt"] = func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "%sSitemap: %s/sitemap_index.xml\n", defaultRobots, origin(r))
		}
		s.extra["/sitemap.xml"] = func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%s/orphan/1</loc></url><url><loc>/private/1</loc></url><url><loc>http://elsewhere.invalid/x</loc></url>
</urlset>`, origin(r))
		}
		s.extra["/sitemap_index.xml"] = func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `<?xml version="1.0" encoding="ISO-8859-1"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%s/sitemap-b.xml.gz</loc></sitemap></sitemapindex>`, origin(r))
		}
		s.extra["/sitemap-b.xml.gz"] = func(w http.ResponseWriter, r *http.Request) {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			fmt.Fprintf(zw, `<urlset><url><loc>%s/orphan/2</loc></url></urlset>`, origin(r))
			zw.Close()
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(buf.Bytes())
		}
		for _, p := range []string{"/orphan/1", "/orphan/2"} {
			s.extra[p] = func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `<html><head><title>%s</title></head><body>only in a sitemap</body></html>`, r.URL.Path)
			}
		}
	})

	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, Sitemap: true, MaxDepth: 10}, fast)
	if err != nil {
		t.Fatal(err)
	}
	if site.hitsOf("/orphan/1") != 1 || site.hitsOf("/orphan/2") != 1 {
		t.Errorf("orphans requested %d and %d times, want once each", site.hitsOf("/orphan/1"), site.hitsOf("/orphan/2"))
	}
	if site.hitsUnder("/private/") != 0 || res.SkippedByRobots != 2 {
		t.Errorf("private requests %d, skipped %d; want 0 and 2 (/private/0 linked, /private/1 in the sitemap)", site.hitsUnder("/private/"), res.SkippedByRobots)
	}
	if res.Crawled != 7 {
		t.Errorf("crawled %d, want 5 pages and 2 orphans", res.Crawled)
	}

	plain := newTestSite(t, 5, func(s *testSite) { s.extra["/sitemap.xml"] = site.extra["/sitemap.xml"] })
	if _, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(plain, 0)}, MaxDepth: 10}, fast); err != nil {
		t.Fatal(err)
	}
	if plain.hitsOf("/sitemap.xml") != 0 {
		t.Error("sitemap read without sitemap: true")
	}
}

func TestCrawlSSRFGuard(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 10)
	strict, err := fetch.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ignore := range []bool{false, true} {
		_, err = Crawl(context.Background(), strict, Request{Seeds: []string{pageURL(site, 0)}, IgnoreRobots: ignore, Sitemap: true}, fast)
		if errs.KindOf(err) != errs.KindForbidden || errs.FieldOf(err) != "seeds[0]" || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("ignore_robots=%v: got %v, want a forbidden error naming seeds[0]", ignore, err)
		}
	}
	if n := site.hitsUnder("/"); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}

func TestCrawlCancel(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 2000, func(s *testSite) { s.delay = 20 * time.Millisecond })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pages atomic.Int64
	start := time.Now()
	res, err := Crawl(ctx, loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, MaxPages: 5000, MaxDepth: 100}, &Options{
		Unthrottled: true,
		OnPage: func(Page) {
			if pages.Add(1) == 5 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || res == nil || len(res.Pages) < 5 {
		t.Fatalf("got %v, %+v; want the pages so far and context.Canceled", err, res)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("crawl took %s after cancellation", elapsed)
	}
	// Requests written before the return may reach the handler a little
	// later; after that, nothing more may arrive.
	time.Sleep(100 * time.Millisecond)
	settled := site.hitsUnder("/page/")
	time.Sleep(200 * time.Millisecond)
	if later := site.hitsUnder("/page/"); later != settled || settled > len(res.Pages)+DefaultParallelism {
		t.Errorf("requests: %d after return, %d later, for %d pages; want at most the pages and those in flight", settled, later, len(res.Pages))
	}
}

func TestCrawlRobotsAgentGroup(t *testing.T) {
	t.Parallel()
	robots := "User-agent: *\nDisallow: /private/\n\nUser-agent: webinfra-crawler\nDisallow: /page/3\n"
	tests := []struct {
		name    string
		ua      string
		ignore  bool
		want3   int
		skipped int
	}{
		{"default agent's group", "", false, 0, 1},
		{"other agent gets the * group", "otherbot/1.0", false, 1, 1},
		{"ignore_robots", "", true, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			site := newTestSite(t, 10, func(s *testSite) { s.robots = robots })
			res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, MaxDepth: 10, IgnoreRobots: tt.ignore},
				&Options{UserAgent: tt.ua, Unthrottled: true})
			if err != nil {
				t.Fatal(err)
			}
			if site.hitsOf("/page/3") != tt.want3 || res.SkippedByRobots != tt.skipped {
				t.Errorf("/page/3 requested %d times, skipped %d; want %d and %d", site.hitsOf("/page/3"), res.SkippedByRobots, tt.want3, tt.skipped)
			}
			if tt.ignore && site.hitsOf("/robots.txt") != 0 {
				t.Error("robots.txt fetched with ignore_robots")
			}
		})
	}
}

func TestCrawlRedirects(t *testing.T) {
	t.Parallel()
	other := newTestSite(t, 1)
	site := newTestSite(t, 3, func(s *testSite) {
		s.extra["/"] = func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<html><body><a href="/old">old</a> <a href="/away">away</a> <a href="/page/1">one</a> <a href="/cookie">c</a></body></html>`)
		}
		s.extra["/cookie"] = func(w http.ResponseWriter, r *http.Request) { // a redirect to itself, setting a cookie
			if _, err := r.Cookie("seen"); err != nil {
				http.SetCookie(w, &http.Cookie{Name: "seen", Value: "1", Path: "/"})
				http.Redirect(w, r, "/cookie", http.StatusFound)
				return
			}
			fmt.Fprint(w, `<html><head><title>Cookie</title></head><body>welcome back</body></html>`)
		}
		s.extra["/old"] = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/page/1", http.StatusMovedPermanently)
		}
		s.extra["/away"] = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/page/0", http.StatusFound)
		}
	})
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{site.URL + "/"}, MaxDepth: 5}, fast)
	if err != nil {
		t.Fatal(err)
	}
	if site.hitsOf("/page/1") != 1 || other.hitsUnder("/") != 0 {
		t.Errorf("/page/1 requested %d times, other host %d; want 1 and 0", site.hitsOf("/page/1"), other.hitsUnder("/"))
	}
	byURL := map[string]Page{}
	for _, p := range res.Pages {
		byURL[strings.TrimPrefix(p.URL, site.URL)] = p
	}
	if p := byURL["/away"]; p.StatusCode != http.StatusFound || p.FinalURL != "" {
		t.Errorf("off-site redirect page %+v, want its 302", p)
	}
	if p := byURL["/cookie"]; p.StatusCode != http.StatusOK || p.Title != "Cookie" || site.hitsOf("/cookie") != 2 {
		t.Errorf("redirect to itself: page %+v after %d requests, want the page after 2", p, site.hitsOf("/cookie"))
	}
	if res.Crawled+res.Failed != len(res.Pages) || res.Failed != 0 {
		t.Errorf("counts %d+%d for %d pages", res.Crawled, res.Failed, len(res.Pages))
	}
}

func TestCrawlFormatsAndCharset(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 1, func(s *testSite) {
		s.extra["/latin1"] = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
			w.Write([]byte("<html><head><title>Caf\xe9</title></head><body><p>D\xe9j\xe0 vu</p></body></html>"))
		}
		s.extra["/notes.txt"] = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "plain *notes*")
		}
	})
	tests := []struct {
		format         string
		wantMD, wantHT bool
	}{{"", true, false}, {"markdown", true, false}, {"html", false, true}, {"full", true, true}}
	for _, tt := range tests {
		res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{site.URL + "/latin1", site.URL + "/notes.txt"}, Format: tt.format}, fast)
		if err != nil {
			t.Fatal(err)
		}
		latin, notes := res.Pages[0], res.Pages[1]
		if latin.Title != "Café" || (latin.Markdown != "") != tt.wantMD || (latin.HTML != "") != tt.wantHT {
			t.Errorf("format %q: page %+v", tt.format, latin)
		}
		if tt.wantMD && !strings.Contains(latin.Markdown, "Déjà vu") || tt.wantHT && !strings.Contains(latin.HTML, "Déjà vu") {
			t.Errorf("format %q: not decoded to UTF-8: %+v", tt.format, latin)
		}
		if (notes.Markdown == "plain *notes*") != tt.wantMD || notes.ContentType != "text/plain" {
			t.Errorf("format %q: text page %+v", tt.format, notes)
		}
	}
}

func TestCrawlRateAndParallelism(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 2000, func(s *testSite) { s.delay = 30 * time.Millisecond })
	start := time.Now()
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, MaxPages: 11, MaxDepth: 100, RatePerHost: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 11 requests at 20/s with a burst of 1: ten waits of 50ms.
	if elapsed := time.Since(start); elapsed < 450*time.Millisecond || res.Crawled != 11 {
		t.Errorf("11 pages at 20/s took %s (crawled %d)", elapsed, res.Crawled)
	}

	wide := newTestSite(t, 2000, func(s *testSite) { s.delay = 20 * time.Millisecond })
	if _, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(wide, 0)}, MaxPages: 200, MaxDepth: 100},
		&Options{Unthrottled: true, Parallelism: 2}); err != nil {
		t.Fatal(err)
	}
	if p := wide.peakInflight(); p != 2 {
		t.Errorf("peak of %d requests in flight, want parallelism 2", p)
	}
}

// A Crawl-delay in robots.txt for the crawler's group slows its host,
// even an unthrottled crawl; a delay for another agent does not apply.
func TestCrawlRobotsCrawlDelay(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 2000, func(s *testSite) {
		s.robots = "User-agent: otherbot\nCrawl-delay: 30\n\nUser-agent: *\nCrawl-delay: 0.05\nDisallow: /private/\n"
	})
	start := time.Now()
	res, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, MaxPages: 11, MaxDepth: 100},
		&Options{Unthrottled: true})
	if err != nil {
		t.Fatal(err)
	}
	// 11 requests, one per 50ms with a burst of 1: ten waits of 50ms.
	if elapsed := time.Since(start); elapsed < 450*time.Millisecond || res.Crawled != 11 {
		t.Errorf("11 pages with a Crawl-delay of 50ms took %s (crawled %d)", elapsed, res.Crawled)
	}
}

func TestHostLimiterSlowTo(t *testing.T) {
	l := newHostLimiter(http.DefaultTransport, 1, rate.Inf, time.Second)
	l.slowTo("a.example:443", 2*time.Second)
	if got := l.slot("a.example:443").limiter.Limit(); got != rate.Every(2*time.Second) {
		t.Fatalf("limit %v after a 2s delay", got)
	}
	l.slowTo("a.example:443", time.Second) // never faster than already set
	if got := l.slot("a.example:443").limiter.Limit(); got != rate.Every(2*time.Second) {
		t.Fatalf("limit %v after a shorter delay", got)
	}
	if got := l.slot("b.example:443").limiter.Limit(); got != rate.Inf {
		t.Fatalf("another host's limit %v", got)
	}
}

func TestCrawlNothingFetched(t *testing.T) {
	t.Parallel()
	site := newTestSite(t, 1)
	dead := site.URL
	site.Close()
	_, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{dead + "/page/0"}}, fast)
	if errs.KindOf(err) != errs.KindUpstream || !strings.Contains(err.Error(), "no page could be fetched") {
		t.Fatalf("got %v, want an upstream error", err)
	}
	_, err = Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{dead + "/page/0"}, IgnoreRobots: true}, fast)
	if errs.KindOf(err) != errs.KindUpstream {
		t.Fatalf("ignore_robots: got %v, want an upstream error", err)
	}
}

func TestCrawlInvalid(t *testing.T) {
	t.Parallel()
	f := loopbackFetcher(t)
	if _, err := Crawl(context.Background(), f, Request{Seeds: []string{"http://127.0.0.1/"}, Include: []string{"("}}, nil); errs.FieldOf(err) != "include[0]" {
		t.Errorf("bad include: %v", err)
	}
	if _, err := Crawl(context.Background(), f, Request{Seeds: []string{"http://127.0.0.1/"}}, &Options{Parallelism: -1}); errs.FieldOf(err) != "options.parallelism" {
		t.Errorf("bad parallelism: %v", err)
	}
	if _, err := Crawl(context.Background(), nil, Request{Seeds: []string{"http://127.0.0.1/"}}, nil); errs.KindOf(err) != errs.KindInternal {
		t.Errorf("nil fetcher: %v", err)
	}
}
