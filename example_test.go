package webinfra_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/webinfra/webinfra"
	"github.com/webinfra/webinfra/fetch"
)

func ExampleClient_Scrape() {
	// A page on loopback; the SSRF guard refuses loopback unless allowed.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<h1>Docs</h1><p>Read the <a href="/guide">guide</a>.</p>`)
	}))
	defer site.Close()

	c, err := webinfra.New(&webinfra.Options{Fetch: &fetch.Options{AllowPrivateNetworks: true}})
	if err != nil {
		panic(err)
	}
	page, err := c.Scrape(context.Background(), webinfra.ScrapeRequest{URL: site.URL})
	if err != nil {
		panic(err)
	}
	fmt.Println(page.StatusCode, page.TierUsed)
	text, link, _ := strings.Cut(page.Markdown, "(")
	fmt.Println(text)
	fmt.Println(strings.HasPrefix(link, site.URL+"/guide)")) // links are made absolute
	// Output:
	// 200 direct
	// # Docs
	//
	// Read the [guide]
	// true
}

func ExampleClient_Scrape_refused() {
	c, _ := webinfra.New(nil) // defaults: the SSRF guard is on
	_, err := c.Scrape(context.Background(), webinfra.ScrapeRequest{URL: "http://169.254.169.254/latest/meta-data/"})
	fmt.Println(err)
	// Output: fetch http://169.254.169.254/latest/meta-data/: refused: 169.254.169.254 is a cloud metadata address (SSRF guard); only --allow-networks 169.254.169.254/32 (WEBINFRA_ALLOW_NETWORKS) opens it, not --allow-private-networks: prohibited IP address
}

func ExampleClient_LlmReady() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><body><nav><a href="/">Home</a></nav><article><h1>Tides</h1>
<p>The tide rises and falls twice a day along most coasts, pulled by the moon and, to a lesser degree, by the sun.</p>
<h2>Spring tides</h2><p>When the sun and the moon line up, their pulls add together and the range between high and low water is at its widest.</p>
</article></body></html>`)
	}))
	defer site.Close()

	c, err := webinfra.New(&webinfra.Options{Fetch: &fetch.Options{AllowPrivateNetworks: true}})
	if err != nil {
		panic(err)
	}
	res, err := c.LlmReady(context.Background(), webinfra.LlmReadyRequest{URL: site.URL, ChunkSize: 32, ChunkOverlap: -1, IncludeSource: true})
	if err != nil {
		panic(err)
	}
	for _, ch := range res.Chunks {
		// Each chunk's offsets point at its source in the page's bytes.
		fmt.Printf("%v %q… at %q…\n", ch.HeadingPath, ch.Text[:20], res.Source[ch.Start:ch.Start+20])
	}
	// Output:
	// [Tides] "Tides\n\nThe tide rise"… at "Tides</h1>\n<p>The ti"…
	// [Tides Spring tides] "Spring tides\n\nWhen t"… at "Spring tides</h2><p>"…
}

func ExampleClient_Fetch() {
	// A Latin-1 page behind a redirect: Fetch follows it, records the hop
	// and converts the body to UTF-8 (iso-8859-1 is decoded as windows-1252,
	// as browsers do).
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9"))
	}))
	defer site.Close()

	c, err := webinfra.New(&webinfra.Options{Fetch: &fetch.Options{AllowPrivateNetworks: true}})
	if err != nil {
		panic(err)
	}
	res, err := c.Fetch(context.Background(), webinfra.FetchRequest{URL: site.URL + "/old"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.StatusCode, strings.TrimPrefix(res.FinalURL, site.URL), len(res.Redirects), res.Charset)
	fmt.Println(string(res.Body))
	// Output:
	// 200 /new 1 windows-1252
	// café
}

func ExampleClient_Crawl() {
	// Three linked pages and a robots.txt that keeps the crawler out of one.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case "/":
			io.WriteString(w, `<a href="/a">a</a> <a href="/b">b</a> <a href="/private">private</a>`)
		default:
			io.WriteString(w, `<a href="/">home</a>`)
		}
	}))
	defer site.Close()

	c, err := webinfra.New(&webinfra.Options{Fetch: &fetch.Options{AllowPrivateNetworks: true}})
	if err != nil {
		panic(err)
	}
	res, err := c.Crawl(context.Background(), webinfra.CrawlRequest{Seeds: []string{site.URL + "/"}})
	if err != nil {
		panic(err)
	}
	for _, p := range res.Pages {
		fmt.Println(p.Depth, strings.TrimPrefix(p.URL, site.URL))
	}
	fmt.Println("crawled", res.Crawled, "skipped by robots.txt", res.SkippedByRobots)
	// Output:
	// 0 /
	// 1 /a
	// 1 /b
	// crawled 3 skipped by robots.txt 1
}
