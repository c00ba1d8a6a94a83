package fetch

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/markdown"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// buildResult turns a fetched page into a scrape result with the formats
// asked for (none: the legacy html-as-served and markdown).
func buildResult(req *ScrapeRequest, res *Response, formats []string) (*ScrapeResult, error) {
	out := &ScrapeResult{URL: req.URL, FinalURL: res.FinalURL, StatusCode: res.StatusCode,
		Headers: make(map[string]string, len(res.Header)), ContentType: res.ContentType,
		Redirects: res.Redirects, TierUsed: res.TierUsed, CascadePath: res.CascadePath}
	if out.Redirects == nil {
		out.Redirects = []Hop{}
	}
	for k, v := range res.Header {
		out.Headers[k] = strings.Join(v, ", ")
	}
	p := newPage(res, req.MainContentOnly)
	if len(formats) == 0 {
		out.HTML = string(res.Body)
		out.Markdown = p.markdown(true)
		return out, nil
	}
	for _, f := range formats {
		switch f {
		case FormatHTML:
			out.HTML = p.cleanHTML()
		case FormatRawHTML:
			out.RawHTML = p.textBody()
		case FormatMarkdown:
			out.Markdown = p.markdown(false)
		case FormatText:
			out.Text = p.text()
		case FormatLinks:
			out.Links = p.links()
		case FormatMetadata:
			out.Metadata = p.metadata()
		case FormatScreenshot:
			out.Screenshot = base64.StdEncoding.EncodeToString(res.Screenshot)
		}
	}
	return out, nil
}

// page is a fetched page being turned into formats. An HTML page is
// parsed once, on first use, for the read-only walkers (text, links,
// metadata); Markdown streams over the bytes and needs no tree.
type page struct {
	res      *Response
	mainOnly bool
	isHTML   bool
	textual  bool
	url      *url.URL   // the final URL; nil if not absolute
	doc      *html.Node // see tree
	base     *url.URL   // see tree
	parsed   bool
	main     *content.Result
	mainDone bool
}

func newPage(res *Response, mainOnly bool) *page {
	p := &page{res: res, mainOnly: mainOnly, isHTML: isHTMLType(res.ContentType), textual: isTextual(res.ContentType)}
	if u, err := url.Parse(res.FinalURL); err == nil && u.IsAbs() && u.Host != "" {
		p.url = u
	}
	return p
}

// tree parses an HTML page on first use, and resolves the page's base:
// the final URL, resolved with <base href>. Not HTML: nil.
func (p *page) tree() *html.Node {
	if p.parsed {
		return p.doc
	}
	p.parsed, p.base = true, p.url
	if p.isHTML {
		// Parse fails on pages nested deeper than 512 elements: such a
		// page has no tree, so no text, links or metadata. A <noscript>
		// holds elements, as for htmltag.Parse.
		doc, err := html.Parse(bytes.NewReader(p.res.Body))
		if err != nil {
			return nil
		}
		htmltag.ExpandNoscript(doc)
		p.doc = doc
		if href, ok := baseHref(p.doc); ok && p.base != nil {
			if ref, err := url.Parse(href); err == nil {
				p.base = p.base.ResolveReference(ref)
			}
		}
	}
	return p.doc
}

// baseURL is what relative links resolve against (see tree).
func (p *page) baseURL() *url.URL {
	p.tree()
	return p.base
}

// textBody is the body as text; empty for binary media types.
func (p *page) textBody() string {
	if !p.textual { // HTML media types are textual too
		return ""
	}
	return string(p.res.Body)
}

// mainContent extracts the page's main content (extract/content, in its
// accurate mode) once, from the parsed tree; nil when there is none.
func (p *page) mainContent() *content.Result {
	if p.mainDone {
		return p.main
	}
	p.mainDone = true
	doc := p.tree()
	if doc == nil {
		return nil
	}
	r, err := content.FromNode(doc, p.url, nil)
	if err == nil && !r.NoContent && strings.TrimSpace(r.Text) != "" {
		p.main = r
	}
	return p.main
}

