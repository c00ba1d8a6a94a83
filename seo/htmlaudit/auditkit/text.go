package auditkit

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// Walk visits root (when it is an element) and the elements under it in
// document order. visit returns false to skip an element's children.
// Template contents are never visited: they are inert. limit > 0 caps the
// elements visited; Walk reports whether it stopped at the cap.
func Walk(root *html.Node, limit int, visit func(*html.Node) bool) (truncated bool) {
	count := 0
	for n := root; n != nil; {
		descend := n.Type == html.DocumentNode
		if n.Type == html.ElementNode {
			if limit > 0 && count >= limit {
				return true
			}
			count++
			descend = visit(n) && !(n.DataAtom == atom.Template && n.Namespace == "")
		}
		if descend && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for n != root && n.NextSibling == nil {
			n = n.Parent
		}
		if n == root {
			break
		}
		n = n.NextSibling
	}
	return false
}

// Hidden reports whether an element is not rendered: it has the hidden
// attribute or an inline style with display:none.
func Hidden(n *html.Node) bool {
	if htmltag.HasAttr(n, "hidden") {
		return true
	}
	style, ok := htmltag.LookupAttr(n.Attr, "style")
	if !ok || !strings.Contains(style, "none") {
		return false
	}
	return strings.Contains(strings.ToLower(strings.Join(strings.Fields(style), "")), "display:none")
}

// noText are the HTML elements whose content is never visible text.
var noText = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true,
	atom.Select: true, atom.Textarea: true, atom.Iframe: true, atom.Object: true,
}

// spaced are the HTML elements that separate the words around them.
var spaced = map[atom.Atom]bool{
	atom.Br: true, atom.P: true, atom.Div: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Td: true, atom.Th: true, atom.Tr: true,
	atom.Table: true, atom.Blockquote: true, atom.Pre: true, atom.Section: true, atom.Article: true,
	atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Aside: true, atom.Figure: true,
	atom.Figcaption: true, atom.Caption: true, atom.Hr: true, atom.Img: true, atom.Button: true,
	atom.Label: true, atom.Option: true, atom.Summary: true, atom.Details: true,
}

// Text is the visible text under n on one line: white space (no-break
// spaces included) collapsed and trimmed, line breaks and block elements
// read as a space, and scripts, styles, templates, noscript, form controls,
// embedded frames, SVG and MathML, and hidden elements (see Hidden) left
// out. maxBytes > 0 stops reading after about that many bytes.
func Text(n *html.Node, maxBytes int) string {
	t := textBuf{max: maxBytes}
	t.add(n)
	return t.b.String()
}

type textBuf struct {
	b     strings.Builder
	space bool // white space is pending before the next character
	max   int
}

func (t *textBuf) full() bool { return t.max > 0 && t.b.Len() >= t.max }

func (t *textBuf) add(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		t.text(n.Data)
		return
	case html.ElementNode:
		if n.Namespace != "" || noText[n.DataAtom] || Hidden(n) {
			return
		}
	case html.CommentNode, html.DoctypeNode:
		return
	}
	sep := n.Type == html.ElementNode && spaced[n.DataAtom]
	t.space = t.space || sep
	for c := n.FirstChild; c != nil && !t.full(); c = c.NextSibling {
		t.add(c)
	}
	t.space = t.space || sep
}

func (t *textBuf) text(s string) {
	for _, r := range s {
		if t.full() {
			return
		}
		if unicode.IsSpace(r) {
			t.space = true
			continue
		}
		if t.space && t.b.Len() > 0 {
			t.b.WriteByte(' ')
		}
		t.space = false
		t.b.WriteRune(r)
	}
}

// CollapseSpace trims s and collapses each run of white space in it to one
// space.
func CollapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Sources of an accessible name, as Name reports them.
const (
	SourceText      = "text"
	SourceImageAlt  = "img_alt"
	SourceAriaLabel = "aria_label"
	SourceTitle     = "title"
)

// nameBytes caps the text read for a name.
const nameBytes = 1024

// Name is the name a link or heading shows, the first found of: its
// visible text (see Text); the text alternative of the first image under
// it that has one (an img or input type=image alt, or an inline SVG's
// <title>); its aria-label; its title attribute. source says which
// (SourceText, SourceImageAlt, SourceAriaLabel, SourceTitle); both are ""
// when it has none.
func Name(n *html.Node) (name, source string) {
	if t := Text(n, nameBytes); t != "" {
		return t, SourceText
	}
	if alt := imageAlt(n); alt != "" {
		return Clip(alt, nameBytes), SourceImageAlt
	}
	if l := CollapseSpace(htmltag.Attr(n, "aria-label")); l != "" {
		return Clip(l, nameBytes), SourceAriaLabel
	}
	if l := CollapseSpace(htmltag.Attr(n, "title")); l != "" {
		return Clip(l, nameBytes), SourceTitle
	}
	return "", ""
}

// imageAlt is the text alternative of the first image under n that has
// one: an img's (or input type=image's) alt, or an inline SVG's <title>.
func imageAlt(n *html.Node) string {
	var alt string
	Walk(n, 0, func(c *html.Node) bool {
		switch {
		case alt != "" || Hidden(c):
			return false
		case c.Namespace == "svg":
			if c.Data == "title" {
				alt = CollapseSpace(RawText(c))
			}
			return true
		case c.Namespace != "" || noText[c.DataAtom]:
			return false
		case c.DataAtom == atom.Img || c.DataAtom == atom.Input && strings.EqualFold(htmltag.Attr(c, "type"), "image"):
			alt = CollapseSpace(htmltag.Attr(c, "alt"))
		}
		return true
	})
	return alt
}

// RawText is the text of n's text-node children, as written: the
// content of a <style>, <script> or <title>.
func RawText(n *html.Node) string { return htmltag.RawText(n) }

// Words counts the words of s: runs of letters, digits and marks
// (apostrophes and hyphens inside a word keep it whole), except that each
// Han, Hiragana or Katakana character counts as a word of its own, since
// those scripts do not separate words with spaces.
func Words(s string) int {
	count, inWord := 0, false
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			count++
			inWord = false
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if !inWord {
				count++
			}
			inWord = true
		case inWord && (r == '\'' || r == '’' || r == '-'):
			// inside a word
		default:
			inWord = false
		}
	}
	return count
}
