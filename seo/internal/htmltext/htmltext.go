package htmltext

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// skipped elements: their text is never visible. <noscript> is read: the
// page is parsed as a crawler reads it, <noscript> as markup (internal/htmltag),
// and what a crawler that runs no script sees is the text that counts
// (Discourse serves a whole thread there).
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true,
	atom.Head: true, atom.Title: true, atom.Iframe: true, atom.Object: true,
	atom.Svg: true, atom.Math: true, atom.Select: true, atom.Textarea: true,
}

// block elements: each starts and ends a block of text.
var block = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Br: true, atom.Caption: true, atom.Dd: true, atom.Details: true, atom.Dialog: true,
	atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true,
	atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true,
	atom.Hgroup: true, atom.Hr: true, atom.Legend: true, atom.Li: true, atom.Main: true,
	atom.Nav: true, atom.Ol: true, atom.Option: true, atom.P: true, atom.Pre: true,
	atom.Section: true, atom.Summary: true, atom.Table: true, atom.Tbody: true,
	atom.Td: true, atom.Tfoot: true, atom.Th: true, atom.Thead: true, atom.Tr: true,
	atom.Ul: true, atom.Body: true, atom.Html: true, atom.Button: true, atom.Label: true,
}

// Blocks returns the visible text of doc, one string per block, in document
// order, each trimmed and with inner white space collapsed; empty blocks are
// left out. maxBytes > 0 stops collecting once that many bytes of text are
// held (the block under way is cut after its last whole word) and reports
// truncated.
func Blocks(doc string, maxBytes int) (blocks []string, truncated bool, err error) {
	root, err := htmltag.Parse(doc, "html")
	if err != nil {
		return nil, false, err
	}
	w := walker{max: maxBytes}
	w.walk(root)
	w.flush()
	return w.blocks, w.truncated, nil
}

type walker struct {
	blocks    []string
	cur       strings.Builder
	space     bool // a space is pending before the next word
	held      int
	max       int
	truncated bool
}

func (w *walker) walk(n *html.Node) {
	if w.truncated {
		return
	}
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
		if skipped[n.DataAtom] || hasAttr(n, "hidden") {
			return
		}
	case html.CommentNode, html.DoctypeNode:
		return
	}
	isBlock := n.Type == html.ElementNode && block[n.DataAtom]
	if isBlock {
		w.flush()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
	if isBlock {
		w.flush()
	}
}

func (w *walker) text(s string) {
	for _, r := range s {
		if isHTMLSpace(r) {
			w.space = w.cur.Len() > 0
			continue
		}
		n := utf8.RuneLen(r)
		if w.space {
			n++
		}
		if w.max > 0 && w.held+n > w.max {
			w.truncated = true
			if !w.space { // mid-word: drop the partial word
				cur := w.cur.String()
				w.cur.Reset()
				if i := strings.LastIndexByte(cur, ' '); i >= 0 {
					w.cur.WriteString(cur[:i])
				}
			}
			return
		}
		if w.space {
			w.cur.WriteByte(' ')
			w.space = false
		}
		w.cur.WriteRune(r)
		w.held += n
	}
}

func (w *walker) flush() {
	if t := strings.TrimSpace(w.cur.String()); t != "" {
		w.blocks = append(w.blocks, t)
	}
	w.cur.Reset()
	w.space = false
}

func isHTMLSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\u00a0':
		return true
	}
	return false
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// Cut returns s cut to at most max bytes, at the last white space before
// the cap when there is one in its second half, else at a rune boundary,
// and whether it cut: the audits' input caps.
func Cut(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if sp := strings.LastIndexAny(s[:i], " \t\r\n"); sp > i/2 {
		i = sp
	}
	return s[:i], true
}
