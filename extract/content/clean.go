package content

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webinfra/webinfra/internal/htmltag"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// isInline reports whether an element is running text markup that
// go-trafilatura keeps in its output.
func isInline(a atom.Atom) bool {
	switch a {
	case atom.A, atom.B, atom.Strong, atom.I, atom.Em, atom.U, atom.S, atom.Del, atom.Ins,
		atom.Mark, atom.Span, atom.Code, atom.Q, atom.Cite, atom.Abbr, atom.Small, atom.Big,
		atom.Font, atom.Time, atom.Kbd, atom.Var, atom.Samp, atom.Dfn, atom.Tt:
		return true
	}
	return false
}

// restoreSpaces puts back the spaces go-trafilatura drops around inline
// elements. It trims the text before and after every element it keeps,
// so "for <a>Larry</a> has" becomes "for<a>Larry</a>has" (its own plain
// text hides this by joining every text node with a space, which splits
// words instead). Where texts meet across an inline element's edge with
// no white space between them, the page says whether it had a space
// there (spaces: see pageSpaces); where it cannot tell, a word character
// or closing punctuation meeting a word character almost always had one
// (needSpace). This repairs the tree, so the markdown gains too.
func restoreSpaces(n *html.Node, spaces *pageSpaces) {
	if n.Type == html.ElementNode && n.DataAtom == 0 {
		n.DataAtom = atom.Lookup([]byte(n.Data))
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		restoreSpaces(c, spaces) // also sets the atom: go-trafilatura builds elements by name only
		if !isInline(c.DataAtom) {
			continue
		}
		if p := c.PrevSibling; p != nil && spaceWanted(p, c, spaces) {
			n.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, c)
		}
		if s := c.NextSibling; s != nil && spaceWanted(c, s, spaces) {
			n.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, s)
		}
	}
}

// spaceWanted reports whether a space belongs between siblings l and r
// of go-trafilatura's output (see restoreSpaces).
func spaceWanted(l, r *html.Node, spaces *pageSpaces) bool {
	lr, rr := lastRune(l), firstRune(r)
	if lr == 0 || rr == 0 || unicode.IsSpace(lr) || unicode.IsSpace(rr) {
		return false
	}
	if space, known := spaces.spaceBefore(edgeText(r, false), lr); known {
		return space
	}
	return needSpace(lr, rr)
}

// spaceSiblings puts a space between adjacent sibling elements of the
// page that the markup runs together (<span>Gregory</span><span>Paragon
// 68 Pack</span>, <span>$158.73</span><div>Save 45%</div>): JSX and
// other templating emit no whitespace between elements and leave their
// layout to CSS, so a renderer without CSS glues their words, which then
// match nothing. One of the two must be inline (between two blocks the
// renderers break the line anyway), and a word character must meet one
// (needSpace: a link and the comma after it stay together). Whitespace
// between inline elements renders as one space in a browser, so where
// the page meant no gap, a word split across two elements, one appears:
// that is rare, and the commonest case, a drop cap (a first element of
// one letter), is left alone. It runs on the page before extraction;
// restoreSpaces mends what go-trafilatura's output loses.
func spaceSiblings(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.DataAtom {
		case atom.Pre, atom.Script, atom.Style, atom.Template, atom.Textarea, atom.Title, atom.Svg, atom.Math, atom.Head:
			continue
		}
		next := pastEmpty(c.NextSibling)
		if next != nil && next.Type == html.ElementNode && (isInline(c.DataAtom) || isInline(next.DataAtom)) &&
			needSpace(outerRune(c, true), outerRune(next, false)) && !dropCap(c) {
			n.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, next)
		}
		spaceSiblings(c)
	}
}

// maxEmptySiblings bounds the empty elements pastEmpty looks past, so
// that a page of thousands of them in a row costs a pass, not their
// square.
const maxEmptySiblings = 8

// pastEmpty returns n, or the first sibling from n on that is not an empty
// element or a comment: the separator between a card's date and its
// section (<span>9 hrs ago</span><div></div><span>Latin America</span>),
// an icon font's <i></i>, which extractors drop, after which the words
// meet. A <wbr> is not looked past: it stands inside a word.
func pastEmpty(n *html.Node) *html.Node {
	for range maxEmptySiblings {
		if n == nil || !(n.Type == html.CommentNode || n.Type == html.ElementNode && n.FirstChild == nil && n.DataAtom != atom.Wbr) {
			return n
		}
		n = n.NextSibling
	}
	return n
}

// outerRune is the last (or first) character of n's text through its
// last (first) children, whatever their kind; 0 where that edge is not
// text, or is more than 32 elements down (so that a hostile page's deep
// chains do not make spaceSiblings quadratic).
func outerRune(n *html.Node, last bool) rune {
	for depth := 0; n != nil && n.Type == html.ElementNode; depth++ {
		if depth == 32 {
			return 0
		}
		if last {
			n = n.LastChild
		} else {
			n = n.FirstChild
		}
	}
	if n == nil || n.Type != html.TextNode {
		return 0
	}
	if last {
		r, _ := utf8.DecodeLastRuneInString(n.Data)
		return r
	}
	r, _ := utf8.DecodeRuneInString(n.Data)
	return r
}

