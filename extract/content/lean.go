package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// leanCopy is a detached copy of the page for go-trafilatura: without the
// comments and the elements its cleaning step deletes, subtree and tail
// text, before it looks for the article (navigation, footers, asides,
// scripts, style sheets, SVG, buttons, form fields and the like: its
// tagsToClean). Those hold about 40% of a page's nodes (WCXB), and
// go-trafilatura copies the page it is given four times and searches all
// of it many times over, so on the copy it does the same work in less
// time. The copy shares its attributes with doc: go-trafilatura edits
// only its own copies.
//
// Its own cut of the article is the same on the copy: the copy lacks
// only what it would delete first. What it reads before that step is
// kept: <head> (but for the white space and comments between its
// elements, its style sheets and its scripts other than JSON: see
// leanHead) and JSON-LD scripts (its metadata, and the articleBody
// its baseline takes), and <form> elements, which its last resort
// reads (a whole ASP.NET page sits inside one). An element is kept
// too when go-trafilatura would unwrap its parent or the element
// after its tail before deleting it (an <img>, a <small>: that
// changes what the tail is). And the page itself is returned when no
// <p> would be left after the cleaning: trafilatura, favouring
// recall, then goes back to the page as it was given.
//
// text is the size of the text go-trafilatura's cut can draw on: the
// bytes, spaces not counted, of the text outside the elements it
// cleans away and outside <head>.
//
// What the copy does change is the last resorts, which read the page
// before cleaning: the baseline (the page's paragraphs or its whole
// text) and the fallback extractors it runs itself. extractTrafilatura
// runs it again on the page when its answer came from one of them.
func leanCopy(doc *html.Node) (lean *html.Node, text int) {
	l := leaner{doc: doc}
	lean = l.copy(doc, false)
	if l.paragraphs == 0 {
		return doc, l.text
	}
	return lean, l.text
}

// leaner makes a lean copy of doc.
type leaner struct {
	doc          *html.Node
	tableFigures map[*html.Node]bool // see figuresWithTables; found at the first <figure>
	paragraphs   int                 // <p> elements copied that the cleaning keeps
	text         int                 // bytes of text copied that the cleaning keeps, spaces not counted
}

// copy copies n without the elements go-trafilatura cleans away that
// leanCopy leaves out; cleaned says whether n is inside an element it
// deletes.
func (l *leaner) copy(n *html.Node, cleaned bool) *html.Node {
	switch {
	case n.DataAtom == atom.Head:
		return leanHead(n)
	case n.DataAtom == atom.P && !cleaned:
		l.paragraphs++
	case n.Type == html.TextNode && !cleaned:
		l.text += len(n.Data) - spaces(n.Data)
	}
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace, Attr: n.Attr}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch {
		case ch.Type == html.CommentNode:
		case l.leftOut(ch):
			// go-trafilatura deletes the element's tail too: the text up
			// to its next sibling element.
			for ch.NextSibling != nil && ch.NextSibling.Type != html.ElementNode {
				ch = ch.NextSibling
			}
		default:
			c.AppendChild(l.copy(ch, cleaned || l.cleaned(ch)))
		}
	}
	return c
}

// leanHead copies the page's <head> without what go-trafilatura never
// reads of it: the white space and comments between its elements,
// style sheets and scripts that hold no JSON (it reads JSON-LD and
// settings+json blocks for its metadata and baseline). 7% of a WCXB
// page's lean copy is its head, a third of that white space.
// go-htmldate, which reads the lean copy too, then no longer takes a
// script's date (a build stamp, a config) for the page's: on WCXB one
// more right date and two fewer where the truth has none.
func leanHead(head *html.Node) *html.Node {
	c := &html.Node{Type: head.Type, DataAtom: head.DataAtom, Data: head.Data, Namespace: head.Namespace, Attr: head.Attr}
	for ch := head.FirstChild; ch != nil; ch = ch.NextSibling {
		switch {
		case ch.Type == html.CommentNode,
			ch.Type == html.TextNode && spaces(ch.Data) == len(ch.Data),
			ch.Type == html.ElementNode && ch.DataAtom == atom.Style,
			ch.Type == html.ElementNode && ch.DataAtom == atom.Script && !strings.Contains(strings.ToLower(htmltag.Attr(ch, "type")), "json"):
		default:
			c.AppendChild(cloneTree(ch))
		}
	}
	return c
}

