package markdown

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"github.com/webinfra/webinfra/extract/streamed"
	"github.com/webinfra/webinfra/internal/htmltag"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Convert converts an HTML page (UTF-8) to Markdown. Links and image
// sources are made absolute against base, itself resolved against the
// page's <base href>; a nil base leaves them as written. A streamed page
// (React's streaming renderer: see extract/streamed) is converted with
// its late parts where its scripts put them, not as a fallback
// ("Loading...") up top and the text at the end.
func Convert(page []byte, base *url.URL) string {
	if streamed.Streams(page) {
		if doc, err := htmltag.Parse(string(page), "html"); err == nil && streamed.Complete(doc) > 0 {
			return FromNode(doc, base)
		}
	}
	c := newConverter(base, len(page)/4)
	c.tokens(html.NewTokenizer(bytes.NewReader(page)))
	return c.finish()
}

// FromNode converts a parsed element or document, with links made
// absolute against base (nil: left as written). It walks the tree, which
// is not changed, and is several times quicker than Convert on the same
// page: callers that already parsed the page should use it.
func FromNode(n *html.Node, base *url.URL) string {
	c := newConverter(base, 4096)
	c.walk(n)
	return c.finish()
}

// frame is an open element the converter tracks until its end tag.
type frame struct {
	tag  atom.Atom
	mark int    // for emphasis and links: the pending lead's length before the opener
	href string // for links: the destination
	flat bool   // for tables: flattened into an enclosing table's cell
}

type converter struct {
	base     *url.URL
	sinks    []*sink // the root flow, then captures (cells, code) on top
	frames   []frame
	lists    []list
	tables   []*table
	boxes    []box            // the line prefixes of open quotes and list items
	attrs    []html.Attribute // the current start tag's (those the converter reads)
	name     [16]byte         // scratch for tag names
	skip     atom.Atom
	skipN    int // depth of nested skip elements of the same name
	links    int // open links: blocks inside them are spaces
	bold     int
	italic   int
	strike   int
	baseSeen bool
	anchor   *permalink // the open link while it may be a permalink
}

type list struct {
	ordered bool
	next    int
}

func newConverter(base *url.URL, sizeHint int) *converter {
	root := newSink(flowMode)
	root.buf = make([]byte, 0, sizeHint)
	return &converter{base: base, sinks: []*sink{root}}
}

// top is the sink text goes to.
func (c *converter) top() *sink { return c.sinks[len(c.sinks)-1] }

// tokens feeds the converter from a tokenizer.
func (c *converter) tokens(z *html.Tokenizer) {
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return
		case html.TextToken:
			feedText(c, z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			tag := atom.Lookup(tagName(z.Raw(), &c.name))
			c.attrs = c.attrs[:0]
			if readsAttrs(tag) {
				for more := true; more; {
					var k, v []byte
					k, v, more = z.TagAttr()
					if wanted(k) {
						c.attrs = append(c.attrs, html.Attribute{Key: string(k), Val: string(v)})
					}
				}
			}
			c.start(tag, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			c.end(atom.Lookup(tagName(z.Raw(), &c.name)))
		}
	}
}

// tagName reads a tag's name, lower-cased, from its raw bytes ("<a
// href=…>", "</p>") into buf. The tokenizer's TagName would copy every
// name (it replaces NUL bytes); this reads names of up to len(buf) bytes
// without allocating, and longer ones, never an element converted, as "".
func tagName(raw []byte, buf *[16]byte) []byte {
	i := 1 // past '<'
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	n := 0
	for ; i < len(raw); i++ {
		b := raw[i]
		if b == ' ' || b == '/' || b == '>' || b == '\t' || b == '\n' || b == '\r' || b == '\f' {
			break
		}
		if n == len(buf) {
			return nil
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf[n] = b
		n++
	}
	return buf[:n]
}

// readsAttrs reports whether the converter reads a start tag's attributes.
func readsAttrs(tag atom.Atom) bool {
	switch tag {
	case atom.A, atom.Img, atom.Base, atom.Ol, atom.Pre, atom.Code:
		return true
	}
	return false
}

// feedText writes a text token or node where text goes.
func feedText[T string | []byte](c *converter, t T) {
	if c.skipN > 0 {
		return
	}
	if c.anchor != nil {
		noteText(c.anchor, t)
	}
	writeText(c.top(), c, t)
}

// walk feeds the converter from a tree: the same events as tokens.
func (c *converter) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		feedText(c, n.Data)
		return
	case html.ElementNode:
		c.attrs = n.Attr
		c.start(n.DataAtom, false)
		if void(n.DataAtom) {
			return
		}
	case html.DocumentNode:
	default:
		return
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.walk(ch)
	}
	if n.Type == html.ElementNode {
		c.end(n.DataAtom)
	}
}

