package content

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// renderText renders n as plain text the way a browser's innerText does:
// paragraphs, headings, lists and tables are separated by blank lines,
// other blocks (list items, table rows, divs) start new lines, table cells
// are separated by tabs, whitespace in running text is collapsed and
// <pre> keeps its own. The pipelines compare candidates in this form.
func renderText(n *html.Node) string {
	var t textBuilder
	t.render(n, false)
	return strings.TrimSpace(t.b.String())
}

// articleText renders n as Result.Text: renderText's lines, with the marks
// plain-text extractors put there (trafilatura's text output, and the
// WCXB ground truth written in its style): a list item starts with "- ",
// or its number and a dot in an ordered list, and a table row reads
// "| cell | cell |".
func articleText(n *html.Node) string {
	t := textBuilder{marks: true}
	t.render(n, false)
	return strings.TrimSpace(t.b.String())
}

type textBuilder struct {
	b      strings.Builder
	marks  bool   // list and table marks (articleText)
	space  bool   // a space is pending before the next word
	nl     uint8  // newlines written since the last text
	tab    bool   // a cell separator is pending (table cell)
	cells  bool   // the current line holds table cells (marks only)
	marker string // a list item's mark is pending (marks only)
	cell   int    // depth of the table cells being rendered
	br     bool   // a <br> within a sentence is pending (see lineBreak)
	// ordinal numbers the items of the innermost <ol> (marks only).
	ordinal *ordinal
}

// ordinal is the count of an ordered list's items.
type ordinal struct {
	list       *html.Node
	next, step int
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
		t.lineBreak(pre)
		return
	case atom.Hr:
		t.newline(2, true)
		return
	case atom.Img, atom.Input:
		return
	case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Ul,
		atom.Dl, atom.Table, atom.Blockquote, atom.Figure:
		gap = 2
	case atom.Pre:
		gap, pre = 2, true
	case atom.Td, atom.Th:
		t.tab = true
		t.cell++
		defer func() { t.cell-- }()
	case atom.Ol:
		gap = 2
		if t.marks {
			defer t.countItems(n)()
		}
	case atom.Li:
		gap = 1
		if t.marks {
			t.marker = t.itemMark(n)
			defer func() { t.marker = "" }()
		}
	case atom.Tr:
		gap = 1
	case atom.Div, atom.Dt, atom.Dd, atom.Section, atom.Article, atom.Header,
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

// countItems starts the numbering of ol's items, as a browser numbers
// them (the start and reversed attributes), and returns the function
// that restores the enclosing list's.
func (t *textBuilder) countItems(ol *html.Node) (restore func()) {
	outer := t.ordinal
	c := &ordinal{next: 1, step: 1}
	if _, ok := htmltag.LookupAttr(ol.Attr, "reversed"); ok {
		c.step = -1
		c.next = 0
		for li := ol.FirstChild; li != nil; li = li.NextSibling {
			if atomOf(li) == atom.Li {
				c.next++
			}
		}
	}
	if v, ok := htmltag.LookupAttr(ol.Attr, "start"); ok {
		if start, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			c.next = start
		}
	}
	c.list = ol
	t.ordinal = c
	return func() { t.ordinal = outer }
}

// itemMark is the mark li's text starts with: its number in an ordered
// list (its value attribute, if any, resets the count), else "- ".
func (t *textBuilder) itemMark(li *html.Node) string {
	c := t.ordinal
	if c == nil || li.Parent != c.list {
		return "- "
	}
	if v, ok := htmltag.LookupAttr(li.Attr, "value"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			c.next = n
		}
	}
	n := c.next
	c.next += c.step
	return strconv.Itoa(n) + ". "
}

// words writes running text, whitespace collapsed.
func (t *textBuilder) words(s string) {
	for len(s) > 0 {
		i := words.IndexSpace(s)
		if i < 0 {
			t.write(s)
			return
		}
		if i > 0 {
			t.write(s[:i])
		}
		t.space = true
		s = words.TrimLeftSpace(s[i:])
	}
}

// lineBreak renders a <br>. In a table cell it is a space: the row
// stays one line. Within a sentence (the text so far ends in neither
// punctuation that closes one nor a break) it waits for the next text:
// when that goes on in lower case or with a digit, the break only wrapped
// the sentence where the page's layout wanted ("used in a<br>fitness
// facility") and is a space; otherwise it ends the line.
func (t *textBuilder) lineBreak(pre bool) {
	t.flushBreak()
	switch {
	case t.cell > 0:
		t.space = true
	case !pre && t.nl == 0 && t.b.Len() > 0 && !endsClause(t.b.String()):
		t.br, t.space = true, true
	default:
		t.newline(1, false)
	}
}

// flushBreak ends the line of a pending <br>.
func (t *textBuilder) flushBreak() {
	if t.br {
		t.br = false
		t.newline(1, false)
	}
}

// endsClause reports whether text ends with punctuation that closes a
// sentence or clause.
func endsClause(text string) bool {
	r, _ := utf8.DecodeLastRuneInString(text)
	return strings.ContainsRune(".!?:;…", r)
}

// write writes text as is, after any pending separator.
func (t *textBuilder) write(s string) {
	if s == "" {
		return
	}
	if t.br {
		t.br = false
		if r, _ := utf8.DecodeRuneInString(s); !unicode.IsLower(r) && !unicode.IsDigit(r) {
			t.newline(1, false)
		}
	}
	switch {
	case t.marks && t.tab:
		// A cell: "| " opens its row's line, " | " follows text on it
		// (newline closes the line with " |").
		if t.nl == 0 && t.b.Len() > 0 {
			t.b.WriteString(" | ")
		} else {
			t.b.WriteString(t.marker + "| ")
		}
		t.cells = true
	case t.b.Len() > 0 && t.nl == 0:
		switch {
		case t.tab:
			t.b.WriteByte('\t')
		case t.space:
			t.b.WriteByte(' ')
		}
	default: // at the start of a line: a list item's mark, if due
		t.b.WriteString(t.marker)
	}
	t.b.WriteString(s)
	t.nl, t.space, t.tab, t.marker = 0, false, false, ""
}

// newline ends the line: n newlines in all since the last text when
// collapse is set (blank lines do not pile up), else n more.
func (t *textBuilder) newline(n uint8, collapse bool) {
	t.flushBreak()
	t.space, t.tab = false, false
	if t.b.Len() == 0 {
		return
	}
	if t.cells && t.nl == 0 {
		t.b.WriteString(" |")
	}
	t.cells = false
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

// subtreeSize counts n's nodes, n included, up to limit+1.
func subtreeSize(n *html.Node, limit int) int {
	size := 0
	for range n.Descendants() {
		if size++; size > limit {
			break
		}
	}
	return size + 1
}

// boundedText renders n when its nodes fit in *budget, which it charges.
func boundedText(n *html.Node, budget *int) (string, bool) {
	if *budget -= subtreeSize(n, *budget); *budget < 0 {
		return "", false
	}
	return renderText(n), true
}

// nodeText is the text content of n with whitespace runs collapsed to one
// space, trimmed.
func nodeText(n *html.Node) string {
	return strings.Join(strings.Fields(renderText(n)), " ")
}
