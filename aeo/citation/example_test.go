package citation_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/aeo/citation"
)

func ExampleCheck() {
	page := `<html><head><script type="application/ld+json">{"@context": "https://schema.org", "@type": "Article",
 "author": {"@type": "Person", "name": "Ann Lee"}, "dateModified": "2025-05-20"}</script></head>
<body><article><h1>Grey herons return</h1>
<p>The grey heron population along the River Thames has grown by 23% since 2015, according to the
<a href="https://www.bto.org/heronries">British Trust for Ornithology</a>, with 1,284 nests counted in 61 heronries.
The Environment Agency says phosphate levels have fallen by 40 percent, and a review in
<a href="https://doi.org/10.1111/ibi.12345">Ibis</a> links the two.</p>
</article></body></html>`
	r, err := citation.Check(context.Background(), citation.Input{HTML: page, URL: "https://example.com/herons"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Score, r.Grade, r.Words, "words")
	for _, c := range r.Components {
		fmt.Printf("%-20s %3d × %d%%\n", c.Name, c.Score, c.Weight)
	}
	fmt.Println("first recommendation:", r.Recommendations[0].Component)
	// Output:
	// 61 D 51 words
	// statistics            80 × 20%
	// entities              65 × 15%
	// authoritative_links   50 × 20%
	// author               100 × 15%
	// last_updated         100 × 10%
	// content_length         0 × 10%
	// quotes                 0 × 10%
	// first recommendation: authoritative_links
}