// wanted reports whether the converter reads an attribute.
func wanted(key []byte) bool {
	switch string(key) {
	case "href", "src", "alt", "srcset", "data-src", "data-srcset", "data-lazy-src", "data-original", "start", "class":
		return true
	}
	return false
}

// void elements have no end tag (nor children in a tree).
func void(tag atom.Atom) bool {
	switch tag {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// skipped elements carry no readable text.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Title: true, atom.Svg: true, atom.Math: true, atom.Iframe: true,
	atom.Object: true, atom.Canvas: true, atom.Select: true, atom.Textarea: true,
	atom.Noembed: true, atom.Noframes: true, atom.Video: true, atom.Audio: true,
}

// blocks start and end a paragraph.
var blocks = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Body: true,
	atom.Caption: true, atom.Center: true, atom.Dd: true, atom.Details: true,
	atom.Dialog: true, atom.Div: true, atom.Dl: true, atom.Dt: true,
	atom.Fieldset: true, atom.Figcaption: true, atom.Figure: true, atom.Footer: true,
	atom.Form: true, atom.Header: true, atom.Hgroup: true, atom.Legend: true,
	atom.Main: true, atom.Nav: true, atom.P: true, atom.Section: true,
	atom.Summary: true, atom.Html: true,
}

// start handles a start tag, its attributes in c.attrs.
func (c *converter) start(tag atom.Atom, selfClosing bool) {
	if c.skipN > 0 {
		if tag == c.skip && !selfClosing {
			c.skipN++
		}
		return
	}
	if skipped[tag] {
		if !selfClosing {
			c.skip, c.skipN = tag, 1
		}
		return
	}
	switch tag {
	case atom.Base:
		if href := c.attr("href"); href != "" && !c.baseSeen && c.base != nil {
			c.baseSeen = true
			if ref, err := url.Parse(href); err == nil {
				c.base = c.base.ResolveReference(ref)
			}
		}
	case atom.Br:
		c.top().lineBreak(c.links > 0)
	case atom.Hr:
		c.block(2)
		c.top().writeInline(c, "* * *")
		c.block(2)
	case atom.Img:
		c.image()
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		c.closeTo(htmltag.IsHeading, is(atom.Table), true)
		c.block(2)
		c.frames = append(c.frames, frame{tag: tag, mark: c.top().leadLen()})
		c.top().lead(strings.Repeat("#", htmltag.HeadingLevel(tag)) + " ")
		c.top().heading = true
	case atom.A:
		c.openLink(selfClosing)
	case atom.B, atom.Strong:
		c.openEmphasis(tag, &c.bold, "**", selfClosing)
	case atom.I, atom.Em:
		c.openEmphasis(tag, &c.italic, "*", selfClosing)
	case atom.S, atom.Del, atom.Strike:
		c.openEmphasis(tag, &c.strike, "~~", selfClosing)
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		if selfClosing {
			break
		}
		if c.top().raw() {
			c.codeLanguage()
		} else {
			c.frames = append(c.frames, frame{tag: tag})
			c.sinks = append(c.sinks, newSink(codeMode))
		}
	case atom.Pre:
		if !selfClosing {
			c.openPre()
		}
	case atom.Blockquote:
		if !selfClosing {
			c.block(2)
			c.frames = append(c.frames, frame{tag: tag})
			c.boxes = append(c.boxes, box{quote: true})
		}
	case atom.Ul, atom.Ol:
		if !selfClosing {
			c.openList(tag)
		}
	case atom.Li:
		if !selfClosing {
			c.openItem()
		}
	case atom.Table:
		if !selfClosing {
			c.openTable()
		}
	case atom.Tr:
		c.openRow()
	case atom.Td, atom.Th:
		if !selfClosing {
			c.openCell(tag)
		}
	default:
		if blocks[tag] {
			c.block(2)
		}
	}
}

