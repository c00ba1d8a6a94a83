package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/webinfra/webinfra"
	"github.com/webinfra/webinfra/fetch"
)

func TestSummarizeReadsALoopbackPage(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html lang="en"><head><title>Herons | Marsh News</title>
<meta property="og:title" content="Herons return">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Herons return"}</script></head>
<body><article><h1>Herons return</h1><p>For the first time in ten years, grey herons are nesting again in the reed beds at the edge of the town marsh.</p>
<table><tr><th>Year</th><th>Nests</th></tr><tr><td>2025</td><td>12</td></tr></table></article></body></html>`)
	}))
	defer page.Close()
	c, err := webinfra.New(&webinfra.Options{Fetch: &fetch.Options{AllowPrivateNetworks: true}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := summarize(context.Background(), c, page.URL, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"HTTP 200, direct tier", "title: Herons return", "JSON-LD types: [NewsArticle]", "tables: 1", "grey herons are nesting"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// The SSRF guard is on by default: a Client without the option refuses loopback.
	strict, _ := webinfra.New(nil)
	if err := summarize(context.Background(), strict, page.URL, &out); err == nil {
		t.Fatal("a default client fetched a loopback page")
	}
}
