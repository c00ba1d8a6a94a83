package chunk_test

import (
	"fmt"

	"github.com/webinfra/webinfra/extract/chunk"
)

func ExampleSplit() {
	page := []byte(`<html><body><nav>Home | News</nav><article>
<h1>Tide tables</h1>
<p>High tide comes twice a day, about <b>12&nbsp;hours</b> and 25 minutes apart.</p>
<h2>Why</h2>
<p>The Moon&#8217;s pull raises a bulge of water on each side of the Earth.</p>
</article></body></html>`)
	// what an extractor made of the page, as markdown
	content := "# Tide tables\n\nHigh tide comes twice a day, about **12 hours** and 25 minutes apart.\n\n" +
		"## Why\n\n![A diagram](tides.png)\n\nThe Moon’s pull raises a bulge of water on each side of the [Earth](https://example.com/earth)."

	res, err := chunk.Split(page, content, &chunk.Options{ChunkSize: 32, ChunkOverlap: 8})
	if err != nil {
		panic(err)
	}
	for _, c := range res.Chunks {
		fmt.Printf("%d %q\n  heading_path=%q tokens=%d overlap=%d\n  page[%d:%d] starts %q\n",
			c.Index, c.Text, c.HeadingPath, c.TokenCount, c.OverlapTokens, c.Start, c.End, page[c.Start:c.Start+12])
	}
	// Output:
	// 0 "Tide tables\n\nHigh tide comes twice a day, about 12 hours and 25 minutes apart."
	//   heading_path=["Tide tables"] tokens=21 overlap=0
	//   page[48:144] starts "Tide tables<"
	// 1 "hours and 25 minutes apart.\n\nWhy\n\nThe Moon’s pull raises a bulge of water on each side of the Earth."
	//   heading_path=["Tide tables" "Why"] tokens=27 overlap=7
	//   page[114:237] starts "hours</b> an"
}
