package fetch

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// metadata reads the page's title, description, language, canonical URL
// and OpenGraph properties. Title and description fall back to their
// OpenGraph forms, the language to the Content-Language header; the
// canonical URL is made absolute. A page that is not HTML has only the
// header's language.
func (p *page) metadata() *Metadata {
	m := &Metadata{}
	if doc := p.tree(); doc != nil {
		p.readMetadata(doc, m)
	}
	if m.Title == "" {
		m.Title = m.OpenGraph["og:title"]
	}
	if m.Description == "" {
		m.Description = m.OpenGraph["og:description"]
	}
	if m.Language == "" {
		lang, _, _ := strings.Cut(p.res.Header.Get("Content-Language"), ",")
		m.Language = strings.TrimSpace(lang)
	}
	return m
}

func (p *page) readMetadata(n *html.Node, m *Metadata) {
	if n.Type == html.ElementNode {
		switch n.DataAtom {
		case atom.Html:
			m.Language = strings.TrimSpace(htmltag.Attr(n, "lang"))
		case atom.Title:
			if m.Title == "" {
				m.Title = strings.Join(strings.Fields(nodeText(n)), " ")
			}
		case atom.Meta:
			p.readMeta(n, m)
		case atom.Link:
			if m.Canonical == "" && hasToken(htmltag.Attr(n, "rel"), "canonical") {
				m.Canonical = p.canonical(htmltag.Attr(n, "href"))
			}
		case atom.Svg:
			return // an SVG's <title> is not the page's
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		p.readMetadata(c, m)
	}
}

func (p *page) readMeta(n *html.Node, m *Metadata) {
	content := strings.TrimSpace(htmltag.Attr(n, "content"))
	name := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "name")))
	property := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "property")))
	switch {
	case name == "description" && m.Description == "":
		m.Description = content
	case strings.EqualFold(htmltag.Attr(n, "http-equiv"), "content-language") && m.Language == "":
		m.Language = content
	}
	// OpenGraph uses property=, but name= is common in the wild.
	for _, key := range []string{property, name} {
		if strings.HasPrefix(key, "og:") && content != "" {
			if m.OpenGraph == nil {
				m.OpenGraph = map[string]string{}
			}
			if _, ok := m.OpenGraph[key]; !ok {
				m.OpenGraph[key] = content
			}
			break
		}
	}
}

// canonical resolves a canonical href against the page's base; an href
// that does not parse is kept as written.
func (p *page) canonical(href string) string {
	href = strings.TrimSpace(href)
	ref, err := url.Parse(href)
	base := p.baseURL()
	if err != nil || base == nil {
		return href
	}
	return base.ResolveReference(ref).String()
}

func hasToken(list, token string) bool {
	for t := range strings.FieldsSeq(strings.ToLower(list)) {
		if t == token {
			return true
		}
	}
	return false
}

func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
