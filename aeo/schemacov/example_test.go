package schemacov_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/aeo/schemacov"
)

func ExampleCheck() {
	page := `<html><head>
<meta property="og:title" content="Grey herons"><meta property="og:type" content="article">
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "BlogPosting",
 "headline": "Grey herons", "author": {"@type": "Person", "name": "Ann Lee"}}</script>
</head><body><article><h1>Grey herons</h1><p>Herons hunt fish.</p></article></body></html>`
	r, err := schemacov.Check(context.Background(), schemacov.Input{HTML: page, PageType: "article"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Score, r.Grade, r.Found, "of 12 found,", r.ExpectedFound, "of", r.Expected, "expected")
	for _, m := range r.Missing {
		fmt.Println("missing", m.Type, m.Points)
	}
	fmt.Println("OpenGraph missing", r.OpenGraph.Missing)
	// Output:
	// 38 F 2 of 12 found, 2 of 6 expected
	// missing Organization 11.25
	// missing WebSite 11.25
	// missing WebPage 11.25
	// missing BreadcrumbList 11.25
	// OpenGraph missing [og:image og:url og:description]
}
