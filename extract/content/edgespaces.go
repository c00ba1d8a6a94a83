package content

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/words"
)

// go-trafilatura (v1.12.2, handleTextNode) trims the text and the tail
// of every element it keeps, so the white space where running text meets
// an inline element is lost: "<strong>Full Kit</strong> ($160)" comes
// out "Full Kit($160)", "between <b>$19,473 </b>and" "and$88,340". The
// characters that meet do not tell whether the page had a space there
// ("<code>Arc</code>s" has none, "for <tt>slack.com</tt>" has one); the
// page does. pageSpaces reads it: whether each text of the page that
// starts at an inline element's edge follows white space (or a block's
// edge) in reading order, so that restoreSpaces puts back exactly the
// spaces the page had wherever the text after an edge is one the page
// holds whole, and guesses (needSpace) only where go-trafilatura has
// merged or cut texts, or the page has the same text both ways.
// Hand-written: go-trafilatura has no option to keep the white space,
// and marking it in the copy it reads changes what its filters keep.

// pageSpaces tells whether the texts of a page follow white space; it
// reads the page on first use.
type pageSpaces struct {
	page    *html.Node
	follows map[string]reached // by textKey of a text node
}

// reached is how the texts of a page with one textKey are reached in
// reading order: after white space (a line break or a block's edge
// counts), straight after other text, or both ways (the key occurs more
// than once), and the last character of the text before when that is
// the same for every occurrence (else 0).
type reached struct {
	space, text bool
	after       rune
}

// spaceBefore reports whether a space belongs before r, a text node of
// go-trafilatura's output (which copies the page's texts trimmed), where
// the text before it ends with left, and whether the page tells. It
// tells when r's text is a text of the page (see lookup) and either it
// follows white space wherever it occurs, but for occurrences straight
// after text ending otherwise than left (not this one), or it follows
// text ending with left wherever it occurs. Not when go-trafilatura may
// have dropped the text between ("U+0000–U+007F" lost its dash: left
// is not the character the page has before), nor when text runs on
// into a capital: a page whose inline element is styled as a block (a
// card's <em class="title">Experience</em>The easiest…) reads as two
// words in a browser though its text runs on. needSpace guesses then.
func (p *pageSpaces) spaceBefore(r *html.Node, left rune) (space, known bool) {
	if p == nil || p.page == nil || r == nil {
		return false, false
	}
	if p.follows == nil {
		p.read()
	}
	how, ok := p.lookup(textKey(r.Data))
	if !ok {
		return false, false
	}
	// Whether an occurrence reached straight after text may be this one.
	straight := how.text && (how.after == 0 || how.after == left)
	first, _ := utf8.DecodeRuneInString(r.Data)
	switch {
	case how.space && !straight:
		return true, true
	case straight && !how.space && how.after != 0 && !unicode.IsUpper(first):
		return false, true
	}
	return false, false
}

// lookup finds how the page reaches the text whose key is key: the text
// itself, or else the longest whole text of the page that key starts
// with up to a space (go-trafilatura joined a short text of the page,
// "($249.99):", to the text after it).
func (p *pageSpaces) lookup(key string) (reached, bool) {
	if how, ok := p.follows[key]; ok {
		return how, true
	}
	for i := strings.LastIndexByte(key, ' '); i > 0; i = strings.LastIndexByte(key[:i], ' ') {
		if how, ok := p.follows[key[:i]]; ok {
			return how, true
		}
	}
	return reached{}, false
}

// read walks the page in reading order and notes how each text node
// with text that starts at an inline element's edge is reached. Text in
// <pre>, <textarea>, scripts, style sheets and <head> is not read
// (go-trafilatura keeps white space in <pre>, and the rest is not
// shown); entering or leaving any element that is not inline counts as
// white space, as a browser breaks the line there.
func (p *pageSpaces) read() {
	p.follows = map[string]reached{}
	space, last := true, rune(0)
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.ElementNode:
				a := atomOf(c)
				switch a {
				case atom.Pre, atom.Textarea, atom.Script, atom.Style, atom.Head, atom.Template:
					space = true
					continue
				}
				block := !isInline(a)
				space = space || block
				walk(c)
				space = space || block
			case html.TextNode:
				body := words.TrimRightSpace(c.Data)
				if body == "" {
					space = space || c.Data != ""
					continue
				}
				if atInlineEdge(c) {
					p.note(c.Data, space, last)
				}
				space = len(body) < len(c.Data)
				last, _ = utf8.DecodeLastRuneInString(body)
			}
		}
	}
	walk(p.page)
}

// note records how the page reaches text: after white space (space or
// its own leading white space), or straight after text ending with last.
func (p *pageSpaces) note(text string, space bool, last rune) {
	key := textKey(text)
	how := p.follows[key]
	switch {
	case space || startsWithSpace(text):
		how.space = true
	case !how.text:
		how.text, how.after = true, last
	case how.after != last:
		how.after = 0
	}
	p.follows[key] = how
}

// atInlineEdge reports whether text node t starts at an inline element's
// edge: right after one, or first in one. The texts of go-trafilatura's
// output that restoreSpaces asks about start there.
func atInlineEdge(t *html.Node) bool {
	if t.PrevSibling != nil {
		return inlineElement(t.PrevSibling)
	}
	return t.Parent != nil && isInline(atomOf(t.Parent))
}

// inlineElement reports whether n is an inline element.
func inlineElement(n *html.Node) bool {
	return n != nil && n.Type == html.ElementNode && isInline(atomOf(n))
}

// maxTextKey bounds a text's key (bytes): go-trafilatura joins the
// texts around the elements it unwraps (a link's, the text after it), so
// a text of its output often starts with a text of the page and goes on;
// their keys are alike when the page's is this long.
const maxTextKey = 48

// textKey is the start of text as go-trafilatura writes it (its trim):
// runs of white space made one space, the ends trimmed, cut to at most
// maxTextKey bytes. It allocates only when text has a run to collapse.
func textKey(text string) string {
	t := words.TrimLeftSpace(words.TrimRightSpace(text))
	prevSpace := false
	for i, r := range t {
		if i >= maxTextKey {
			return t[:i]
		}
		space := unicode.IsSpace(r)
		if space && (prevSpace || r != ' ') {
			return textKey(strings.Join(strings.Fields(t[:min(len(t), 4*maxTextKey)]), " "))
		}
		prevSpace = space
	}
	return t
}

// startsWithSpace reports whether s starts with white space.
func startsWithSpace(s string) bool {
	return len(words.TrimLeftSpace(s)) < len(s)
}
