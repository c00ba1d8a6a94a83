package structured

import (
	"maps"
	"strings"

	"github.com/webinfra/webinfra/internal/htmltag"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// initialPrefixes are the prefixes of the RDFa initial context that pages
// use without declaring them.
var initialPrefixes = map[string]string{
	"dc":      "http://purl.org/dc/terms/",
	"dcterms": "http://purl.org/dc/terms/",
	"foaf":    "http://xmlns.com/foaf/0.1/",
	"og":      "http://ogp.me/ns#",
	"schema":  "http://schema.org/",
	"skos":    "http://www.w3.org/2004/02/skos/core#",
}

// rdfa reads RDFa Lite: an element with typeof starts an item (its types
// expanded with vocab and prefix, its id from resource, else about, href
// or src); property adds a
// value to the nearest enclosing item, the item itself when the element
// also has typeof. Properties outside any item describe the page, such as
// OpenGraph <meta property>, and are left to the other sections.
type rdfa struct {
	b      *builder
	items  []*Item
	values int // property values left to produce
}

// rdfaScope is what an element inherits from its ancestors.
type rdfaScope struct {
	vocab    string
	prefixes map[string]string
	subject  *Item // the nearest enclosing item, or nil
	depth    int   // how many items enclose the element
}

func (b *builder) rdfa(doc *html.Node) []*Item {
	r := &rdfa{b: b, values: b.opts.MaxValues}
	r.walk(doc, rdfaScope{prefixes: initialPrefixes})
	return r.items
}

func (r *rdfa) walk(n *html.Node, s rdfaScope) {
	if n.Type == html.ElementNode {
		if v, ok := htmltag.LookupAttr(n.Attr, "vocab"); ok {
			s.vocab = strings.TrimSpace(v)
		}
		if p := htmltag.Attr(n, "prefix"); p != "" {
			s.prefixes = withPrefixes(s.prefixes, p)
		}
		props := tokens(htmltag.Attr(n, "property"))
		switch {
		case htmltag.HasAttr(n, "typeof"):
			item := &Item{ID: r.b.abs(subjectOf(n))}
			for _, t := range tokens(htmltag.Attr(n, "typeof")) {
				item.Type = append(item.Type, s.expand(t))
			}
			if s.subject == nil || len(props) == 0 {
				if !r.b.room(len(r.items), "rdfa") {
					return
				}
				r.items = append(r.items, item)
			} else if s.depth >= r.b.opts.MaxDepth || !r.spend() {
				r.b.cut("rdfa")
				return
			} else {
				s.subject.add(props, item)
			}
			s.subject = item
			s.depth++
		case len(props) > 0 && s.subject != nil:
			if !r.spend() {
				r.b.cut("rdfa")
				return
			}
			s.subject.add(props, r.value(n))
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		r.walk(c, s)
	}
}

// subjectOf is the IRI an element with typeof describes: its resource,
// else (beyond RDFa Lite, as Drupal writes it) its about, href or src.
func subjectOf(n *html.Node) string {
	for _, key := range []string{"resource", "about", "href", "src"} {
		if v, ok := htmltag.LookupAttr(n.Attr, key); ok {
			return v
		}
	}
	return ""
}

// spend takes one value from the budget, reporting false when none is left.
func (r *rdfa) spend() bool {
	if r.values == 0 {
		return false
	}
	r.values--
	return true
}

// value is the property value of n, an element without typeof.
func (r *rdfa) value(n *html.Node) string {
	if v, ok := htmltag.LookupAttr(n.Attr, "content"); ok {
		return strings.TrimSpace(v)
	}
	if v, ok := htmltag.LookupAttr(n.Attr, "resource"); ok {
		return r.b.abs(v)
	}
	switch n.DataAtom {
	case atom.A, atom.Area, atom.Link:
		return r.b.abs(htmltag.Attr(n, "href"))
	case atom.Audio, atom.Embed, atom.Iframe, atom.Img, atom.Source, atom.Track, atom.Video:
		return r.b.abs(htmltag.Attr(n, "src"))
	case atom.Time:
		if v, ok := htmltag.LookupAttr(n.Attr, "datetime"); ok {
			return strings.TrimSpace(v)
		}
	}
	return collapse(text(n))
}

// expand turns a term or a CURIE into an IRI where the scope defines it.
func (s *rdfaScope) expand(t string) string {
	if strings.Contains(t, "://") {
		return t
	}
	if prefix, local, ok := strings.Cut(t, ":"); ok {
		if iri, ok := s.prefixes[prefix]; ok {
			return iri + local
		}
		return t
	}
	return s.vocab + t
}

// withPrefixes returns a copy of prefixes with the mappings of a prefix
// attribute ("og: http://ogp.me/ns# ex: http://example.org/") added.
func withPrefixes(prefixes map[string]string, attr string) map[string]string {
	out := maps.Clone(prefixes)
	f := strings.Fields(attr)
	for i := 0; i+1 < len(f); i++ {
		if name, ok := strings.CutSuffix(f[i], ":"); ok && name != "" {
			out[name] = f[i+1]
			i++
		}
	}
	return out
}
