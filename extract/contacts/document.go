package contacts

import (
	"net/url"
	"strings"

	"github.com/nyaruka/phonenumbers"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// document is the input flattened for matching: the visible text of the
// HTML (block elements on their own lines) followed by the plain text, and
// the links found in the HTML, each at the offset in text where it began.
type document struct {
	text    string
	links   []link
	base    *url.URL // resolves relative links: base_url, then <base href>
	pageURL *url.URL // for the ccTLD hint: base_url, <base>, canonical or og:url
	langs   []string // <html lang> and og:locale, for the region hint
}

type link struct {
	pos  int
	href string
}

// inlineTags do not break the text into lines, so that contacts split over
// <span>s are still matched.
var inlineTags = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true,
	atom.Cite: true, atom.Code: true, atom.Data: true, atom.Dfn: true,
	atom.Em: true, atom.Font: true, atom.I: true, atom.Kbd: true,
	atom.Label: true, atom.Mark: true, atom.Q: true, atom.S: true,
	atom.Samp: true, atom.Small: true, atom.Span: true, atom.Strong: true,
	atom.Sub: true, atom.Sup: true, atom.Time: true, atom.U: true,
	atom.Var: true, atom.Wbr: true,
}

// hiddenTags hold raw text that is not shown: their content is skipped
// (except JSON-LD scripts).
var hiddenTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Iframe: true, atom.Noembed: true,
	atom.Noframes: true, atom.Noscript: true, atom.Xmp: true, atom.Plaintext: true,
}

func newDocument(src, text string, base *url.URL) *document {
	d := &document{base: base, pageURL: base}
	var b strings.Builder
	if src != "" {
		d.readHTML(src, &b)
	}
	if text != "" {
		b.WriteByte('\n')
		b.WriteString(html.UnescapeString(text))
	}
	d.text = b.String()
	return d
}

// readHTML tokenizes src (no tree is built, so depth and size of hostile
// markup cost nothing extra), writing visible text to b.
func (d *document) readHTML(src string, b *strings.Builder) {
	z := html.NewTokenizer(strings.NewReader(src))
	skipText := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return
		case html.TextToken:
			if !skipText {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := atom.Lookup(name)
			attrs := readAttrs(z, hasAttr)
			d.startTag(tag, attrs, b.Len())
			skipText = hiddenTags[tag] && !(tag == atom.Script && strings.EqualFold(attrs["type"], "application/ld+json"))
			if !inlineTags[tag] {
				b.WriteByte('\n')
			}
			continue
		case html.EndTagToken:
			if name, _ := z.TagName(); !inlineTags[atom.Lookup(name)] {
				b.WriteByte('\n')
			}
		}
		skipText = false
	}
}

// readAttrs returns the attributes startTag looks at.
func readAttrs(z *html.Tokenizer, more bool) map[string]string {
	var attrs map[string]string
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch key := string(k); key {
		case "href", "lang", "rel", "name", "property", "content", "type", "data-cfemail":
			if attrs == nil {
				attrs = map[string]string{}
			}
			attrs[key] = string(v)
		}
	}
	return attrs
}

func (d *document) startTag(tag atom.Atom, attrs map[string]string, pos int) {
	if attrs == nil {
		return
	}
	if hex, ok := attrs["data-cfemail"]; ok {
		if addr := decodeCloudflare(hex); addr != "" {
			d.addLink(pos, "mailto:"+addr)
		}
	}
	href := strings.TrimSpace(attrs["href"])
	switch tag {
	case atom.Html:
		d.addLang(attrs["lang"])
	case atom.Base:
		if u := d.resolve(href); u != nil {
			d.base = u
			d.hintPage(u)
		}
	case atom.Link:
		if strings.EqualFold(attrs["rel"], "canonical") {
			d.hintPage(d.resolve(href))
		}
		d.addLink(pos, href)
	case atom.A, atom.Area:
		d.addLink(pos, href)
	case atom.Meta:
		d.meta(attrs, pos)
	}
}

func (d *document) meta(attrs map[string]string, pos int) {
	content := strings.TrimSpace(attrs["content"])
	switch strings.ToLower(attrs["property"] + attrs["name"]) {
	case "og:url":
		d.hintPage(d.resolve(content))
	case "og:locale":
		d.addLang(content)
	case "twitter:site", "twitter:creator":
		if h, ok := strings.CutPrefix(content, "@"); ok {
			d.addLink(pos, "https://x.com/"+h)
		}
	}
}

func (d *document) addLink(pos int, href string) {
	if href == "" {
		return
	}
	if addr := decodeCloudflareLink(href); addr != "" {
		href = "mailto:" + addr
	}
	d.links = append(d.links, link{pos: pos, href: href})
}

func (d *document) addLang(lang string) {
	if lang = strings.TrimSpace(lang); lang != "" {
		d.langs = append(d.langs, lang)
	}
}

func (d *document) hintPage(u *url.URL) {
	if d.pageURL == nil && u != nil {
		d.pageURL = u
	}
}

// resolve parses href against the base URL and returns it when it is an
// absolute http(s) URL.
func (d *document) resolve(href string) *url.URL {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return nil
	}
	if d.base != nil {
		u = d.base.ResolveReference(u)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil
	}
	return u
}

// inferRegion guesses the phone region of a page: the country-code TLD of
// its URL first, then a region subtag in its language tags.
func (d *document) inferRegion() (region, source string) {
	if d.pageURL != nil {
		if r := tldRegion(d.pageURL.Hostname()); r != "" {
			return r, "tld"
		}
	}
	for _, lang := range d.langs {
		if r := langRegion(lang); r != "" {
			return r, "lang"
		}
	}
	return "", ""
}

// genericTLDs are country codes mostly used as generic domains.
var genericTLDs = map[string]bool{
	"ac": true, "ai": true, "am": true, "cc": true, "co": true, "fm": true,
	"gg": true, "io": true, "ly": true, "me": true, "nu": true, "sh": true,
	"tk": true, "to": true, "tv": true, "ws": true,
}

func tldRegion(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	tld := host[strings.LastIndexByte(host, '.')+1:]
	if len(tld) != 2 || genericTLDs[tld] || tld == host {
		return ""
	}
	if tld == "uk" {
		tld = "gb"
	}
	return supportedRegion(tld)
}

// langRegion returns the region subtag of a BCP 47 tag or POSIX locale:
// "en-GB" and "en_GB" give GB, "en" gives "".
func langRegion(lang string) string {
	subtags := strings.FieldsFunc(lang, func(r rune) bool { return r == '-' || r == '_' })
	for _, s := range subtags[min(1, len(subtags)):] {
		if len(s) == 2 {
			return supportedRegion(s)
		}
	}
	return ""
}

func supportedRegion(code string) string {
	code = strings.ToUpper(code)
	if !phonenumbers.GetSupportedRegions()[code] {
		return ""
	}
	return code
}
