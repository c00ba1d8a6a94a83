package structured

import (
	"mime"
	"strings"

	"github.com/webinfra/webinfra/internal/htmltag"
	"golang.org/x/net/html"
)

// Meta is the page's title and standard <meta> tags.
type Meta struct {
	Title       string              `json:"title,omitempty" doc:"<title>, white space collapsed."`
	Description string              `json:"description,omitempty"`
	Keywords    []string            `json:"keywords,omitempty" doc:"<meta name=keywords>, split on commas."`
	Author      string              `json:"author,omitempty"`
	Robots      string              `json:"robots,omitempty"`
	Viewport    string              `json:"viewport,omitempty"`
	ThemeColor  string              `json:"theme_color,omitempty"`
	Generator   string              `json:"generator,omitempty"`
	Charset     string              `json:"charset,omitempty" doc:"<meta charset>, else the charset of <meta http-equiv=content-type>."`
	Language    string              `json:"language,omitempty" doc:"<html lang>, else <meta http-equiv=content-language>."`
	Published   string              `json:"published,omitempty" doc:"The publication date as written, from the first hint found of article:published_time, datePublished, date, dc.date, dcterms.issued and the like."`
	Modified    string              `json:"modified,omitempty" doc:"The modification date as written, from the first hint found of article:modified_time, og:updated_time, dateModified, last-modified, dcterms.modified and the like."`
	DublinCore  map[string][]string `json:"dublin_core,omitempty" doc:"Dublin Core (dc.*, dcterms.*, dc:*) by lower-case name, values in page order."`
	Other       map[string]string   `json:"other,omitempty" doc:"Every other <meta name|property> pair by lower-case name (date hints included), the first of a repeated name; OpenGraph and Twitter properties are in their own sections."`
}

// metaTag is a <meta> element's name (or property), lower case, and its
// content.
type metaTag struct{ key, content string }

// metaTags returns the name and property pairs of metas, in page order,
// without empty content.
func metaTags(metas []*html.Node) []metaTag {
	var tags []metaTag
	for _, n := range metas {
		content := strings.TrimSpace(htmltag.Attr(n, "content"))
		if content == "" {
			continue
		}
		property := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "property")))
		name := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "name")))
		if property != "" {
			tags = append(tags, metaTag{property, content})
		}
		if name != "" && name != property {
			tags = append(tags, metaTag{name, content})
		}
	}
	return tags
}

// publishedHints and modifiedHints are the names that give dates, best
// first.
var (
	publishedHints = []string{
		"article:published_time", "article:published", "datepublished", "date", "dc.date", "dc.date.issued",
		"dcterms.issued", "dcterms.created", "dcterms.date", "pubdate", "publishdate",
		"publish-date", "publish_date", "sailthru.date", "parsely-pub-date",
		"citation_publication_date", "citation_date",
	}
	modifiedHints = []string{
		"article:modified_time", "article:modified", "og:updated_time", "datemodified", "last-modified",
		"dcterms.modified", "dc.date.modified", "revised",
	}
)

func (b *builder) meta(p *page, tags []metaTag) *Meta {
	m := &Meta{Title: p.title, Language: p.lang}
	fields := map[string]*string{
		"description": &m.Description,
		"author":      &m.Author,
		"robots":      &m.Robots,
		"viewport":    &m.Viewport,
		"theme-color": &m.ThemeColor,
		"generator":   &m.Generator,
	}
	first := map[string]string{}
	for _, t := range tags {
		if _, ok := first[t.key]; !ok {
			first[t.key] = t.content
		}
		switch f := fields[t.key]; {
		case f != nil:
			if *f == "" {
				*f = t.content
			}
		case t.key == "keywords":
			if m.Keywords == nil {
				m.Keywords = b.keywords(t.content)
			}
		case isDublinCore(t.key):
			b.addDublinCore(m, t)
		case isOpenGraph(t.key) || strings.HasPrefix(t.key, "twitter:"):
		default:
			if _, ok := m.Other[t.key]; !ok && b.room(len(m.Other), "meta") {
				if m.Other == nil {
					m.Other = map[string]string{}
				}
				m.Other[t.key] = t.content
			}
		}
	}
	m.Published = pick(first, publishedHints)
	m.Modified = pick(first, modifiedHints)
	b.readHTTPEquiv(m, p.metas)
	return nilIfZero(m)
}

// readHTTPEquiv sets the charset, and the language when <html lang> has
// none, from <meta charset> and <meta http-equiv>.
func (b *builder) readHTTPEquiv(m *Meta, metas []*html.Node) {
	for _, n := range metas {
		if c := strings.TrimSpace(htmltag.Attr(n, "charset")); c != "" && m.Charset == "" {
			m.Charset = c
		}
		content := strings.TrimSpace(htmltag.Attr(n, "content"))
		switch strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "http-equiv"))) {
		case "content-type":
			if _, params, err := mime.ParseMediaType(content); err == nil && m.Charset == "" {
				m.Charset = params["charset"]
			}
		case "content-language":
			if m.Language == "" {
				lang, _, _ := strings.Cut(content, ",")
				m.Language = strings.TrimSpace(lang)
			}
		}
	}
}

// keywords splits a keywords list on commas.
func (b *builder) keywords(s string) []string {
	var out []string
	for k := range strings.SplitSeq(s, ",") {
		if k = collapse(k); k != "" && b.room(len(out), "meta") {
			out = append(out, k)
		}
	}
	return out
}

func isDublinCore(key string) bool {
	for _, p := range []string{"dc.", "dcterms.", "dc:", "dcterms:"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

func (b *builder) addDublinCore(m *Meta, t metaTag) {
	values, ok := m.DublinCore[t.key]
	if !ok && !b.room(len(m.DublinCore), "meta") || !b.room(len(values), "meta") {
		return
	}
	if m.DublinCore == nil {
		m.DublinCore = map[string][]string{}
	}
	m.DublinCore[t.key] = append(values, t.content)
}

// pick returns the value of the first of names that values has.
func pick(values map[string]string, names []string) string {
	for _, name := range names {
		if v, ok := values[name]; ok {
			return v
		}
	}
	return ""
}
