package content_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/extract/content"
)

func Example() {
	page := `<html lang="en"><head>
<title>Moon water found | Daily Planet</title>
<meta property="og:site_name" content="Daily Planet">
<meta name="author" content="Lois Lane">
<meta property="article:published_time" content="2019-11-18T14:26:00-10:00">
</head><body>
<nav><a href="/">Home</a> <a href="/science">Science</a></nav>
<article>
<h1>Moon water found</h1>
<p>A team of researchers has confirmed traces of water vapour above the surface of Jupiter's icy moon Europa, one of the highest priority targets in the search for life.</p>
<p>The finding, published in <a href="/journals/nature">Nature Astronomy</a>, rests on observations made with the Keck telescope in Hawaii over several nights.</p>
</article>
<footer>© Daily Planet</footer>
</body></html>`
	res, err := content.Extract(context.Background(), content.Input{HTML: page, URL: "https://planet.example/news/europa"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Title)
	fmt.Println(res.Byline, "|", res.SiteName, "|", res.Published, "|", res.Language)
	fmt.Println()
	fmt.Println(res.Markdown)
	// Output:
	// Moon water found
	// Lois Lane | Daily Planet | 2019-11-18T14:26:00-10:00 | en
	//
	// A team of researchers has confirmed traces of water vapour above the surface of Jupiter's icy moon Europa, one of the highest priority targets in the search for life.
	//
	// The finding, published in [Nature Astronomy](https://planet.example/journals/nature), rests on observations made with the Keck telescope in Hawaii over several nights.
}
