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
	// Output: fetch http://169.254.169.254/latest/meta-data/: refused: 169.254.169.254 is a cloud metadata address (SSRF guard): prohibited IP address
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