// leftOut reports whether n is left out of the lean copy: an element
// go-trafilatura cleans away and nothing of it reads before (not a
// <form>, not a JSON-LD script), unless its parent or the element after
// its tail is one it unwraps first.
func (l *leaner) leftOut(n *html.Node) bool {
	if !l.cleaned(n) || n.DataAtom == atom.Form || htmltag.IsJSONLD(n) || unwrappedByTrafilatura(n.Parent) {
		return false
	}
	next := n.NextSibling
	for next != nil && next.Type != html.ElementNode {
		next = next.NextSibling
	}
	return !unwrappedByTrafilatura(next)
}

// cleaned reports whether go-trafilatura's cleaning step deletes the
// element n with its subtree (its tagsToClean, images and tables kept: a
// <figure> holding a table becomes a <div>).
func (l *leaner) cleaned(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.Namespace != "" { // dom.Clone drops the namespace: an SVG <a> becomes an HTML one
		return n.Data == "svg" || n.Data == "math" || n.Data == "use"
	}
	switch n.DataAtom {
	case atom.Figure:
		if l.tableFigures == nil {
			l.tableFigures = figuresWithTables(l.doc)
		}
		return !l.tableFigures[n]
	case atom.Aside, atom.Embed, atom.Footer, atom.Form, atom.Iframe, atom.Menu, atom.Object,
		atom.Script, atom.Applet, atom.Audio, atom.Canvas, atom.Map, atom.Picture, atom.Svg,
		atom.Video, atom.Area, atom.Blink, atom.Button, atom.Datalist, atom.Dialog, atom.Frame,
		atom.Frameset, atom.Fieldset, atom.Link, atom.Input, atom.Label, atom.Legend,
		atom.Marquee, atom.Math, atom.Menuitem, atom.Nav, atom.Noscript, atom.Optgroup,
		atom.Option, atom.Output, atom.Param, atom.Progress, atom.Rp, atom.Rt, atom.Rtc,
		atom.Select, atom.Source, atom.Style, atom.Track, atom.Textarea, atom.Time:
		return true
	}
	return n.Data == "use"
}

// figuresWithTables is the set of <figure> elements that hold a <table>,
// found in one walk: asking each figure in turn would cost a page of
// figures nested 500 deep its size 500 times.
func figuresWithTables(doc *html.Node) map[*html.Node]bool {
	set := map[*html.Node]bool{}
	var open []*html.Node // the figures around the node walked, outermost first
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		figure := n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == atom.Figure
		if figure {
			open = append(open, n)
		}
		if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom == atom.Table {
			// Marked from the innermost out; a figure marked already has
			// its outer figures marked too.
			for i := len(open) - 1; i >= 0 && !set[open[i]]; i-- {
				set[open[i]] = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if figure {
			open = open[:len(open)-1]
		}
	}
	walk(doc)
	return set
}

// unwrappedByTrafilatura reports whether go-trafilatura replaces the
// element n by its children before it cleans the page (its tagsToStrip).
func unwrappedByTrafilatura(n *html.Node) bool {
	if n == nil || n.Type != html.ElementNode || n.Namespace != "" {
		return false
	}
	switch n.DataAtom {
	case atom.Abbr, atom.Acronym, atom.Address, atom.Bdi, atom.Bdo, atom.Big, atom.Cite,
		atom.Data, atom.Dfn, atom.Font, atom.Hgroup, atom.Img, atom.Ins, atom.Mark,
		atom.Meta, atom.Ruby, atom.Small, atom.Template, atom.Tbody, atom.Tfoot, atom.Thead:
		return true
	}
	return false
}

// spaces counts the ASCII white-space bytes of s.
func spaces(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f':
			n++
		}
	}
	return n
}
