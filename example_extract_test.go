package webinfra_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra"
)

// The extraction methods are pure: they read HTML you already have and
// fetch nothing, so a nil-options Client (SSRF guard on) is enough.

func ExampleClient_Article() {
	c, _ := webinfra.New(nil)
	art, err := c.Article(context.Background(), webinfra.ArticleInput{
		URL: "https://example.com/news/herons",
		HTML: `<html lang="en"><head><title>Herons return | Example News</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Herons return to the marsh</h1>
<p class="byline">By Ana Ruiz</p>
<p>For the first time in ten years, grey herons are nesting again in the reed beds at the edge of the town marsh, the wardens said on Monday.</p>
<p>The birds left when the water table dropped. Since the old <a href="/news/sluice">sluice</a> was rebuilt, the marsh has stayed wet all summer.</p>
</article><footer>© Example News</footer></body></html>`,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(art.Title, "|", art.Byline, "|", art.Language)
	fmt.Println(art.Markdown)
	// Output:
	// Herons return to the marsh | Ana Ruiz | en
	// # Herons return to the marsh
	//
	// For the first time in ten years, grey herons are nesting again in the reed beds at the edge of the town marsh, the wardens said on Monday.
	//
	// The birds left when the water table dropped. Since the old [sluice](https://example.com/news/sluice) was rebuilt, the marsh has stayed wet all summer.
}

func ExampleClient_Structured() {
	c, _ := webinfra.New(nil)
	res, err := c.Structured(context.Background(), webinfra.StructuredInput{
		BaseURL: "https://example.com/birds/herons",
		HTML: `<html><head><title>Herons</title>
<meta property="og:title" content="Grey herons">
<link rel="canonical" href="/birds/herons">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Article","headline":"Grey herons"},{"@type":"Organization","name":"Example"}]}</script>
</head></html>`,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Meta.Title, "|", res.OpenGraph["og:title"], "|", res.Links.Canonical)
	fmt.Println(res.JSONLD.Types)
	// Output:
	// Herons | Grey herons | https://example.com/birds/herons
	// [Article Organization]
}

func ExampleClient_Contacts() {
	c, _ := webinfra.New(nil)
	res, err := c.Contacts(context.Background(), webinfra.ContactsInput{
		BaseURL: "https://www.example.co.uk/contact",
		HTML: `<footer><a href="mailto:sales@example.co.uk">Sales</a>
press [at] example [dot] co [dot] uk · Tel: 020 7946 0958
<img src="logo@2x.png"> v1.2.3.4 · <a href="https://twitter.com/Example">X</a></footer>`,
	})
	if err != nil {
		panic(err)
	}
	for _, e := range res.Emails {
		fmt.Println(e.Address, e.Source)
	}
	for _, p := range res.Phones {
		fmt.Println(p.E164, p.Raw, p.Region)
	}
	for _, s := range res.Social {
		fmt.Println(s.Network, s.URL)
	}
	// Output:
	// sales@example.co.uk mailto
	// press@example.co.uk obfuscated
	// +442079460958 020 7946 0958 GB
	// x https://x.com/example
}

func ExampleClient_Tables() {
	c, _ := webinfra.New(nil)
	res, err := c.Tables(context.Background(), webinfra.TablesInput{HTML: `<table>
<caption>Sightings</caption>
<thead><tr><th>Bird</th><th>Site</th><th>Count</th></tr></thead>
<tr><td rowspan="2">Heron</td><td>Marsh</td><td>4</td></tr>
<tr><td>River</td><td>2</td></tr>
<tr><td colspan="2">Total</td><td>6</td></tr>
</table>`})
	if err != nil {
		panic(err)
	}
	t := res.Tables[0]
	fmt.Println(t.Caption, t.Headers)
	for _, row := range t.Rows {
		fmt.Println(row)
	}
	// Output:
	// Sightings [Bird Site Count]
	// [Heron Marsh 4]
	// [Heron River 2]
	// [Total Total 6]
}

func ExampleClient_Keywords() {
	c, _ := webinfra.New(nil)
	res, err := c.Keywords(context.Background(), webinfra.KeywordsInput{
		Text:        "Compatibility of systems of linear constraints over the set of natural numbers. Criteria of compatibility of a system of linear Diophantine equations, strict inequations, and nonstrict inequations are considered.",
		MaxKeywords: 3,
	})
	if err != nil {
		panic(err)
	}
	for _, k := range res.Keywords {
		fmt.Printf("%s %.1f\n", k.Phrase, k.Score)
	}
	// Output:
	// linear diophantine equations 8.5
	// linear constraints 4.5
	// natural numbers 4.0
}