// markdown converts the page, or with mainOnly its main content when one
// is found, to Markdown. With formats, a page that is not HTML is returned
// as text (empty when binary); the legacy result (legacy) converts every
// body, as the first scrape API did.
func (p *page) markdown(legacy bool) string {
	if p.mainOnly {
		if m := p.mainContent(); m != nil && m.Markdown != "" {
			return m.Markdown
		}
	}
	if !legacy && !p.isHTML {
		return strings.TrimSpace(p.textBody())
	}
	return markdown.Convert(p.res.Body, p.url)
}

// text is the page's visible text, or with mainOnly its main content's.
func (p *page) text() string {
	if !p.isHTML {
		return strings.TrimSpace(p.textBody())
	}
	if p.mainOnly {
		if m := p.mainContent(); m != nil {
			return strings.TrimSpace(m.Text)
		}
	}
	doc := p.tree()
	if doc == nil {
		return ""
	}
	return visibleText(doc)
}

// blockElements start a new line in the text format.
var blockElements = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
	atom.Nav: true, atom.Aside: true, atom.Main: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Ul: true, atom.Ol: true, atom.Li: true, atom.Table: true, atom.Tr: true,
	atom.Blockquote: true, atom.Pre: true, atom.Form: true, atom.Fieldset: true, atom.Figure: true,
	atom.Figcaption: true, atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Hr: true, atom.Br: true,
	atom.Address: true, atom.Details: true, atom.Summary: true, atom.Body: true, atom.Title: true,
}

// visibleText is the text a reader sees: no scripts, styles or head,
// one line per block, whitespace collapsed, blank lines dropped.
func visibleText(doc *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if skipForText(n) {
				return
			}
			switch n.DataAtom {
			case atom.Td, atom.Th:
				b.WriteByte(' ')
			}
			if blockElements[n.DataAtom] {
				b.WriteByte('\n')
				defer b.WriteByte('\n')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	var lines []string
	for line := range strings.SplitSeq(b.String(), "\n") {
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// links are the page's <a href> and <area href> targets: http(s) only,
// absolute, without fragments, each once, in page order.
func (p *page) links() []string {
	if p.tree() == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.A || n.DataAtom == atom.Area) {
			if link := p.absolute(htmltag.Attr(n, "href")); link != "" && !seen[link] {
				seen[link] = true
				out = append(out, link)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(p.doc)
	return out
}

// absolute resolves href against the page's base and returns it without
// its fragment, or "" when it is empty, unparsable or not http(s).
func (p *page) absolute(href string) string {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return ""
	}
	ref, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if base := p.baseURL(); base != nil {
		ref = base.ResolveReference(ref)
	}
	if (ref.Scheme != "http" && ref.Scheme != "https") || ref.Host == "" {
		return ""
	}
	ref.Fragment, ref.RawFragment = "", ""
	return ref.String()
}

// cleanHTML is the page without scripts, styles, noscript, templates,
// stylesheet and preload links, comments and on* event attributes.
func (p *page) cleanHTML() string {
	if !p.isHTML {
		return p.textBody()
	}
	doc, err := html.Parse(bytes.NewReader(p.res.Body))
	if err != nil {
		return ""
	}
	clean(doc)
	var b strings.Builder
	if err := html.Render(&b, doc); err != nil {
		return ""
	}
	return b.String()
}

func clean(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if dropForClean(c) {
			n.RemoveChild(c)
		} else {
			clean(c)
		}
		c = next
	}
	if n.Type == html.ElementNode {
		kept := n.Attr[:0]
		for _, a := range n.Attr {
			if !strings.HasPrefix(strings.ToLower(a.Key), "on") {
				kept = append(kept, a)
			}
		}
		n.Attr = kept
	}
}

func dropForClean(n *html.Node) bool {
	switch n.Type {
	case html.CommentNode:
		return true
	case html.ElementNode:
	default:
		return false
	}
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template:
		return true
	case atom.Link:
		for rel := range strings.FieldsSeq(strings.ToLower(htmltag.Attr(n, "rel"))) {
			switch rel {
			case "stylesheet", "preload", "modulepreload", "prefetch", "preconnect", "dns-prefetch":
				return true
			}
		}
	}
	return false
}
