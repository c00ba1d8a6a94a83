package content

import (
	"cmp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// The bounds of a hero section (see findHero).
const (
	heroMaxWords  = 400     // the most words the section may hold
	heroParaWords = 8       // the fewest words of an introduction's paragraph
	heroMaxNodes  = 1 << 16 // the most nodes the search visits, all levels together
)

// hero is the introduction that a page's first <h1> heads: its
// paragraphs (copies) and the section's whole text, squashed.
type hero struct {
	paras []*html.Node
	text  string
}

// findHero finds the introduction under the page's headline: the
// paragraphs of eight words or more that follow the first <h1> in the
// smallest element around it that holds any, if that element holds at
// most 400 words (a hero section: the headline, a paragraph or two, a
// call to action). Service, product, collection and listing pages put
// their pitch there, and both extractors miss it: the section stands
// apart from the content below, and often reads as a banner. An <h1>
// without words (a logo) heads nothing.
//
// Each level up walks its element three times (to size it, render it and
// find its paragraphs, each of which is rendered); the sizing stops at
// heroMaxNodes nodes in all, a bound a page nesting its headline deep in
// empty elements meets.
func findHero(doc *html.Node) *hero {
	var h1 *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && atomOf(n) == atom.H1 {
			h1 = n
			break
		}
	}
	if h1 == nil || words.Count(renderText(h1)) == 0 {
		return nil
	}
	budget := heroMaxNodes
	for a := h1.Parent; a != nil && a.Type == html.ElementNode && atomOf(a) != atom.Body; a = a.Parent {
		if budget -= 3 * subtreeSize(a, budget/3); budget < 0 {
			return nil
		}
		text := renderText(a)
		if words.Count(text) > heroMaxWords {
			return nil
		}
		if paras := parasAfter(a, h1); len(paras) > 0 {
			return &hero{paras, squash(text)}
		}
	}
	return nil
}

// parasAfter returns copies of the paragraphs of within that follow h1
// and have heroParaWords words or more; a paragraph inside a heading
// (<h4><p>) is copied with its heading, as the page shows it.
func parasAfter(within, h1 *html.Node) []*html.Node {
	var paras []*html.Node
	var last *html.Node
	after := false
	for n := range within.Descendants() {
		switch {
		case n == h1:
			after = true
		case after && n.Type == html.ElementNode && atomOf(n) == atom.P &&
			words.Count(renderText(n)) >= heroParaWords:
			block := cmp.Or(headingAround(n, within), n)
			if block != last {
				paras = append(paras, cloneTree(block))
				last = block
			}
		}
	}
	return paras
}

// headingAround returns the heading that holds n below within, if any.
func headingAround(n, within *html.Node) *html.Node {
	for a := n.Parent; a != nil && a != within; a = a.Parent {
		if htmltag.IsHeading(atomOf(a)) {
			return a
		}
	}
	return nil
}

// withIntro puts the hero's paragraphs that res's text lacks before it,
// unless the hero section holds the text's first line: then the section
// is the content's own top, and the extractor chose what to keep of it
// (measured on WCXB: a byline, a stock notice, an address beside a small
// page's headline, taken otherwise).
func withIntro(res *Result, h *hero) {
	if h == nil || res.Node == nil {
		return
	}
	text := renderText(res.Node)
	for line := range strings.SplitSeq(text, "\n") {
		if words.Count(line) >= 5 {
			if strings.Contains(h.text, squash(line)) {
				return
			}
			break
		}
	}
	have := squash(text)
	div := &html.Node{Type: html.ElementNode, DataAtom: atom.Div, Data: "div"}
	for _, p := range h.paras {
		if !strings.Contains(have, squash(renderText(p))) {
			div.AppendChild(p)
		}
	}
	if div.FirstChild == nil {
		return
	}
	res.Node.InsertBefore(div, res.Node.FirstChild)
}
