package htmlaudit_test

import (
	"fmt"
	"net/url"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit"
)

func ExampleMixedContent() {
	doc, _ := htmltag.Parse(`<link rel="stylesheet" href="http://cdn.example.com/site.css">
<img src="http://img.example.com/a.png" alt="chart">
<img srcset="http://img.example.com/b.png 2x" alt="photo">`, "html")
	page, _ := url.Parse("https://example.com/post")
	r := htmlaudit.MixedContent(doc, page)
	fmt.Println(r.Total, "mixed:", r.Blockable, "blockable,", r.Upgradeable, "upgradeable")
	for _, it := range r.Items {
		fmt.Println(it.Kind, it.Class, it.Browser, it.URL)
	}
	// Output:
	// 3 mixed: 2 blockable, 1 upgradeable
	// stylesheet blockable blocked http://cdn.example.com/site.css
	// image upgradeable upgraded http://img.example.com/a.png
	// image blockable blocked http://img.example.com/b.png
}

func ExampleAnchorText() {
	doc, _ := htmltag.Parse(`<p>Pricing is <a href="/pricing">here</a>.
<a href="https://other.example.org/"><img src="logo.png" alt="Other"></a>
<a href="/docs" rel="nofollow"><i class="icon"></i></a></p>`, "html")
	page, _ := url.Parse("https://example.com/")
	r := htmlaudit.AnchorText(doc, page)
	fmt.Printf("%d links: %d internal, %d external, %d nofollow\n", r.Counts.Links, r.Counts.Internal, r.Counts.External, r.Counts.Nofollow)
	for _, f := range r.Findings {
		fmt.Println(f.Code, f.Severity, f.URL)
	}
	// Output:
	// 3 links: 2 internal, 1 external, 1 nofollow
	// generic_anchor warning https://example.com/pricing
	// empty_anchor error https://example.com/docs
	// nofollow_internal notice https://example.com/docs
}

func ExampleMeta() {
	doc, _ := htmltag.Parse(`<html lang="en"><head><meta charset="utf-8">
<title>Heading audit: score your H1-H6 outline</title>
<meta name="robots" content="noindex"></head></html>`, "html")
	page, _ := url.Parse("https://example.com/")
	r := htmlaudit.Meta(doc, page)
	fmt.Println("title:", r.Fields.Title.Score, r.Fields.Title.Reason)
	fmt.Println("robots:", r.Fields.Robots.Grade, r.Fields.Robots.Reason)
	fmt.Println("overall:", r.Score, r.Grade)
	// Output:
	// title: 100 39 characters, about 356px: within 30-60
	// robots: F noindex: the page is kept out of search results
	// overall: 39 F
}

func ExampleSnippetCandidates() {
	doc, _ := htmltag.Parse(`<h2>How do I rotate an API key?</h2>
<ol><li>Open Keys.</li><li>Create a new key.</li><li>Deploy it.</li><li>Revoke the old key.</li></ol>`, "html")
	r := htmlaudit.SnippetCandidates(doc, nil)
	best := r.Candidates[0]
	fmt.Println(best.Type, best.Tag, best.ItemCount, "items, score", best.Score)
	fmt.Println("under:", best.Heading.Text)
	// Output:
	// list ol 4 items, score 100
	// under: How do I rotate an API key?
}