func (c *converter) end(tag atom.Atom) {
	if c.skipN > 0 {
		if tag == c.skip {
			c.skipN--
		}
		return
	}
	switch tag {
	case atom.Br: // </br> is a <br> in browsers
		c.top().lineBreak(c.links > 0)
		return
	case atom.P:
		c.block(2)
	}
	if tracked(tag) {
		c.closeTo(is(tag), is(atom.Table), true)
		return
	}
	if blocks[tag] {
		c.block(2)
	}
}

// tracked elements are kept on the frame stack until their end tag.
func tracked(tag atom.Atom) bool {
	switch tag {
	case atom.A, atom.B, atom.Strong, atom.I, atom.Em, atom.S, atom.Del, atom.Strike,
		atom.Code, atom.Kbd, atom.Samp, atom.Tt, atom.Pre, atom.Blockquote,
		atom.Ul, atom.Ol, atom.Li, atom.Table, atom.Tr, atom.Td, atom.Th:
		return true
	}
	return htmltag.IsHeading(tag)
}

// closeTo closes frames from the top down to the nearest one matching,
// which is closed too when inclusive. Nothing is closed when a frame the
// boundary accepts comes first: a </li> never closes an outer list's item,
// an end tag inside a table cell never closes the table.
func (c *converter) closeTo(match, boundary func(atom.Atom) bool, inclusive bool) bool {
	i := len(c.frames) - 1
	for ; i >= 0; i-- {
		if match(c.frames[i].tag) {
			break
		}
		if boundary(c.frames[i].tag) {
			return false
		}
	}
	if i < 0 {
		return false
	}
	if !inclusive {
		i++
	}
	for len(c.frames) > i {
		c.pop()
	}
	return true
}

func is(tags ...atom.Atom) func(atom.Atom) bool {
	return func(t atom.Atom) bool {
		for _, x := range tags {
			if t == x {
				return true
			}
		}
		return false
	}
}

// pop closes the innermost frame.
func (c *converter) pop() {
	f := c.frames[len(c.frames)-1]
	c.frames = c.frames[:len(c.frames)-1]
	switch f.tag {
	case atom.A:
		c.links--
		if c.anchor != nil && c.closePermalink() {
			return
		}
		s := c.top()
		if s.dropLead(f.mark) || f.href == "" {
			return
		}
		s.writeRaw("](" + destination(f.href) + ")")
	case atom.B, atom.Strong:
		c.closeEmphasis(f, &c.bold, "**")
	case atom.I, atom.Em:
		c.closeEmphasis(f, &c.italic, "*")
	case atom.S, atom.Del, atom.Strike:
		c.closeEmphasis(f, &c.strike, "~~")
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		c.closeCode()
	case atom.Pre:
		c.closePre()
	case atom.Blockquote:
		c.block(2)
		c.boxes = c.boxes[:len(c.boxes)-1]
	case atom.Ul, atom.Ol:
		c.lists = c.lists[:len(c.lists)-1]
		if k := len(c.boxes); k > 0 && !c.boxes[k-1].quote {
			c.block(1) // a nested list ends its item's line
		} else {
			c.block(2)
		}
	case atom.Li:
		c.boxes = c.boxes[:len(c.boxes)-1]
		c.block(1)
	case atom.Table:
		c.closeTable(f)
	case atom.Tr:
		c.closeRow(f)
	case atom.Td, atom.Th:
		c.closeCell(f)
	default: // headings
		s := c.top()
		s.dropLead(f.mark)
		s.heading = false
		c.block(2)
	}
}

// block asks for n line breaks before the next text; inside a link or a
// table cell, a space.
func (c *converter) block(n int) {
	s := c.top()
	if c.links > 0 {
		s.space = true
		return
	}
	s.breakLines(c, n)
}

func (c *converter) openEmphasis(tag atom.Atom, depth *int, marker string, selfClosing bool) {
	if selfClosing {
		return
	}
	s := c.top()
	c.frames = append(c.frames, frame{tag: tag, mark: s.leadLen()})
	if *depth == 0 && !s.raw() {
		s.lead(marker)
	}
	*depth++
}

