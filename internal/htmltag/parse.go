package htmltag

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/errs"
)

// MaxDepth is how deeply x/net/html lets elements nest; it refuses
// deeper documents.
const MaxDepth = 512

// Parse parses an HTML document held in a string. The parser's only
// failure on a string is a document nested deeper than MaxDepth, which is
// errs.KindTooLarge on the field named (the request's html).
func Parse(page, field string) (*html.Node, error) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return nil, &errs.Error{Kind: errs.KindTooLarge, Field: field, Err: err,
			Message: "the document nests elements more than 512 deep, which the HTML parser refuses"}
	}
	return doc, nil
}
