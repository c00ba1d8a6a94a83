package htmlaudit

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Limits shared by the audits. Counts keep counting past the list caps;
// the report's truncated flag says when a list or the walk was cut.
const (
	// MaxElements is the most elements one audit examines in a page.
	MaxElements = 200_000
	// MaxFindings is the most findings one audit lists.
	MaxFindings = 500
)

// page is a parsed page with its URL and the elements of its head.
type page struct {
	url  *url.URL // the page's URL as given; nil when unknown
	base *url.URL // the URL relative references resolve against: url with <base href> applied; nil when unknown
	head headTags
}

// headTags are the elements that describe the page. They are collected from
// the whole document, not only <head>: a stray element in the head (an
// <img> in <noscript>, say) makes the parser open <body> early, and the
// meta and link tags after it land there.
type headTags struct {
	html   *html.Node   // the root <html> element
	titles []*html.Node // HTML <title> elements (SVG titles excluded)
	metas  []*html.Node
	links  []*html.Node
	bases  []*html.Node
	cut    bool // the walk stopped at MaxElements
}

// newPage reads doc's head tags and resolves its base URL.
func newPage(doc *html.Node, pageURL *url.URL) *page {
	p := &page{url: pageURL, base: pageURL}
	p.head.cut = auditkit.Walk(doc, MaxElements, func(n *html.Node) bool {
		if n.Namespace != "" {
			return n.Namespace != "svg" && n.Namespace != "math"
		}
		switch n.DataAtom {
		case atom.Html:
			if p.head.html == nil {
				p.head.html = n
			}
		case atom.Title:
			p.head.titles = append(p.head.titles, n)
			return false
		case atom.Meta:
			p.head.metas = append(p.head.metas, n)
		case atom.Link:
			p.head.links = append(p.head.links, n)
		case atom.Base:
			p.head.bases = append(p.head.bases, n)
		case atom.Script, atom.Style, atom.Textarea:
			return false
		}
		return true
	})
	for _, b := range p.head.bases {
		if href, ok := htmltag.LookupAttr(b.Attr, "href"); ok {
			// the HTML standard ignores a data: or javascript: base
			if u := p.resolve(href); u != nil && u.IsAbs() && u.Scheme != "data" && u.Scheme != "javascript" {
				p.base = u
			}
			break // only the first <base href> counts
		}
	}
	return p
}

// resolve parses ref (see parseRef) and makes it absolute against the
// base URL. It returns nil for an empty or unparsable reference; without a
// base URL a relative reference stays relative.
func (p *page) resolve(ref string) *url.URL {
	u := parseRef(ref)
	if u != nil && p.base != nil {
		u = p.base.ResolveReference(u)
	}
	return u
}

// parseRef parses ref (an href, src or CSS url) as the HTML standard reads
// it: surrounding white space and control characters trimmed, tabs and
// line breaks inside removed. It returns nil for an empty or unparsable
// reference.
func parseRef(ref string) *url.URL {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(ref)
	}
	if ref == "" {
		return nil
	}
	u, err := url.Parse(ref)
	if err != nil {
		return nil
	}
	return u
}

// internal reports whether u points at the page's own site: a relative URL
// does, and so does an absolute one whose host is the page's, compared
// without case and without a leading "www.". Without a page URL only
// relative URLs are internal.
func (p *page) internal(u *url.URL) bool {
	if u.Host == "" {
		return true
	}
	if p.url == nil {
		return false
	}
	return siteHost(u) == siteHost(p.url)
}

func siteHost(u *url.URL) string {
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// metaContent returns the trimmed content of every <meta> whose name (or
// property) is one of names, compared without case, in page order.
func (p *page) metaContent(names ...string) []string {
	var out []string
	for _, m := range p.head.metas {
		key := strings.ToLower(strings.TrimSpace(htmltag.Attr(m, "name")))
		if key == "" {
			key = strings.ToLower(strings.TrimSpace(htmltag.Attr(m, "property")))
		}
		for _, n := range names {
			if key == n {
				out = append(out, strings.TrimSpace(htmltag.Attr(m, "content")))
				break
			}
		}
	}
	return out
}

// robotsDirectives are the lower-case directives of the page's
// <meta name=robots> and <meta name=googlebot> tags, in page order
// ("max-snippet:0" is one directive).
func (p *page) robotsDirectives() []string {
	var out []string
	for _, c := range p.metaContent("robots", "googlebot") {
		for _, d := range strings.Split(strings.ToLower(c), ",") {
			if d = strings.Join(strings.Fields(d), ""); d != "" {
				out = append(out, d)
			}
		}
	}
	return out
}

// linksWithRel returns the <link> elements whose rel attribute holds one
// of rels (a space-separated token list, compared without case).
func (p *page) linksWithRel(rels ...string) []*html.Node {
	var out []*html.Node
	for _, l := range p.head.links {
		if hasToken(htmltag.Attr(l, "rel"), rels...) {
			out = append(out, l)
		}
	}
	return out
}

// hasToken reports whether the space-separated list holds one of tokens,
// compared without case.
func hasToken(list string, tokens ...string) bool {
	for _, f := range strings.Fields(list) {
		for _, t := range tokens {
			if strings.EqualFold(f, t) {
				return true
			}
		}
	}
	return false
}

// findings collects up to MaxFindings findings and remembers whether more
// were dropped.
type findings[T any] struct {
	list []T
	cut  bool
}

func (f *findings[T]) add(x T) {
	if len(f.list) >= MaxFindings {
		f.cut = true
		return
	}
	f.list = append(f.list, x)
}

// items returns the list, never nil, so it encodes as [].
func (f *findings[T]) items() []T {
	if f.list == nil {
		return []T{}
	}
	return f.list
}