// dropCap reports whether n's text is a single letter. It looks at n's
// first few nodes only, so that checking every sibling pair of a deep
// page stays linear: a drop cap is a small element.
func dropCap(n *html.Node) bool {
	letters, visited := 0, 0
	for d := range n.Descendants() {
		if visited++; visited > 16 {
			return false
		}
		if d.Type != html.TextNode {
			continue
		}
		for _, r := range d.Data {
			switch {
			case unicode.IsSpace(r):
			case unicode.IsLetter(r) && letters == 0:
				letters++
			default:
				return false
			}
		}
	}
	return letters == 1
}

// needSpace reports whether text ending in l followed by text starting
// with r needs a space between them. Never in scripts written without
// spaces between words.
func needSpace(l, r rune) bool {
	if l == 0 || r == 0 || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return false
	}
	if unspaced(l) || unspaced(r) {
		return false
	}
	if unicode.IsLetter(l) || unicode.IsDigit(l) {
		return true
	}
	switch l {
	case '.', ',', ';', ':', '!', '?', ')', ']', '"', '\u201d', '\u2019':
		return true
	}
	return false
}

// unspaced reports whether r belongs to a script written without spaces
// between words.
func unspaced(r rune) bool {
	return r >= 0x0E00 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana,
		unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan) ||
		(r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF))
}

// firstRune is the first character of n's text, 0 when there is none (or
// n is a line break or other void element, which separates by itself).
func firstRune(n *html.Node) rune { return edgeRune(n, false) }

// lastRune is the last character of n's text, 0 when there is none.
func lastRune(n *html.Node) rune { return edgeRune(n, true) }

// edgeRune is the first (or with last, the last) character of n's text
// through inline elements.
func edgeRune(n *html.Node, last bool) rune {
	t := edgeText(n, last)
	if t == nil {
		return 0
	}
	decode := utf8.DecodeRuneInString
	if last {
		decode = utf8.DecodeLastRuneInString
	}
	if r, _ := decode(t.Data); r != utf8.RuneError {
		return r
	}
	return 0
}

// edgeText is the text node that n's text starts (or with last, ends)
// with through inline elements, nil when there is none.
func edgeText(n *html.Node, last bool) *html.Node {
	switch n.Type {
	case html.TextNode:
		return n
	case html.ElementNode:
		c := n.FirstChild
		if last {
			c = n.LastChild
		}
		if isInline(atomOf(n)) && c != nil {
			return edgeText(c, last)
		}
	}
	return nil
}

// dropLeadingMeta removes the headline and the standfirst from the top of
// the article body: blocks, before any other text, whose text is the
// page's title, or headings whose text is its description. Both are
// returned in their own fields, and a body that repeats them repeats them
// to a reader (and to a language model) too. Pages put their headline in
// the article container more often than not, and go-trafilatura keeps it.
// A paragraph that matches the description stays: descriptions are often
// the article's first paragraph, which is body text. The blocks removed
// are returned, in order: the Markdown keeps them (see findRegion).
func dropLeadingMeta(root *html.Node, title, description string) (dropped []*html.Node) {
	tk, dk := normKey(title), normKey(description)
	if len(tk) < 8 && len(dk) < 8 {
		return nil
	}
	for range 3 {
		b := firstTextBlock(root)
		if b == nil || b == root {
			return dropped
		}
		k := normKey(nodeText(b))
		switch {
		case len(tk) >= 8 && similar(k, tk):
		case len(dk) >= 8 && htmltag.IsHeading(atomOf(b)) && similar(k, dk):
		default:
			return dropped
		}
		b.Parent.RemoveChild(b)
		dropped = append(dropped, b)
	}
	return dropped
}

// similar reports whether two keys are the same text, or nearly: one
// contains the other and they differ by at most a fifth (a site name or a
// "Updated:" left on one of them).
func similar(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a)*5 >= len(b)*4 && strings.Contains(b, a)
}

// firstTextBlock returns the block element holding the first text of
// root, or nil when root has no text.
func firstTextBlock(root *html.Node) *html.Node {
	var text *html.Node
	var find func(*html.Node) bool
	find = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
				text = c
				return true
			}
			if c.Type == html.ElementNode && find(c) {
				return true
			}
		}
		return false
	}
	if !find(root) {
		return nil
	}
	b := text.Parent
	for b != root && b.Type == html.ElementNode && isInline(atomOf(b)) {
		b = b.Parent
	}
	return b
}

// normKey is s lowercased with everything but letters and digits turned
// to single spaces, for comparing texts that differ in punctuation only.
func normKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
			space = false
		} else {
			space = true
		}
	}
	return b.String()
}

// atomOf is n's atom, looked up from its name when the tree's builder did
// not set it.
func atomOf(n *html.Node) atom.Atom {
	if n.DataAtom != 0 {
		return n.DataAtom
	}
	return atom.Lookup([]byte(n.Data))
}
