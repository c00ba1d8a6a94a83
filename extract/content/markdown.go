package content

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/extract/markdown"
)

// articleMarkdown is the article as CommonMark, links made absolute
// against base (nil: left as they are): the region of the page that holds
// it when findRegion found one, else the extractor's trees (the article
// with the headline dropLeadingMeta took from it). Nothing is modified.
//
// This is the one place that picks the converter: the repository's
// streaming converter (extract/markdown), the one the whole-page
// markdown format uses, so the two agree. Before it landed this called
// html-to-markdown v2 (htmltomarkdown.ConvertNode on a copy of n, as that
// library edits the tree it converts).
func articleMarkdown(region *html.Node, trees []*html.Node, base *url.URL) string {
	if region != nil {
		return strings.TrimSpace(markdown.FromNode(region, base))
	}
	var parts []string
	for _, n := range trees {
		if md := strings.TrimSpace(markdown.FromNode(n, base)); md != "" {
			parts = append(parts, md)
		}
	}
	return strings.Join(parts, "\n\n")
}

// trimPermalink removes a permalink mark ("¶", "§") that a title taken
// from a heading kept from the heading's anchor.
func trimPermalink(title string) string {
	return strings.TrimRight(title, " \u00a0¶§")
}
