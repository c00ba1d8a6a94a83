package structured

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// Defaults used for zero Options fields.
const (
	DefaultMaxHTMLBytes   = 10 << 20
	DefaultMaxItems       = 1000
	DefaultMaxValues      = 50_000
	DefaultMaxJSONLDBytes = 2 << 20
	DefaultMaxDepth       = 16
)

// Input is the page to read. The same struct is the JSON body of
// POST /v1/extract/structured.
type Input struct {
	HTML    string `json:"html" minLength:"1" maxLength:"10485760" example:"<html><head><meta property=\"og:title\" content=\"Herons\"></head></html>" doc:"The page's HTML, UTF-8."`
	BaseURL string `json:"base_url,omitempty" maxLength:"8192" example:"https://example.com/birds/herons" doc:"The page's URL, to make relative URLs absolute (with the page's <base href>). Omitted: relative URLs stay relative unless <base href> is absolute."`
}

// Options cap the work done on one page. The zero value (or nil) means
// defaults; a zero or negative field means its default.
type Options struct {
	// MaxHTMLBytes caps Input.HTML; a longer page is an errs.KindTooLarge
	// error. FromNode does not apply it.
	MaxHTMLBytes int
	// MaxItems caps every list in the result: JSON-LD items, microdata
	// and RDFa items, OpenGraph media, alternates, feeds, icons, and the
	// entries of the meta maps.
	MaxItems int
	// MaxValues caps the property values (nested items included) of the
	// microdata and of the RDFa sections, each.
	MaxValues int
	// MaxJSONLDBytes caps one JSON-LD block; a longer block is reported
	// in json_ld.errors and skipped.
	MaxJSONLDBytes int
	// MaxDepth caps how deeply microdata and RDFa items nest (and how deep
	// JSON-LD is searched for @type); deeper items are left out.
	MaxDepth int
}

// resolve returns a copy of o with defaults filled in.
func (o *Options) resolve() Options {
	var r Options
	if o != nil {
		r = *o
	}
	for _, f := range []struct {
		v   *int
		def int
	}{
		{&r.MaxHTMLBytes, DefaultMaxHTMLBytes},
		{&r.MaxItems, DefaultMaxItems},
		{&r.MaxValues, DefaultMaxValues},
		{&r.MaxJSONLDBytes, DefaultMaxJSONLDBytes},
		{&r.MaxDepth, DefaultMaxDepth},
	} {
		if *f.v <= 0 {
			*f.v = f.def
		}
	}
	return r
}

// Result is a page's structured data, one section per source; a section
// the page lacks is omitted (nil).
type Result struct {
	JSONLD    *JSONLD           `json:"json_ld,omitempty" doc:"The JSON-LD script blocks (type application/ld+json), flattened into items."`
	Microdata []*Item           `json:"microdata,omitempty" doc:"Top-level microdata items (itemscope), nested items as property values."`
	RDFa      []*Item           `json:"rdfa,omitempty" doc:"Top-level RDFa Lite items (typeof), nested items as property values."`
	OpenGraph map[string]any    `json:"open_graph,omitempty" doc:"OpenGraph properties (og:, article:, product:, music:, video:, book:, profile:) by name: a string, a list of strings for repeatable properties, or a list of objects for structured ones such as og:image with og:image:width."`
	Twitter   map[string]string `json:"twitter,omitempty" doc:"Twitter card properties (twitter:*) by name; the first of a repeated name."`
	Meta      *Meta             `json:"meta,omitempty" doc:"The title and standard <meta> tags."`
	Links     *Links            `json:"links,omitempty" doc:"The <link> elements that describe the page, URLs absolute."`
	Truncated []string          `json:"truncated,omitempty" doc:"Sections cut short by a cap (items, values or nesting depth)."`
}

