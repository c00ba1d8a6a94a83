package pageinfo_test

import (
	"fmt"
	"net/http"

	"github.com/webinfra/webinfra/intel/pageinfo"
)

// Analyze reads a fetched page: here a WordPress site behind nginx.
func ExampleAnalyze() {
	page := pageinfo.Page{
		URL:    "https://example.com/",
		Status: 200,
		Header: http.Header{
			"Server":       {"nginx/1.25.3"},
			"X-Powered-By": {"PHP/8.2.12"},
			"Content-Type": {"text/html; charset=UTF-8"},
		},
		HTML: []byte(`<!doctype html><html lang="en-GB"><head>
<title>Example Ltd – Widgets</title>
<meta name="generator" content="WordPress 6.4.2">
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Example Ltd"}</script>
</head><body><h1>Widgets for everyone</h1>
<p><a href="/about">About us</a> <a href="https://github.com/example" rel="nofollow">GitHub</a></p>
</body></html>`),
	}
	rep := pageinfo.Analyze(page, nil)
	fmt.Println(rep.Title, "|", rep.Language, "|", rep.Generator)
	for _, t := range rep.Technologies {
		fmt.Printf("%s (%s) %s: %s\n", t.Name, t.Category, t.Version, t.Evidence[0])
	}
	fmt.Printf("links: %d internal, %d external, %d nofollow\n", rep.Links.Internal, rep.Links.External, rep.Links.Nofollow)
	fmt.Println("types:", rep.StructuredData.Types, "words:", rep.WordCount)
	// Output:
	// Example Ltd – Widgets | en-GB | WordPress 6.4.2
	// WordPress (cms) 6.4.2: meta generator: WordPress 6.4.2
	// jQuery (library) 3.7.1: script https://example.com/wp-includes/js/jquery/jquery.min.js?ver=3.7.1
	// nginx (server) 1.25.3: header Server: nginx/1.25.3
	// PHP (language) 8.2.12: header X-Powered-By: PHP/8.2.12
	// links: 1 internal, 1 external, 1 nofollow
	// types: [Organization] words: 6
}
