package tables

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// skipped are the elements whose content is not visible text of a cell:
// nested tables are extracted on their own.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true, atom.Table: true,
}

// breaking are the elements that separate words: a line break or a block.
var breaking = map[atom.Atom]bool{
	atom.Br: true, atom.Hr: true, atom.P: true, atom.Div: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Blockquote: true, atom.Pre: true, atom.Section: true, atom.Article: true,
	atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Aside: true, atom.Main: true, atom.Figure: true,
	atom.Figcaption: true, atom.Address: true, atom.Details: true, atom.Summary: true, atom.Form: true,
	atom.Fieldset: true, atom.Legend: true, atom.Option: true,
}

// text is the visible text of a cell or caption on one line: whitespace
// (no-break spaces included) collapsed to single spaces and trimmed, <br>
// and block elements read as a space, and scripts, styles, templates,
// noscript, hidden elements and nested tables left out.
func text(n *html.Node) string {
	var b strings.Builder
	space := false // whitespace since the last character written
	separate := func(c *html.Node) {
		if c.Type == html.ElementNode && c.Namespace == "" && breaking[c.DataAtom] {
			space = true
		}
	}
	walk(n, func(c *html.Node) bool {
		switch c.Type {
		case html.TextNode:
			for _, r := range c.Data {
				if unicode.IsSpace(r) {
					space = true
					continue
				}
				if space && b.Len() > 0 {
					b.WriteByte(' ')
				}
				space = false
				b.WriteRune(r)
			}
		case html.ElementNode:
			if c.Namespace == "" && (skipped[c.DataAtom] || hidden(c)) {
				return false
			}
			separate(c)
		}
		return true
	}, separate)
	return b.String()
}

// hidden reports an element hidden by the hidden attribute or an inline
// display:none (as sort keys in some sortable tables are).
func hidden(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "hidden":
			return true
		case "style":
			if strings.Contains(strings.ToLower(strings.Join(strings.Fields(a.Val), "")), "display:none") {
				return true
			}
		}
	}
	return false
}

// walk visits root and the nodes under it in document order without
// recursion, so deeply nested markup cannot exhaust the stack. enter
// returns false to skip a node's children; leave runs after the subtree of
// every node enter returned true for.
func walk(root *html.Node, enter func(*html.Node) bool, leave func(*html.Node)) {
	n := root
	for {
		if enter(n) {
			if n.FirstChild != nil {
				n = n.FirstChild
				continue
			}
			leave(n)
		}
		for n != root && n.NextSibling == nil {
			n = n.Parent
			leave(n)
		}
		if n == root {
			return
		}
		n = n.NextSibling
	}
}

// isElement reports whether n is the HTML (not SVG or MathML) element a.
func isElement(n *html.Node, a atom.Atom) bool {
	return n.Type == html.ElementNode && n.DataAtom == a && n.Namespace == ""
}

// firstChild is n's first child element a, or nil.
func firstChild(n *html.Node, a atom.Atom) *html.Node {
	for c := range n.ChildNodes() {
		if isElement(c, a) {
			return c
		}
	}
	return nil
}
