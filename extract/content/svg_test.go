package content

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestDropUndrawnSVG reads every text node left, as an extractor's last
// resort reads a page's whole body: the icon sprite's titles, an image's
// accessible name and description and an SVG's style sheet are gone;
// what the SVG draws and the HTML around it stay.
func TestDropUndrawnSVG(t *testing.T) {
	doc := fragment(t, `<svg style="display:none"><defs><linearGradient id="g"><title>gradient</title></linearGradient></defs>`+
		`<symbol id="shape-add"><title>add</title><polygon points="1,1"/></symbol>`+
		`<symbol id="shape-arrow-down"><title>arrow-down</title></symbol></svg>`+
		`<p>Price history</p>`+
		`<svg role="img"><title>Chart of prices</title><desc>A line falling</desc><style>.a{fill:red}</style>`+
		`<metadata>rdf</metadata><text x="0" y="10">$199 in May</text><use href="#shape-add"/></svg>`+
		`<p>Specifications</p>`)
	dropUndrawnSVG(doc)
	var words []string
	for n := range doc.Descendants() {
		if n.Type == html.TextNode {
			words = append(words, strings.Fields(n.Data)...)
		}
	}
	if got, want := strings.Join(words, " "), "Price history $199 in May Specifications"; got != want {
		t.Errorf("text left: %q, want %q", got, want)
	}
}
