package fetch

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
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
		md, err := p.markdown(true)
		if err != nil {
			return nil, err
		}
		out.Markdown = md
		return out, nil
	}
	for _, f := range formats {
		switch f {
		case FormatHTML:
			out.HTML = p.cleanHTML()
		case FormatRawHTML:
			out.RawHTML = p.textBody()
		case FormatMarkdown:
			md, err := p.markdown(false)
			if err != nil {
				return nil, err
			}
			out.Markdown = md
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

// page is a fetched page being turned into formats. HTML pages are parsed
// once for the read-only walkers (text, links, metadata); converters that
// may change a tree parse their own.
type page struct {
	res      *Response
	mainOnly bool
	isHTML   bool
	textual  bool
	doc      *html.Node // nil unless isHTML
	base     *url.URL   // final URL resolved with <base href>; nil if not absolute
	main     *trafilatura.ExtractResult
	mainDone bool
}

func newPage(res *Response, mainOnly bool) *page {
	p := &page{res: res, mainOnly: mainOnly, isHTML: isHTMLType(res.ContentType), textual: isTextual(res.ContentType)}
	if u, err := url.Parse(res.FinalURL); err == nil && u.IsAbs() && u.Host != "" {
		p.base = u
	}
	if p.isHTML {
		p.doc, _ = html.Parse(bytes.NewReader(res.Body)) // never fails on a byte slice
		if href, ok := baseHref(p.doc); ok && p.base != nil {
			if ref, err := url.Parse(href); err == nil {
				p.base = p.base.ResolveReference(ref)
			}
		}
	}
	return p
}

// textBody is the body as text; empty for binary media types.
func (p *page) textBody() string {
	if !p.textual && !p.isHTML {
		return ""
	}
	return string(p.res.Body)
}

// mainContent runs the main-content extractor (go-trafilatura, with its
// readability and dom-distiller fallbacks) once; nil when it finds none.
// Links are made absolute first, by RFC 3986 against the page's base:
// the extractor's own resolution joins relative paths onto the page path.
func (p *page) mainContent() *trafilatura.ExtractResult {
	if p.mainDone {
		return p.main
	}
	p.mainDone = true
	if !p.isHTML {
		return nil
	}
	doc, err := html.Parse(bytes.NewReader(p.res.Body))
	if err != nil {
		return nil
	}
	p.absolutize(doc)
	r, err := trafilatura.ExtractDocument(doc, trafilatura.Options{
		OriginalURL:     p.base,
		EnableFallback:  true,
		IncludeLinks:    true,
		IncludeImages:   true,
		ExcludeComments: true,
		HtmlDateMode:    trafilatura.Disabled,
	})
	if err == nil && r != nil && r.ContentNode != nil && strings.TrimSpace(r.ContentText) != "" {
		p.main = r
	}
	return p.main
}

// absolutize rewrites link and image URLs in doc to absolute ones.
func (p *page) absolutize(n *html.Node) {
	if p.base == nil {
		return
	}
	if n.Type == html.ElementNode {
		for i, a := range n.Attr {
			if a.Namespace != "" || (a.Key != "href" && a.Key != "src") {
				continue
			}
			v := strings.TrimSpace(a.Val)
			if ref, err := url.Parse(v); err == nil && v != "" && !strings.HasPrefix(v, "#") {
				n.Attr[i].Val = p.base.ResolveReference(ref).String()
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		p.absolutize(c)
	}
}

// markdown converts the page, or with mainOnly its main content when one
// is found, to Markdown. With formats, a page that is not HTML is returned
// as text (empty when binary); the legacy result (legacy) converts every
// body, as the first scrape API did.
func (p *page) markdown(legacy bool) (string, error) {
	if p.mainOnly {
		if m := p.mainContent(); m != nil {
			var opts []converter.ConvertOptionFunc
			if p.base != nil {
				opts = append(opts, converter.WithDomain(p.base.String()))
			}
			md, err := htmltomarkdown.ConvertNode(m.ContentNode, opts...)
			if err == nil && strings.TrimSpace(string(md)) != "" {
				return strings.TrimSpace(string(md)), nil
			}
		}
	}
	if !legacy && !p.isHTML {
		return strings.TrimSpace(p.textBody()), nil
	}
	if legacy && p.doc != nil {
		// The legacy answer uses nothing else of the page: convert the tree
		// already parsed instead of parsing the page a second time.
		md, err := convertMarkdown(p.doc, p.base)
		p.doc = nil // consumed by the converter
		if err != nil {
			return "", errs.Wrap(errs.KindUpstream, err, "converting the page to markdown")
		}
		return md, nil
	}
	md, err := Markdown(p.res.Body, p.res.FinalURL)
	if err != nil {
		return "", errs.Wrap(errs.KindUpstream, err, "converting the page to markdown")
	}
	return md, nil
}

// text is the page's visible text, or with mainOnly its main content's.
func (p *page) text() string {
	if !p.isHTML {
		return strings.TrimSpace(p.textBody())
	}
	if p.mainOnly {
		if m := p.mainContent(); m != nil {
			return strings.TrimSpace(m.ContentText)
		}
	}
	return visibleText(p.doc)
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
	if p.doc == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.A || n.DataAtom == atom.Area) {
			if link := p.absolute(attr(n, "href")); link != "" && !seen[link] {
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
	if p.base != nil {
		ref = p.base.ResolveReference(ref)
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
		for rel := range strings.FieldsSeq(strings.ToLower(attr(n, "rel"))) {
			switch rel {
			case "stylesheet", "preload", "modulepreload", "prefetch", "preconnect", "dns-prefetch":
				return true
			}
		}
	}
	return false
}
