package fetch_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/webinfra/webinfra/fetch"
)

func ExampleFetcher_Scrape() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<html lang="en"><head><title>Herons</title>
<meta name="description" content="Notes on herons."></head>
<body><h1>Herons</h1><p>They wait. See <a href="/egrets#top">egrets</a>.</p>
<script>track()</script></body></html>`)
	}))
	defer site.Close()
	// AllowPrivateNetworks only because the site is on loopback.
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		panic(err)
	}
	res, err := f.Scrape(context.Background(), fetch.ScrapeRequest{
		URL:     site.URL,
		Formats: []string{"markdown", "text", "links", "metadata"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.ReplaceAll(res.Markdown, site.URL, "http://site"))
	fmt.Println("--")
	fmt.Println(res.Text)
	fmt.Println("--")
	fmt.Println(strings.TrimPrefix(res.Links[0], site.URL))
	fmt.Println(res.Metadata.Title, "|", res.Metadata.Description, "|", res.Metadata.Language)
	fmt.Println(res.TierUsed, res.CascadePath)
	// Output:
	// # Herons
	//
	// They wait. See [egrets](http://site/egrets#top).
	// --
	// Herons
	// They wait. See egrets.
	// --
	// /egrets
	// Herons | Notes on herons. | en
	// direct [direct]
}
