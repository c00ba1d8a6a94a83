package webinfra_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra"
)

func ExampleClient_AuditHTML() {
	c, _ := webinfra.New(nil)
	res, err := c.AuditHTML(context.Background(), webinfra.HTMLPage{URL: "https://example.com/herons", HTML: `<html lang="en"><head>
<title>Herons</title></head><body><h1>Herons</h1><h3>Why did they come back?</h3>
<p>Read <a href="/more">click here</a>.</p><img src="http://cdn.example.com/heron.jpg"></body></html>`})
	if err != nil {
		panic(err)
	}
	fmt.Println("headings:", res.Headings.Score, res.Headings.Problems[0].Code)
	fmt.Println("mixed content:", res.MixedContent.Total, res.MixedContent.Items[0].Kind)
	fmt.Println("anchors:", res.AnchorText.Findings[0].Code)
	fmt.Println("meta title:", res.Meta.Fields.Title.Grade)
	// Output:
	// headings: 95 skipped_level
	// mixed content: 1 image
	// anchors: generic_anchor
	// meta title: F
}
