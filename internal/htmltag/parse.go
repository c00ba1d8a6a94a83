package htmltag

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/errs"
)

// MaxDepth is how deeply x/net/html lets elements nest; it refuses
// deeper documents.
const MaxDepth = 512

// Parse parses an HTML document held in a string, as a crawler reads it:
// scripting off, so a <noscript> holds elements, not text (what lxml and
// the extraction libraries see; sites such as Discourse's forums serve
// their whole text to crawlers there). The parser's only failure on a
// string is a document nested deeper than MaxDepth, which is
// errs.KindTooLarge on the field named (the request's html).
func Parse(page, field string) (*html.Node, error) {
	doc, err := html.ParseWithOptions(strings.NewReader(page), html.ParseOptionEnableScripting(false))
	if err != nil {
		return nil, &errs.Error{Kind: errs.KindTooLarge, Field: field, Err: err,
			Message: "the document nests elements more than 512 deep, which the HTML parser refuses"}
	}
	return doc, nil
}
