package crawl_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/crawl"
)

func ExampleCrawl() {
	// A three-page site with a robots.txt that keeps crawlers out of /admin/.
	pages := map[string]string{
		"/":        `<title>Home</title><a href="/about">About</a> <a href="/admin/">Admin</a>`,
		"/about":   `<title>About</title><h1>About us</h1><a href="/">Home</a> <a href="/contact">Contact</a>`,
		"/contact": `<title>Contact</title><p>Write to us.</p>`,
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /admin/\n")
			return
		}
		page, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	defer site.Close()

	// Loopback targets are refused by default; tests allow them.
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		log.Fatal(err)
	}
	res, err := crawl.Crawl(context.Background(), f, crawl.Request{Seeds: []string{site.URL + "/"}, MaxPages: 10}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range res.Pages {
		fmt.Printf("depth %d  %-8s %d links\n", p.Depth, p.Title, p.Links)
	}
	fmt.Printf("crawled %d, skipped by robots.txt %d\n", res.Crawled, res.SkippedByRobots)
	// Output:
	// depth 0  Home     2 links
	// depth 1  About    2 links
	// depth 2  Contact  0 links
	// crawled 3, skipped by robots.txt 1
}
