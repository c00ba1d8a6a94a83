package structured

import (
	"slices"
	"strings"

	"github.com/webinfra/webinfra/internal/htmltag"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Item is a microdata or RDFa item.
type Item struct {
	Type       []string         `json:"type,omitempty" doc:"The item's types (itemtype or typeof), as URLs when the page gives or implies them."`
	ID         string           `json:"id,omitempty" doc:"The item's global identifier (itemid or resource), absolute."`
	Properties map[string][]any `json:"properties,omitempty" doc:"Values by property name, in page order: strings, or nested items."`
}

// add appends v to the values of each name.
func (it *Item) add(names []string, v any) {
	if it.Properties == nil {
		it.Properties = map[string][]any{}
	}
	for _, name := range names {
		it.Properties[name] = append(it.Properties[name], v)
	}
}

// crawlFactor bounds the elements the microdata crawls may visit, as a
// multiple of the page's elements: without itemref each element is visited
// once, and itemref may revisit some, but not without end.
const crawlFactor = 4

// microdata reads items per the WHATWG microdata algorithm.
type microdata struct {
	b      *builder
	doc    *html.Node
	byID   map[string]*html.Node // the first element with each id; built on the first itemref
	order  map[*html.Node]int    // each element's place in tree order; built with byID
	values int                   // property values left to produce
	steps  int                   // crawl steps left
}

func (b *builder) microdata(doc *html.Node, p *page) []*Item {
	if len(p.itemscopes) == 0 {
		return nil
	}
	m := &microdata{b: b, doc: doc, values: b.opts.MaxValues, steps: crawlFactor * p.elements}
	var items []*Item
	for _, n := range p.itemscopes {
		if !b.room(len(items), "microdata") {
			break
		}
		items = append(items, m.item(n, nil))
	}
	return items
}

// item reads the item of the itemscope element root; path holds the items
// being read around it, so that an itemref cycle ends.
func (m *microdata) item(root *html.Node, path []*html.Node) *Item {
	it := &Item{}
	if t := htmltag.Attr(root, "itemtype"); strings.TrimSpace(t) != "" {
		it.Type = tokens(t)
		if id := htmltag.Attr(root, "itemid"); id != "" {
			it.ID = m.b.abs(id)
		}
	}
	path = append(path, root)
	for _, n := range m.properties(root) {
		if m.values == 0 {
			m.b.cut("microdata")
			break
		}
		var v any
		switch {
		case !htmltag.HasAttr(n, "itemscope"):
			v = m.value(n)
		case slices.Contains(path, n):
			continue // a cycle through itemref
		case len(path) >= m.b.opts.MaxDepth:
			m.b.cut("microdata")
			continue
		default:
			v = m.item(n, path)
		}
		m.values--
		it.add(tokens(htmltag.Attr(n, "itemprop")), v)
	}
	return it
}

// properties returns the elements that give root's properties, in tree
// order: its descendants and the elements its itemref names with theirs,
// not crossing into nested items.
func (m *microdata) properties(root *html.Node) []*html.Node {
	refs := tokens(htmltag.Attr(root, "itemref"))
	var pending []*html.Node
	for _, id := range refs {
		if n := m.element(id); n != nil {
			pending = append(pending, n)
		}
	}
	pending = pushChildren(pending, root)
	seen := map[*html.Node]bool{root: true}
	var found []*html.Node
	for len(pending) > 0 {
		n := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		if m.steps == 0 {
			m.b.cut("microdata")
			break
		}
		m.steps--
		if !htmltag.HasAttr(n, "itemscope") {
			pending = pushChildren(pending, n)
		}
		if strings.TrimSpace(htmltag.Attr(n, "itemprop")) != "" {
			found = append(found, n)
		}
	}
	if len(refs) > 0 {
		slices.SortFunc(found, func(a, b *html.Node) int { return m.order[a] - m.order[b] })
	}
	return found
}

// pushChildren pushes n's child elements on a stack, the first on top.
func pushChildren(stack []*html.Node, n *html.Node) []*html.Node {
	for c := n.LastChild; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			stack = append(stack, c)
		}
	}
	return stack
}

// element returns the first element whose id is id, or nil.
func (m *microdata) element(id string) *html.Node {
	if m.byID == nil {
		m.byID, m.order = map[string]*html.Node{}, map[*html.Node]int{}
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				m.order[n] = len(m.order)
				if id := htmltag.Attr(n, "id"); id != "" && m.byID[id] == nil {
					m.byID[id] = n
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(m.doc)
	}
	return m.byID[id]
}

// value is the property value of n, an element without itemscope.
func (m *microdata) value(n *html.Node) string {
	switch n.DataAtom {
	case atom.Meta:
		return strings.TrimSpace(htmltag.Attr(n, "content"))
	case atom.Audio, atom.Embed, atom.Iframe, atom.Img, atom.Source, atom.Track, atom.Video:
		return m.b.abs(htmltag.Attr(n, "src"))
	case atom.A, atom.Area, atom.Link:
		return m.b.abs(htmltag.Attr(n, "href"))
	case atom.Object:
		return m.b.abs(htmltag.Attr(n, "data"))
	case atom.Data, atom.Meter:
		return strings.TrimSpace(htmltag.Attr(n, "value"))
	case atom.Time:
		if htmltag.HasAttr(n, "datetime") {
			return strings.TrimSpace(htmltag.Attr(n, "datetime"))
		}
	}
	return collapse(text(n))
}
