package htmltag

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
)

// MaxDepth is how deeply x/net/html lets elements nest; it refuses
// deeper documents.
const MaxDepth = 512

// Parse parses an HTML document held in a string, as a crawler reads it:
// each <noscript> holds elements, not text (what lxml and the extraction
// libraries see; sites such as Discourse's forums serve their whole text
// to crawlers there), each ending where a browser ends it (see
// ExpandNoscript). The parser's only failure on a string is a document
// nested deeper than MaxDepth, which is errs.KindTooLarge on the field
// named (the request's html).
func Parse(page, field string) (*html.Node, error) {
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		return nil, &errs.Error{Kind: errs.KindTooLarge, Field: field, Err: err,
			Message: "the document nests elements more than 512 deep, which the HTML parser refuses"}
	}
	ExpandNoscript(doc)
	return doc, nil
}

// ExpandNoscript replaces the text of each <noscript> in doc, a tree
// parsed with scripting on (html.Parse's default), by the elements it
// holds, parsed as a crawler with scripting off would. Parsing the whole
// page with scripting off instead lets one element of a <noscript>
// swallow the rest of the page: `<noscript><iframe src="..."
// /></noscript>`, a tag-manager snippet on many pages, opens an <iframe>
// whose raw text runs to the end of the document, since `/>` does not
// close it; here the damage stays inside the <noscript>, which ends at
// its </noscript> as in a browser. A <noscript> whose markup nests too
// deep keeps its text. A <noscript> in the <head> whose markup is more
// than head elements (an image, a message) moves to the start of the
// <body>, where scripting off puts that markup.
func ExpandNoscript(doc *html.Node) {
	var found []*html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Noscript &&
			n.FirstChild != nil && n.FirstChild == n.LastChild && n.FirstChild.Type == html.TextNode {
			found = append(found, n)
		}
	}
	var body, movedLast *html.Node // found once; the last <noscript> moved there
	for _, n := range found {
		nodes, err := html.ParseFragmentWithOptions(strings.NewReader(n.FirstChild.Data), fragmentContext(n),
			html.ParseOptionEnableScripting(false))
		if err != nil {
			continue
		}
		n.RemoveChild(n.FirstChild)
		for _, c := range nodes {
			n.AppendChild(c)
		}
		if n.Parent.DataAtom == atom.Head && !onlyHeadContent(n) {
			if body == nil {
				body = bodyOf(doc) // once: a head of many <noscript>s must not cost a walk each
			}
			if body != nil {
				n.Parent.RemoveChild(n)
				if movedLast != nil {
					body.InsertBefore(n, movedLast.NextSibling)
				} else {
					body.InsertBefore(n, body.FirstChild)
				}
				movedLast = n
			}
		}
	}
}

// onlyHeadContent reports whether n's children are all what the
// "in head noscript" insertion mode keeps in the <head>.
func onlyHeadContent(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.CommentNode, c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		case c.Type == html.ElementNode && (c.DataAtom == atom.Link || c.DataAtom == atom.Meta ||
			c.DataAtom == atom.Style || c.DataAtom == atom.Basefont || c.DataAtom == atom.Bgsound || c.DataAtom == atom.Noframes):
		default:
			return false
		}
	}
	return true
}

// bodyOf is doc's <body>, or nil.
func bodyOf(doc *html.Node) *html.Node {
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Body {
			return n
		}
	}
	return nil
}

// fragmentContext is the element a <noscript>'s markup is parsed in: its
// parent, or a <body> where the parent is the document, <html> or <head>
// (whose insertion modes would move the markup out of the <noscript>).
func fragmentContext(noscript *html.Node) *html.Node {
	p := noscript.Parent
	if p == nil || p.Type != html.ElementNode || p.DataAtom == atom.Html || p.DataAtom == atom.Head {
		return &html.Node{Type: html.ElementNode, DataAtom: atom.Body, Data: "body"}
	}
	return &html.Node{Type: html.ElementNode, DataAtom: p.DataAtom, Data: p.Data, Namespace: p.Namespace}
}
