package content

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/extract/markdown"
)

// toMarkdown converts the article node to CommonMark, links made absolute
// against base (nil: left as they are). n is not modified.
//
// This is the one place that picks the converter: the repository's
// streaming converter (extract/markdown). Before it landed this called
// html-to-markdown v2 (htmltomarkdown.ConvertNode on a copy of n, as that
// library edits the tree it converts).
func toMarkdown(n *html.Node, base *url.URL) string {
	return strings.TrimSpace(markdown.FromNode(n, base))
}