func (c *converter) closeEmphasis(f frame, depth *int, marker string) {
	*depth--
	s := c.top()
	if *depth > 0 || s.raw() || s.dropLead(f.mark) {
		return
	}
	s.writeRaw(marker)
}

func (c *converter) openLink(selfClosing bool) {
	if selfClosing {
		return
	}
	// A link never nests in another: an <a> start tag closes an open one.
	c.closeTo(is(atom.A), is(atom.Table), true)
	href := c.attr("href")
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(href)), "javascript:") {
		href = ""
	}
	s := c.top()
	resolved := c.resolve(href)
	if href != "" && c.samePage(href, resolved) {
		c.openPermalink()
	}
	c.frames = append(c.frames, frame{tag: atom.A, mark: s.leadLen(), href: resolved})
	c.links++
	if !s.raw() && href != "" {
		s.lead("[")
	}
}

// image writes an <img>. A lazily loaded image's src is often a data:
// placeholder, the real one in data-src (or a like attribute) or srcset;
// an image with no fetchable source is dropped.
func (c *converter) image() {
	var src, lazy, srcset, alt string
	for _, a := range c.attrs {
		switch a.Key {
		case "src":
			src = a.Val
		case "data-src", "data-lazy-src", "data-original":
			lazy = a.Val
		case "srcset", "data-srcset":
			srcset = a.Val
		case "alt":
			alt = a.Val
		}
	}
	src = pickSource(src, lazy, srcset)
	if src == "" {
		return
	}
	alt = strings.Join(strings.Fields(alt), " ")
	if c.anchor != nil {
		c.anchor.image = true
	}
	c.top().writeInline(c, "!["+escapeLabel(alt)+"]("+destination(c.resolve(src))+")")
}

// pickSource returns the first fetchable image source: src, the lazy
// attribute, then srcset's first candidate.
func pickSource(src, lazy, srcset string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(srcset), ",")
	first, _, _ = strings.Cut(strings.TrimSpace(first), " ")
	for _, s := range []string{src, lazy, first} {
		if s = strings.TrimSpace(s); s != "" && !strings.HasPrefix(strings.ToLower(s), "data:") {
			return s
		}
	}
	return ""
}

func (c *converter) openList(tag atom.Atom) {
	if len(c.boxes) > 0 && !c.boxes[len(c.boxes)-1].quote {
		c.block(1) // a list nested in an item starts on the next line
	} else {
		c.block(2)
	}
	l := list{ordered: tag == atom.Ol, next: 1}
	if l.ordered {
		if n, err := strconv.Atoi(strings.TrimSpace(c.attr("start"))); err == nil && n >= 0 && n < 1e9 {
			l.next = n
		}
	}
	c.lists = append(c.lists, l)
	c.frames = append(c.frames, frame{tag: tag})
}

func (c *converter) openItem() {
	// An <li> closes the open item of its own list.
	c.closeTo(is(atom.Li), is(atom.Ul, atom.Ol, atom.Table), true)
	marker := "- "
	if n := len(c.lists); n > 0 && c.lists[n-1].ordered {
		marker = strconv.Itoa(c.lists[n-1].next) + ". "
		c.lists[n-1].next++
	}
	c.block(1)
	c.frames = append(c.frames, frame{tag: atom.Li})
	c.boxes = append(c.boxes, box{marker: marker})
}

// resolve makes a URL absolute against the base, when there is one.
func (c *converter) resolve(ref string) string { return htmltag.ResolveURL(c.base, ref) }

func (c *converter) finish() string {
	for len(c.frames) > 0 {
		c.pop()
	}
	return strings.TrimSpace(string(c.sinks[0].buf))
}

// attr returns the value of the current start tag's attribute key.
func (c *converter) attr(key string) string {
	v, _ := htmltag.LookupAttr(c.attrs, key)
	return v
}

// destination writes a link or image URL, in angle brackets when it has
// spaces or parentheses.
func destination(u string) string {
	if strings.ContainsAny(u, " ()<>") {
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(u) + ">"
	}
	return u
}

// escapeLabel escapes an image's alt text for use between brackets.
func escapeLabel(s string) string {
	if !strings.ContainsAny(s, `[]\`) {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}
