package structured_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/webinfra/webinfra/extract/structured"
)

func ExampleExtract() {
	page := `<html lang="en"><head><title>Grey herons</title>
<meta property="og:title" content="Grey herons">
<meta property="og:image" content="/img/heron.jpg"><meta property="og:image:width" content="1200">
<meta name="twitter:card" content="summary_large_image">
<link rel="canonical" href="/birds/herons">
<link rel="alternate" type="application/rss+xml" title="Birds" href="/feed.xml">
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "Article", "headline": "Grey herons", "author": {"@type": "Person", "name": "Ann"},},
]}
</script></head>
<body><div itemscope itemtype="https://schema.org/Recipe"><span itemprop="name">Fish soup</span></div></body></html>`
	res, err := structured.Extract(context.Background(), structured.Input{HTML: page, BaseURL: "https://example.com/birds/"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.JSONLD.Types, res.JSONLD.Items[0]["headline"])
	fmt.Println(res.Microdata[0].Type, res.Microdata[0].Properties["name"])
	fmt.Println(res.Meta.Title, res.Meta.Language, res.Links.Canonical)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(map[string]any{"open_graph": res.OpenGraph, "twitter": res.Twitter, "feeds": res.Links.Feeds})
	// Output:
	// [Article Person] Grey herons
	// [https://schema.org/Recipe] [Fish soup]
	// Grey herons en https://example.com/birds/herons
	// {
	//   "feeds": [
	//     {
	//       "href": "https://example.com/feed.xml",
	//       "type": "application/rss+xml",
	//       "title": "Birds"
	//     }
	//   ],
	//   "open_graph": {
	//     "og:image": [
	//       {
	//         "url": "https://example.com/img/heron.jpg",
	//         "width": "1200"
	//       }
	//     ],
	//     "og:title": "Grey herons"
	//   },
	//   "twitter": {
	//     "twitter:card": "summary_large_image"
	//   }
	// }
}
