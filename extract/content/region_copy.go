package content

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// copy returns a detached copy of n's part in the region, or nil when n
// holds none of it.
func (r *region) copy(n *html.Node) *html.Node {
	switch n.Type {
	case html.TextNode:
		if r.kept[n] {
			return &html.Node{Type: html.TextNode, Data: n.Data}
		}
		return nil
	case html.ElementNode:
		if unreadable(n) {
			return nil
		}
		if n.DataAtom == atom.Img {
			if r.live[blockOf(n)] {
				return shallowCopy(n)
			}
			return nil
		}
	case html.DocumentNode:
	default:
		return nil
	}
	var kids []*html.Node
	some := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if k := r.copy(c); k != nil {
			kids = append(kids, k)
			some = true
		} else if filler(c) {
			kids = append(kids, fillerCopy(c))
		}
	}
	if !some {
		return nil
	}
	cp := shallowCopy(n)
	if cp.DataAtom == atom.Noscript { // the converters skip it, as a browser running scripts would
		cp.DataAtom, cp.Data = atom.Div, "div"
	}
	for _, k := range kids {
		cp.AppendChild(k)
	}
	return cp
}

// filler is a child kept inside a copied element though it holds none of
// the article: spaces and punctuation between kept text, line breaks,
// markup holding only spaces (a highlighter's <span> between two
// tokens), and the cells of a kept table row (see fillerCopy).
func filler(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		return !hasWord(n.Data)
	case html.ElementNode:
		switch n.DataAtom {
		case atom.Br, atom.Wbr, atom.Td, atom.Th:
			return true
		}
		return phrasing(n.DataAtom) && n.FirstChild != nil && blank(n)
	}
	return false
}

// blank reports whether n holds nothing but whitespace text.
func blank(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		case html.ElementNode:
			if !blank(c) {
				return false
			}
		}
	}
	return true
}

// fillerCopy copies a filler. A table cell is copied whole when it is a
// data cell (a row is read as one, and extractors drop cells that hold
// only code or a link), empty when it is a layout cell: one with blocks
// or a lot of text, such as the menu beside a page's text.
func fillerCopy(n *html.Node) *html.Node {
	if n.Type == html.ElementNode && (n.DataAtom == atom.Td || n.DataAtom == atom.Th) && !dataCell(n) {
		return shallowCopy(n)
	}
	return cloneTree(n)
}

// maxDataCell is the most text (bytes) a data cell holds.
const maxDataCell = 300

// dataCell reports whether a table cell holds running text only, and
// little of it.
func dataCell(n *html.Node) bool {
	size := 0
	var ok func(*html.Node) bool
	ok = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				if size += len(c.Data); size > maxDataCell {
					return false
				}
			case html.ElementNode:
				if !(phrasing(c.DataAtom) || c.DataAtom == atom.P) || !ok(c) {
					return false
				}
			}
		}
		return true
	}
	return ok(n)
}

// shallowCopy copies n without its children.
func shallowCopy(n *html.Node) *html.Node {
	return &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace,
		Attr: slices.Clone(n.Attr)}
}
