package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

const (
	// companionsMaxNodes bounds the nodes findCompanions and
	// withCompanions render, each: a page nesting paragraphs in objects
	// in paragraphs would otherwise have each rendered once per level.
	companionsMaxNodes = 1 << 20
	// headedParaWords is the fewest words of a paragraph whose heading is
	// put back: a caption or a label under a heading is not a section.
	headedParaWords = 8
	// listLinesChecked is how many of a list's lines withCompanions looks
	// for in the text before it takes the list for lacking.
	listLinesChecked = 64
)

// companion is what stands beside a paragraph on the page: the subheading
// right before it and the list right after it, either possibly nil.
type companion struct {
	heading, list *html.Node
}

// companions maps a paragraph's text (squashed) to its companion.
type companions map[string]companion

// findCompanions finds the page's paragraphs that have a subheading (<h2>
// to <h6>, with words) as the element before them, when they have eight
// words or more, or a list (<ul>, <ol>, at most half of its text in
// links, not a gallery of figures) as the element after, whatever their
// length ("You will need:"). The extractors keep such a paragraph and
// drop its companion: go-trafilatura a heading that holds other elements
// (Substack's permalink anchors) or shares a link with its paragraph (a
// teaser card), and lists it judges to be links or chrome; readability
// the same by class. withCompanions puts them back. The page's <h1> is
// its title, which the text does not repeat.
func findCompanions(doc *html.Node) companions {
	out := companions{}
	budget := companionsMaxNodes
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || atomOf(n) != atom.P {
			continue
		}
		var c companion
		if h := siblingElement(n, false); h != nil && htmltag.IsHeading(atomOf(h)) && atomOf(h) != atom.H1 {
			c.heading = h
		}
		if l := siblingElement(n, true); l != nil && (atomOf(l) == atom.Ul || atomOf(l) == atom.Ol) {
			c.list = l
		}
		if c.heading == nil && c.list == nil {
			continue
		}
		text, ok := boundedText(n, &budget)
		if !ok {
			break
		}
		w := words.Count(text)
		if w < headedParaWords {
			c.heading = nil
		}
		if w == 0 {
			continue
		}
		if c.heading != nil {
			heading, ok := boundedText(c.heading, &budget)
			if !ok {
				break
			}
			if words.Count(heading) == 0 {
				c.heading = nil
			}
		}
		if c.list != nil {
			if budget -= 3 * subtreeSize(c.list, budget/3); budget < 0 {
				break
			}
			if total, linked := linkText(c.list); total == 0 || 2*linked > total || holdsFigure(c.list) {
				c.list = nil
			}
		}
		if c.heading != nil || c.list != nil {
			out[squash(text)] = c
		}
	}
	return out
}

// holdsFigure reports whether n holds a <figure> or <figcaption>: a list
// of them is a gallery, whose captions the extractors leave out.
func holdsFigure(n *html.Node) bool {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && (atomOf(d) == atom.Figure || atomOf(d) == atom.Figcaption) {
			return true
		}
	}
	return false
}

// siblingElement returns n's next (or previous) sibling element, past
// text and comments.
func siblingElement(n *html.Node, next bool) *html.Node {
	for {
		if next {
			n = n.NextSibling
		} else {
			n = n.PrevSibling
		}
		if n == nil || n.Type == html.ElementNode {
			return n
		}
	}
}

// withCompanions puts each paragraph's companions that res's article
// lacks beside it, copied, each paragraph's once. A heading is lacking
// when no line of the text is its text; not the title or the
// description, which the pipelines took off the top on purpose (see
// dropLeadingMeta). A list is lacking when neither its longest line nor
// any line of three words or more is in the text: a list the extractor
// kept in part, or rewrote, is left as it is.
func withCompanions(res *Result, found companions) {
	if len(found) == 0 || res.Node == nil {
		return
	}
	text := renderText(res.Node)
	have, lines := squash(text), map[string]bool{}
	for line := range strings.SplitSeq(text, "\n") {
		lines[squash(line)] = true
	}
	title, description := normKey(res.Title), normKey(res.Description)
	budget := companionsMaxNodes
	type insertion struct{ at, node *html.Node }
	var before, after []insertion
	for n := range res.Node.Descendants() {
		if n.Type != html.ElementNode || atomOf(n) != atom.P {
			continue
		}
		text, ok := boundedText(n, &budget)
		if !ok {
			break
		}
		key := squash(text)
		c, ok := found[key]
		if !ok {
			continue
		}
		delete(found, key)
		if h := c.heading; h != nil {
			heading := renderText(h)
			if k := normKey(heading); !lines[squash(heading)] && !similar(k, title) && !similar(k, description) {
				before = append(before, insertion{n, cloneTree(h)})
			}
		}
		if l := c.list; l != nil && !holdsAnyLine(have, renderText(l)) {
			after = append(after, insertion{n, cloneTree(l)})
		}
	}
	for _, in := range before {
		in.at.Parent.InsertBefore(in.node, in.at)
	}
	for _, in := range after {
		in.at.Parent.InsertBefore(in.node, in.at.NextSibling)
	}
}

// holdsAnyLine reports whether have (squashed text) holds list's longest
// line or any of its first listLinesChecked lines of three words or more
// (each check scans have: a hostile list of a million items is not
// checked a million times).
func holdsAnyLine(have, list string) bool {
	if strings.Contains(have, squash(longestLine(list))) {
		return true
	}
	checked := 0
	for line := range strings.SplitSeq(list, "\n") {
		if words.Count(line) < 3 {
			continue
		}
		if strings.Contains(have, squash(line)) {
			return true
		}
		if checked++; checked == listLinesChecked {
			break
		}
	}
	return false
}
