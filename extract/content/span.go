package content

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// spanAnchor is the least text (bytes, whitespace removed) of a block
// that marks where the extraction starts or ends in the page: a shorter
// one ("Pricing", "Learn more") may be a menu's entry repeated.
const spanAnchor = 20

// minSpanCoverage is the share of the extracted text that must be found
// in the page for its span to replace it: the span is a copy of the page,
// and what was not found would be lost.
const minSpanCoverage = 0.9

// maxButtonWords is the most words of a link that stands alone in its
// block as a button ("Get started", "Request a demo").
const maxButtonWords = 4

// maxButtonText is the most text (bytes, whitespace removed) of a
// button's label.
const maxButtonText = 60

// filledSpan is the page from the first block of the extraction (the
// trees extracted, found in doc) to its last, whole: the blocks between
// them that the extractor cut are put back, except the page's chrome
// (headers, footers, navigation, asides, forms, dialogs), what an inline
// style hides (display:none: a login notice, an "unavailable" message, a
// price label waiting for a script; WCXB: service pages 0.8471 to
// 0.8479, five pages better, none worse) and links that stand alone as
// buttons. On a marketing page the extractors keep the feature text and
// cut what sits between it: testimonials, a grid of short feature cards,
// a call to action's sentence. It returns nil when
// the extraction is not found in doc (see matchRegion).
//
// extract then maps the span back onto doc for the Markdown (findRegion),
// matching the page a second time: the span has been edited since
// (interface and chrome lines dropped) and the headline taken off the
// top is matched with it. Measured page by page, the second match of a
// copy of the page costs less than that of go-trafilatura's rewritten
// tree it replaces, so the step does not slow accurate mode.
func filledSpan(doc *html.Node, extracted []*html.Node) *html.Node {
	r, runs := matchRegion(doc, extracted)
	if r == nil || r.found() < minSpanCoverage*float64(r.want) {
		return nil
	}
	first, last := -1, -1
	for i, run := range runs {
		if run.n >= spanAnchor && r.live[run.block] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return nil
	}
	chrome := chromeMemo{}
	for _, run := range runs[first : last+1] {
		if r.live[run.block] || chrome.holds(run.block) || buttonRun(run) {
			continue
		}
		for _, n := range run.nodes {
			r.kept[n] = true
		}
		r.live[run.block] = true
	}
	return r.copy(doc)
}

// chromeMemo remembers which elements are inside the page's chrome: a
// header, footer, navigation, aside, form or dialog, or an element an
// inline style hides (display:none). Each element's answer is worked out
// once, so that asking for every block of a page nested thousands deep
// costs its size, not its size times its depth.
type chromeMemo map[*html.Node]bool

// holds reports whether n is inside the page's chrome.
func (m chromeMemo) holds(n *html.Node) bool {
	var path []*html.Node
	inside := false
	for ; n != nil; n = n.Parent {
		if known, ok := m[n]; ok {
			inside = known
			break
		}
		path = append(path, n)
		if chromeElement(n) || hasDisplayNone(htmltag.Attr(n, "style")) {
			inside = true
			break
		}
	}
	for _, p := range path {
		m[p] = inside
	}
	return inside
}

// chromeElement reports whether n is a header, footer, nav, aside, form
// or dialog element: chrome whatever its class (outsideContent, for item
// grids, also reads classes and hidden markers; prune, for readability's
// article, drops figcaptions too).
func chromeElement(n *html.Node) bool {
	switch atomOf(n) {
	case atom.Header, atom.Footer, atom.Nav, atom.Aside, atom.Form, atom.Dialog:
		return true
	}
	return false
}

// buttonRun reports whether run is one short link alone in its block: a
// button's label. A table's cell is none: a table of links (a list's
// laureates, each a link to their page) is data.
func buttonRun(run textRun) bool {
	if run.n > maxButtonText || len(run.nodes) > maxButtonWords {
		return false
	}
	switch atomOf(run.block) {
	case atom.Td, atom.Th:
		return false
	}
	link := linkOf(run.nodes[0], run.block)
	if link == nil {
		return false
	}
	for _, n := range run.nodes[1:] {
		if linkOf(n, run.block) != link {
			return false
		}
	}
	return words.Count(nodeText(link)) <= maxButtonWords
}

// linkOf is the <a> around text node n below block, or nil.
func linkOf(n, block *html.Node) *html.Node {
	for p := n.Parent; p != nil && p != block; p = p.Parent {
		if atomOf(p) == atom.A {
			return p
		}
	}
	return nil
}
