package content

import (
	"index/suffixarray"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// A product page shows other products beside its own: carousels and
// grids titled "Customers also bought", "Frequently bought together",
// "You may also like", "Recently viewed". Their items are short cards
// (a name, a price, a rating) that neither extractor recognises as
// another page's, and favouring recall, trafilatura keeps them: on WCXB,
// a tenth of the product pages' extractions held such a section, and no
// ground truth did (a section of customer reviews, by contrast, is in the
// ground truth of some product pages and not of others, so it stays).
//
// otherProductText finds each such section of doc, and returns their
// text and the rest of the page's: dropOtherProductLines removes from the
// extraction the lines found in the sections' text and nowhere else. The
// page itself is not changed: cutting the sections out before extracting
// changes what the extractors weigh, and on WCXB two product pages then
// lost their description for a page of cards.
//
// A section is known by its title alone, and it is the largest element
// that begins with the title: climbing from the title, an ancestor is
// taken while it has no text before the title, no heading of the
// title's rank or higher besides other such titles, not the page's
// headline, and at most half the text of the page (the main product's
// description is never that section). A line the page shows outside
// them too (the product's own name, its price) stays.
//
// On the WCXB development set this changed twelve product pages, all
// for the better (an Amazon book's 4,000 characters of "Customers also
// bought or read" gone): products' F1 0.6320 to 0.6326 (fast mode
// 0.5566 to 0.5567), their `without` 8.31% to 7.61%; no other type
// changed. "More to explore" is no such title: on the one page that has
// it, the section is the product's.
func otherProductText(doc *html.Node) *sectionText {
	// The titles, not looked for inside one another, nor in what the
	// page does not render.
	var titles []*html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		for c := n.FirstChild; c != nil && len(titles) < maxOtherProductSections; c = c.NextSibling {
			if c.Type != html.ElementNode || unrendered(c) {
				continue
			}
			if otherProductsTitle(c) {
				titles = append(titles, c)
			} else {
				find(c)
			}
		}
	}
	find(doc)
	if len(titles) == 0 {
		return nil
	}
	s := measureSections(doc, titles)
	headline := headlineAncestors(doc, 1)
	in := map[*html.Node]bool{}
	for _, t := range titles {
		rank := titleRank(t)
		section := t
		for p := t.Parent; s.widens(p, section, rank) && !headline[p] && 2*s.of[p].text <= s.of[doc].text; p = p.Parent {
			section = p
		}
		in[section] = true
	}
	var inside, outside []byte
	var walk func(n *html.Node, within bool)
	walk = func(n *html.Node, within bool) {
		switch {
		case n.Type == html.ElementNode && unrendered(n):
			return
		case n.Type == html.ElementNode && in[n] && !within:
			// Each section's text is its own; the page's text around
			// it does not run on across it.
			inside, outside = append(inside, 0), append(outside, 0)
			within = true
		case n.Type == html.TextNode:
			if within {
				inside = appendFolded(inside, n.Data)
			} else {
				outside = appendFolded(outside, n.Data)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, within)
		}
	}
	walk(doc, false)
	return &sectionText{inside: suffixarray.New(inside), outside: suffixarray.New(outside)}
}

// maxOtherProductSections bounds the sections otherProductText reads
// (a page has a handful).
const maxOtherProductSections = 64

// sectionText is the text of a page's sections of other products and
// that of the rest of the page, lower case and without whitespace (as
// appendFolded writes it), indexed.
type sectionText struct {
	inside, outside *suffixarray.Index
}

// appendFolded appends s to b in lower case, without whitespace: an
// extractor may join a page's text nodes with or without a space.
func appendFolded(b []byte, s string) []byte {
	for _, f := range strings.Fields(s) {
		b = append(b, strings.ToLower(f)...)
	}
	return b
}

// maxOtherProductLineBytes bounds the lines dropOtherProductLines
// weighs: a card's name, price, rating or blurb.
const maxOtherProductLineBytes = 512

// dropOtherProductLines removes from root the lines whose every text is
// found in the text of the page's sections of other products, one of
// them nowhere else on the page (see otherProductText). Text by text: an
// extractor may join a card's texts and leave out others between them.
func dropOtherProductLines(root *html.Node, t *sectionText) {
	if t == nil {
		return
	}
	dropLines(root, maxOtherProductLineBytes, true, func(line *html.Node, _ string) bool {
		theirs := false
		for n := range allNodes(line) {
			if n.Type != html.TextNode {
				continue
			}
			folded := appendFolded(nil, n.Data)
			if len(folded) == 0 {
				continue
			}
			if len(t.inside.Lookup(folded, 1)) == 0 {
				return false
			}
			theirs = theirs || len(t.outside.Lookup(folded, 1)) == 0
		}
		return theirs
	})
}