// Extract reads the structured data of in.HTML: JSON-LD, microdata, RDFa
// Lite, OpenGraph, Twitter cards, meta tags and links. URLs are made
// absolute against in.BaseURL and the page's <base href>. It does not
// fetch anything.
//
// Errors carry an errs.Kind: empty html or a base_url that is not an
// absolute http(s) URL is KindInvalid, html over Options.MaxHTMLBytes
// KindTooLarge. Broken JSON-LD is not an error: it is reported in
// Result.JSONLD.Errors. Cancelling ctx returns ctx's error.
func Extract(ctx context.Context, in Input, opts *Options) (*Result, error) {
	o := opts.resolve()
	if strings.TrimSpace(in.HTML) == "" {
		return nil, errs.Invalid("html", "must not be empty")
	}
	if len(in.HTML) > o.MaxHTMLBytes {
		return nil, &errs.Error{Kind: errs.KindTooLarge, Field: "html",
			Message: fmt.Sprintf("is %d bytes, over the limit of %d", len(in.HTML), o.MaxHTMLBytes)}
	}
	var base *url.URL
	if in.BaseURL != "" {
		u, err := url.Parse(strings.TrimSpace(in.BaseURL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, errs.Invalid("base_url", "must be an absolute http or https URL")
		}
		base = u
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	doc, err := htmltag.Parse(in.HTML, "html")
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return FromNode(doc, base, &o), nil
}

// FromNode is Extract over a page already parsed, for callers that parse
// once and read the tree several ways. baseURL may be nil; opts as for
// Extract (MaxHTMLBytes does not apply). It does not modify doc.
func FromNode(doc *html.Node, baseURL *url.URL, opts *Options) *Result {
	p := scan(doc)
	b := &builder{opts: opts.resolve(), base: documentBase(baseURL, p.baseHref)}
	tags := metaTags(p.metas)
	r := &Result{
		JSONLD:    b.jsonld(p.scripts),
		Microdata: b.microdata(doc, p),
		OpenGraph: b.openGraph(tags),
		Twitter:   b.twitter(tags),
		Meta:      b.meta(p, tags),
		Links:     b.links(p.links),
	}
	if p.typeof {
		r.RDFa = b.rdfa(doc)
	}
	r.Truncated = b.truncated
	return r
}

// page is what one walk over the tree collects for the sources.
type page struct {
	title      string
	lang       string
	baseHref   string
	scripts    []string     // the text of each JSON-LD block
	metas      []*html.Node // <meta> elements
	links      []*html.Node // <link> elements
	itemscopes []*html.Node // top-level microdata items
	typeof     bool         // some element has typeof (RDFa)
	elements   int          // how many elements the page has
}

func scan(doc *html.Node) *page {
	p := &page{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			p.elements++
			if htmltag.HasAttr(n, "itemscope") && !htmltag.HasAttr(n, "itemprop") {
				p.itemscopes = append(p.itemscopes, n)
			}
			if htmltag.HasAttr(n, "typeof") {
				p.typeof = true
			}
			switch n.DataAtom {
			case atom.Html:
				if p.lang == "" {
					p.lang = strings.TrimSpace(htmltag.Attr(n, "lang"))
				}
			case atom.Title:
				if p.title == "" && n.Namespace == "" { // not an SVG's <title>
					p.title = collapse(text(n))
				}
			case atom.Base:
				if p.baseHref == "" {
					p.baseHref = strings.TrimSpace(htmltag.Attr(n, "href"))
				}
			case atom.Meta:
				p.metas = append(p.metas, n)
			case atom.Link:
				p.links = append(p.links, n)
			case atom.Script:
				if isJSONLD(htmltag.Attr(n, "type")) {
					p.scripts = append(p.scripts, text(n))
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return p
}

// documentBase is the page's base URL: <base href> resolved against the
// caller's URL, else the caller's URL; nil when neither is absolute.
func documentBase(base *url.URL, href string) *url.URL {
	if href == "" {
		return base
	}
	ref, err := url.Parse(href)
	if err != nil {
		return base
	}
	if base != nil {
		return base.ResolveReference(ref)
	}
	if ref.IsAbs() {
		return ref
	}
	return nil
}

// builder turns what scan collected into the result's sections.
type builder struct {
	opts      Options
	base      *url.URL
	truncated []string
}

// room reports whether a list of n entries may grow, marking section as
// truncated when it may not.
func (b *builder) room(n int, section string) bool {
	if n < b.opts.MaxItems {
		return true
	}
	b.cut(section)
	return false
}

// cut marks section as truncated.
func (b *builder) cut(section string) {
	if !slices.Contains(b.truncated, section) {
		b.truncated = append(b.truncated, section)
	}
}

// abs makes raw absolute against the page's base URL; without a base, or
// when raw is not a URL, it returns raw trimmed.
func (b *builder) abs(raw string) string { return htmltag.ResolveURL(b.base, raw) }

// text is the text content of n's descendants, without scripts and
// styles, with a space around block elements so that paragraphs do not run
// together.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
			return
		case n.Type != html.ElementNode:
		case n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template:
			return
		case blocks[n.DataAtom]:
			b.WriteByte(' ')
			defer b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c)
	}
	return b.String()
}

// blocks are the elements whose text is set apart from their neighbours'.
var blocks = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Br: true, atom.Dd: true, atom.Div: true, atom.Dl: true, atom.Dt: true,
	atom.Figcaption: true, atom.Figure: true, atom.Footer: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Header: true, atom.Hr: true, atom.Li: true, atom.Main: true, atom.Nav: true,
	atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true, atom.Table: true,
	atom.Td: true, atom.Th: true, atom.Tr: true, atom.Ul: true,
}

// collapse trims s and turns each run of white space into one space.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// tokens splits an attribute value on white space, dropping repeats.
func tokens(s string) []string {
	var out []string
	for t := range strings.FieldsSeq(s) {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// nilIfZero returns nil for a pointer to a zero value.
func nilIfZero[T any](v *T) *T {
	if reflect.ValueOf(v).Elem().IsZero() {
		return nil
	}
	return v
}
