package crawl

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/fetch"
)

// testSite is a generated loopback site. Pages /page/0 .. /page/n-1 exist;
// page i links to pages 2i+1, 2i+2 and i-1 (those that exist), so every
// page is reachable from /page/0, and every tenth page also links to
// /private/i, which robots.txt disallows. Chain pages /chain/i link only to
// /chain/i+1. Every request is counted by path.
type testSite struct {
	*httptest.Server
	n      int
	robots string        // robots.txt body; "" answers 404
	delay  time.Duration // added to every page response
	extra  map[string]http.HandlerFunc

	mu          sync.Mutex
	hits        map[string]int
	inflight    int
	maxInflight int
}

const defaultRobots = "User-agent: *\nDisallow: /private/\n"

func newTestSite(tb testing.TB, n int, configure ...func(*testSite)) *testSite {
	tb.Helper()
	s := &testSite{n: n, robots: defaultRobots, hits: map[string]int{}, extra: map[string]http.HandlerFunc{}}
	for _, c := range configure {
		c(s)
	}
	s.Server = httptest.NewServer(s)
	tb.Cleanup(s.Close)
	return s
}

func (s *testSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	if r.URL.Path != "/robots.txt" { // fetched apart from the crawl's request slots
		s.mu.Lock()
		s.inflight++
		s.maxInflight = max(s.maxInflight, s.inflight)
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.inflight--
			s.mu.Unlock()
		}()
	}
	if h, ok := s.extra[r.URL.Path]; ok {
		h(w, r)
		return
	}
	if r.URL.Path == "/robots.txt" {
		if s.robots == "" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, s.robots)
		return
	}
	if s.delay > 0 {
		time.Sleep(s.delay)
	}
	kind, num, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	i, err := strconv.Atoi(num)
	if !ok || err != nil || i < 0 || i >= s.n {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch kind {
	case "page":
		fmt.Fprint(w, sitePage(i, s.n))
	case "chain":
		fmt.Fprintf(w, `<html><head><title>Chain %d</title></head><body><a href="/chain/%d">next</a></body></html>`, i, i+1)
	case "private":
		fmt.Fprintf(w, `<html><head><title>Private %d</title></head><body>secret</body></html>`, i)
	default:
		http.NotFound(w, r)
	}
}

// sitePage renders page i of n: a title, some prose and its links.
func sitePage(i, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>Page %d</title></head><body>", i)
	fmt.Fprintf(&b, "<h1>Page %d</h1><p>This is page <strong>%d</strong> of a generated site. ", i, i)
	b.WriteString("It has a little prose so that converting it to Markdown does some work, ")
	b.WriteString("like a short article would: a heading, two paragraphs and a list of links.</p>")
	b.WriteString("<p>Crawlers should visit every public page exactly once and never the private ones.</p><ul>")
	for _, j := range []int{2*i + 1, 2*i + 2, i - 1} {
		if j >= 0 && j < n {
			fmt.Fprintf(&b, `<li><a href="/page/%d">Page %d</a></li>`, j, j)
		}
	}
	if i%10 == 0 {
		fmt.Fprintf(&b, `<li><a href="/private/%d">Private %d</a></li>`, i, i)
	}
	b.WriteString("</ul></body></html>")
	return b.String()
}

func (s *testSite) hitsOf(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// hitsUnder sums the requests for paths starting with prefix.
func (s *testSite) hitsUnder(prefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p, c := range s.hits {
		if strings.HasPrefix(p, prefix) {
			n += c
		}
	}
	return n
}

func (s *testSite) peakInflight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInflight
}

func pageURL(s *testSite, i int) string { return s.URL + "/page/" + strconv.Itoa(i) }

// loopbackFetcher is a fetcher allowed to reach the test servers.
func loopbackFetcher(tb testing.TB) *fetch.Fetcher {
	tb.Helper()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		tb.Fatal(err)
	}
	return f
}