// allNodes yields n and its descendants.
func allNodes(n *html.Node) func(yield func(*html.Node) bool) {
	return func(yield func(*html.Node) bool) {
		if !yield(n) {
			return
		}
		for d := range n.Descendants() {
			if !yield(d) {
				return
			}
		}
	}
}

// otherProductsKeys are the titles (labelKey) of sections of other
// products. Besides them (see otherProductsTitle), a title of at most
// ten words that says what "customers who" or "people who" bought or
// viewed, that customers, people or you "also" did or may do something,
// and a short one that begins "related" or "similar".
var otherProductsKeys = map[string]bool{}

func init() {
	for _, k := range []string{
		"products related to this item", "sponsored products related to this item",
		"related products", "related items", "similar products", "similar items",
		"explore related items", "compare similar items", "compare with similar items",
		"frequently bought together", "bought together", "often bought together",
		"you may also like", "you might also like", "you may also be interested in",
		"you might also be interested in", "we think you'll love", "we think you'll like",
		"recently viewed", "recently viewed items", "recently viewed products", "your recently viewed items",
		"recommended for you", "recommended products", "more from this seller", "more from this brand",
		"complete the look", "shop the look", "pairs well with", "goes well with",
	} {
		otherProductsKeys[k] = true
	}
}

// otherProductsTitle reports whether n's whole text, short, titles a
// section of other products.
func otherProductsTitle(n *html.Node) bool {
	if unrendered(n) || !lineBlock(n) && !htmltag.IsHeading(atomOf(n)) && atomOf(n) != atom.Span {
		return false
	}
	text, ok := lineText(n, 64)
	if !ok {
		return false
	}
	key := labelKey(text)
	if otherProductsKeys[key] {
		return true
	}
	words := strings.Fields(key)
	switch {
	case len(words) == 0 || len(words) > 10 || strings.ContainsAny(key, ",;") ||
		strings.HasSuffix(strings.TrimSpace(text), "."):
		return false // a sentence, not a title
	case strings.Contains(key, "customers who ") || strings.Contains(key, "people who "):
		// "This is what customers who viewed this product bought".
		return slices.ContainsFunc(words, func(w string) bool {
			return w == "bought" || w == "viewed" || w == "purchased" || w == "also"
		})
	case words[0] == "customers" || words[0] == "people" || words[0] == "you":
		// "Customers who viewed this item also viewed", "People also
		// bought", "You might also enjoy".
		return slices.Contains(words, "also")
	case words[0] == "related" || words[0] == "similar":
		// "Related books", "Similar brands on Amazon".
		return len(words) <= 4
	}
	return false
}

// titleRank is the rank of a section title: its heading level, or the
// level of a heading inside it; 7, below every heading, when it is no
// heading (a bold line, a <div>).
func titleRank(t *html.Node) int {
	for n := range allNodes(t) {
		if l := htmltag.HeadingLevel(atomOf(n)); l > 0 {
			return l
		}
	}
	return 7
}

// sections holds a page's section titles and, for every node of the
// page, its measure, taken in one walk.
type sections struct {
	of    map[*html.Node]measure
	title map[*html.Node]bool
}

// measure is what a node holds: the bytes of its text, and the highest
// rank (lowest level) of a heading in it that is not inside a section
// title; 7 when there is none.
type measure struct{ text, topRank int }

func measureSections(doc *html.Node, titles []*html.Node) sections {
	s := sections{of: map[*html.Node]measure{}, title: map[*html.Node]bool{}}
	for _, t := range titles {
		s.title[t] = true
	}
	var walk func(n *html.Node) (text, rank int)
	walk = func(n *html.Node) (text, rank int) {
		rank = 7
		switch {
		case n.Type == html.TextNode:
			text = len(n.Data) - spaces(n.Data)
		case n.Type == html.ElementNode && unrendered(n):
			return 0, 7
		case n.Type == html.ElementNode:
			if l := htmltag.HeadingLevel(atomOf(n)); l > 0 {
				rank = l
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			t, r := walk(c)
			text += t
			if !s.title[c] {
				rank = min(rank, r)
			}
		}
		s.of[n] = measure{text, rank}
		return text, rank
	}
	walk(doc)
	return s
}

// widens reports whether p, the parent of child, which holds a section
// titled at rank, is the same section made larger: an element below the
// page's <main> or <body>, no text before child, and no heading of rank
// or higher outside it but other sections' titles.
func (s sections) widens(p, child *html.Node, rank int) bool {
	if p == nil || p.Type != html.ElementNode {
		return false
	}
	switch p.DataAtom {
	case atom.Body, atom.Html, atom.Main:
		return false
	}
	before := true
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c == child {
			before = false
			continue
		}
		m, ok := s.of[c]
		if before && m.text > 0 || ok && m.topRank <= rank && !s.title[c] {
			return false
		}
	}
	return true
}
