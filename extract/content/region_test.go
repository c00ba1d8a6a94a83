package content

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/extract/markdown"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// regionMarkdown finds the region of page holding extracted (HTML as an
// extractor would give it) and renders it.
func regionMarkdown(t *testing.T, page, extracted string) (string, bool) {
	t.Helper()
	doc, err := htmltag.Parse(page, "html")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := htmltag.Parse(extracted, "html")
	if err != nil {
		t.Fatal(err)
	}
	region := findRegion(doc, []*html.Node{ex})
	if region == nil {
		return "", false
	}
	base, _ := url.Parse("https://example.com/docs/page.html")
	return strings.TrimSpace(markdown.FromNode(region, base)), true
}

func TestFindRegion(t *testing.T) {
	cases := []struct {
		name, page, extracted, want string
	}{{
		// go-trafilatura without links splits a sentence around inline
		// code; the page's own markup is rendered instead.
		name: "links and inline code kept",
		page: `<nav><a href="/">Home</a></nav><div class="body"><h1>Quickstart<a class="headerlink" href="#quickstart">¶</a></h1>
			<ol><li><p>First we imported the <a href="/api#Flask"><code>Flask</code></a> class, an instance of which is the app.</p></li></ol>
			<pre class="language-python"><span class="kn">from</span><span class="w"> </span><span class="nn">flask</span> import Flask</pre></div>
			<footer>Copyright</footer>`,
		extracted: `<h1>Quickstart¶</h1><list><item><p>First we imported the</p><code>Flask</code>class, an instance of which is the app.</item></list><code>from flask import Flask</code>`,
		want:      "# Quickstart\n\n1. First we imported the [`Flask`](https://example.com/api#Flask) class, an instance of which is the app.\n\n```python\nfrom flask import Flask\n```",
	}, {
		// A table of contents repeats the headings before the text: its
		// entries are not the article's.
		name: "table of contents left out",
		page: `<ul class="toc"><li><a href="#one">The first section of it</a></li><li><a href="#two">The second section of it</a></li></ul>
			<article><h2 id="one">The first section of it</h2><p>Some text of the first section, long enough.</p>
			<h2 id="two">The second section of it</h2><p>And the text of the second section, as long.</p></article>`,
		extracted: `<h2>The first section of it</h2><p>Some text of the first section, long enough.</p><h2>The second section of it</h2><p>And the text of the second section, as long.</p>`,
		want:      "## The first section of it\n\nSome text of the first section, long enough.\n\n## The second section of it\n\nAnd the text of the second section, as long.",
	}, {
		// A menu's "Home" does not match the start of "Homemade".
		name:      "short text matches where it ends",
		page:      `<a href="/">Home</a><p>Homemade bread takes a day, most of it waiting.</p>`,
		extracted: `<p>Homemade bread takes a day, most of it waiting.</p>`,
		want:      "Homemade bread takes a day, most of it waiting.",
	}, {
		// A <noscript>'s text is markup, and rendered.
		name:      "noscript content",
		page:      `<noscript><div class="post"><p>The whole thread as crawlers see it, post by post.</p></div></noscript>`,
		extracted: `<p>The whole thread as crawlers see it, post by post.</p>`,
		want:      "The whole thread as crawlers see it, post by post.",
	}, {
		// A kept row keeps its cells: extractors drop a cell of code alone.
		name:      "table row whole",
		page:      `<table><tr><th>Converter</th><th>Accepts</th></tr><tr><td><code>int</code></td><td>accepts positive integers</td></tr></table>`,
		extracted: `<table><tr><th>Converter</th><th>Accepts</th></tr><tr><td>accepts positive integers</td></tr></table>`,
		want:      "| Converter | Accepts |\n| --- | --- |\n| `int` | accepts positive integers |",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := regionMarkdown(t, tc.page, tc.extracted)
			if !ok {
				t.Fatal("no region found")
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestFindRegionNotFound(t *testing.T) {
	// Text the page does not hold (an extractor's own words) is no region.
	if got, ok := regionMarkdown(t, `<p>One thing said here.</p>`, `<p>Something else entirely, and at length.</p>`); ok {
		t.Errorf("found a region: %q", got)
	}
}

// An extraction assembled from parts in another order than the page's
// (extract appends a grid's cards after the extractor's text, where the
// page shows them first) keeps each part whole: the cards' short, repeated
// lines (a badge, a price) are matched in the second alignment, not left
// out of the Markdown.
func TestFindRegionPartsOutOfOrder(t *testing.T) {
	names := []string{"Trail Runner Boot One", "Granite Peak Boot Two", "Canyon Hiker Boot Three", "Summit Walker Boot Four"}
	var grid, cards, article, prose strings.Builder
	for i, name := range names {
		price := []string{"$120", "$95", "$120", "$140"}[i]
		fmt.Fprintf(&grid, `<li><span>Top rated</span><a href="/p/%d">%s</a><span>%s</span></li>`, i, name, price)
		fmt.Fprintf(&cards, `<li><span>Top rated</span><a>%s</a><span>%s</span></li>`, name, price)
	}
	for i := range 6 {
		p := fmt.Sprintf("<p>Paragraph %d of the buying guide says what to look for in a boot, at some length.</p>", i)
		article.WriteString(p)
		prose.WriteString(p)
	}
	page := `<ul class="grid">` + grid.String() + `</ul><article>` + article.String() + `</article>`
	extracted := prose.String() + `<div><ul>` + cards.String() + `</ul></div>`
	got, ok := regionMarkdown(t, page, extracted)
	if !ok {
		t.Fatal("no region found")
	}
	for i, name := range names {
		if want := fmt.Sprintf("Top rated[%s](https://example.com/p/%d)", name, i); !strings.Contains(got, want) {
			t.Errorf("card %d: %q missing from\n%s", i, want, got)
		}
	}
	if strings.Count(got, "$120") != 2 || !strings.Contains(got, "$95") || !strings.Contains(got, "$140") {
		t.Errorf("prices missing from\n%s", got)
	}
	if !strings.Contains(got, "Paragraph 5 of the buying guide") {
		t.Errorf("the guide's text missing from\n%s", got)
	}
}
