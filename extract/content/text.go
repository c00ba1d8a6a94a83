package content

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// renderText renders n as plain text the way a browser's innerText does:
// paragraphs, headings, lists and tables are separated by blank lines,
// other blocks (list items, table rows, divs) start new lines, table cells
// are separated by tabs, whitespace in running text is collapsed and
// <pre> keeps its own.
func renderText(n *html.Node) string {
	var t textBuilder
	t.render(n, false)
	return strings.TrimSpace(t.b.String())
}

type textBuilder struct {
	b     strings.Builder
	space bool  // a space is pending before the next word
	nl    uint8 // newlines written since the last text
	tab   bool  // a tab is pending (table cell)
}

func (t *textBuilder) render(n *html.Node, pre bool) {
	switch n.Type {
	case html.TextNode:
		if pre {
			t.write(n.Data)
			return
		}
		t.words(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			t.render(c, pre)
		}
		return
	default:
		return
	}
	var gap uint8
	switch atomOf(n) {
	case atom.Head, atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Iframe,
		atom.Svg, atom.Math, atom.Audio, atom.Video, atom.Canvas, atom.Select, atom.Button,
		atom.Object, atom.Embed, atom.Map:
		return
	case atom.Br:
		t.newline(1, false)
		return
	case atom.Hr:
		t.newline(2, true)
		return
	case atom.Img, atom.Input:
		return
	case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Ul, atom.Ol,
		atom.Dl, atom.Table, atom.Blockquote, atom.Figure:
		gap = 2
	case atom.Pre:
		gap, pre = 2, true
	case atom.Td, atom.Th:
		t.tab = true
	case atom.Div, atom.Li, atom.Dt, atom.Dd, atom.Tr, atom.Section, atom.Article, atom.Header,
		atom.Footer, atom.Main, atom.Aside, atom.Nav, atom.Address, atom.Figcaption, atom.Caption,
		atom.Details, atom.Summary, atom.Form, atom.Fieldset, atom.Thead, atom.Tbody, atom.Tfoot,
		atom.Body, atom.Html, atom.Picture:
		gap = 1
	}
	if gap > 0 {
		t.newline(gap, true)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t.render(c, pre)
	}
	if gap > 0 {
		t.newline(gap, true)
	}
}

// words writes running text, whitespace collapsed.
func (t *textBuilder) words(s string) {
	for len(s) > 0 {
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			t.write(s)
			return
		}
		if i > 0 {
			t.write(s[:i])
		}
		t.space = true
		s = strings.TrimLeftFunc(s[i:], unicode.IsSpace)
	}
}

// write writes text as is, after any pending separator.
func (t *textBuilder) write(s string) {
	if s == "" {
		return
	}
	if t.b.Len() > 0 && t.nl == 0 {
		switch {
		case t.tab:
			t.b.WriteByte('\t')
		case t.space:
			t.b.WriteByte(' ')
		}
	}
	t.b.WriteString(s)
	t.nl, t.space, t.tab = 0, false, false
}

// newline ends the line: n newlines in all since the last text when
// collapse is set (blank lines do not pile up), else n more.
func (t *textBuilder) newline(n uint8, collapse bool) {
	t.space, t.tab = false, false
	if t.b.Len() == 0 {
		return
	}
	if collapse {
		if t.nl >= n {
			return
		}
		n -= t.nl
	}
	for ; n > 0; n-- {
		t.b.WriteByte('\n')
		t.nl++
	}
}

// nodeText is the text content of n with whitespace runs collapsed to one
// space, trimmed.
func nodeText(n *html.Node) string {
	return strings.Join(strings.Fields(renderText(n)), " ")
}
