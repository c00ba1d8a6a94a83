package htmlaudit

import (
	"fmt"
	"mime"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// The field scorers of Meta; its doc comment gives every threshold.

func (p *page) titleField() MetaField {
	if len(p.head.titles) == 0 {
		return missingField("title", "", 0, "missing_title", auditkit.Error, "no <title>: write a 30-60 character title")
	}
	t := auditkit.CollapseSpace(auditkit.RawText(p.head.titles[0]))
	chars, px := utf8.RuneCountInString(t), titlePixels(t)
	f := newField("title", "", true, t, 100, fmt.Sprintf("%d characters, about %dpx: within 30-60", chars, px))
	f.Chars, f.PixelWidth = chars, px
	switch {
	case chars == 0:
		f.capAt(0, "empty_title", auditkit.Error, "the <title> is empty")
	case chars < 10:
		f.capAt(20, "title_too_short", auditkit.Warning, fmt.Sprintf("%d characters: far too short (30-60 is good)", chars))
	case chars < 30:
		f.capAt(60, "title_too_short", auditkit.Warning, fmt.Sprintf("%d characters: short (30-60 is good)", chars))
	case chars > 70:
		f.capAt(50, "title_too_long", auditkit.Warning, fmt.Sprintf("%d characters: search results cut it (30-60 is good)", chars))
	case chars > 60:
		f.capAt(75, "title_too_long", auditkit.Warning, fmt.Sprintf("%d characters: may be cut in results (30-60 is good)", chars))
	case px > titleMaxPixels:
		f.capAt(85, "title_too_wide", auditkit.Notice, fmt.Sprintf("about %dpx wide: Google cuts titles near %dpx", px, titleMaxPixels))
	}
	if n := len(p.head.titles); n > 1 {
		f.issue("multiple_titles", auditkit.Warning, fmt.Sprintf("%d <title> elements: keep one", n), 15)
	}
	return f
}

func (p *page) descriptionField() MetaField {
	vals := p.metaContent("description")
	if len(vals) == 0 || vals[0] == "" {
		return missingField("meta", "content", 0, "missing_description", auditkit.Warning,
			"no meta description: write 70-160 characters that answer the page's query")
	}
	d := auditkit.CollapseSpace(vals[0])
	chars := utf8.RuneCountInString(d)
	f := newField("meta", "content", true, d, 100, fmt.Sprintf("%d characters: within 70-160", chars))
	f.Chars = chars
	switch {
	case chars < 50:
		f.capAt(40, "description_too_short", auditkit.Warning, fmt.Sprintf("%d characters: too short (70-160 is good)", chars))
	case chars < 70:
		f.capAt(70, "description_too_short", auditkit.Notice, fmt.Sprintf("%d characters: short (70-160 is good)", chars))
	case chars > 200:
		f.capAt(50, "description_too_long", auditkit.Warning, fmt.Sprintf("%d characters: results cut it (70-160 is good)", chars))
	case chars > 160:
		f.capAt(75, "description_too_long", auditkit.Notice, fmt.Sprintf("%d characters: may be cut (70-160 is good)", chars))
	}
	if len(vals) > 1 {
		f.issue("multiple_descriptions", auditkit.Warning, fmt.Sprintf("%d meta descriptions: keep one", len(vals)), 15)
		f.Values = clipAll(vals)
	}
	return f
}

func (p *page) canonicalField() MetaField {
	var hrefs []string
	for _, l := range p.linksWithRel("canonical") {
		if h := strings.TrimSpace(htmltag.Attr(l, "href")); h != "" && !slices.Contains(hrefs, h) {
			hrefs = append(hrefs, h)
		}
	}
	if len(hrefs) == 0 {
		return missingField("link", "href", 50, "missing_canonical", auditkit.Notice,
			"no <link rel=canonical>: search engines choose which URL to index; point one at this page's preferred URL")
	}
	f := newField("link", "href", true, hrefs[0], 100, "self-referencing canonical")
	if len(hrefs) > 1 {
		f.Values = clipAll(hrefs)
		f.capAt(10, "conflicting_canonicals", auditkit.Error, fmt.Sprintf("%d different canonicals: Google ignores them all; keep one", len(hrefs)))
		return f
	}
	u := p.resolve(hrefs[0])
	if u == nil || (u.Scheme != "http" && u.Scheme != "https" && u.IsAbs()) {
		f.capAt(0, "invalid_canonical", auditkit.Error, "the canonical is not an http(s) URL")
		return f
	}
	f.Value = u.String()
	if raw := parseRef(hrefs[0]); raw != nil && !raw.IsAbs() {
		f.issue("relative_canonical", auditkit.Notice, "relative canonical: write the absolute URL", 20)
	}
	switch {
	case p.url == nil || !u.IsAbs():
		f.capAt(90, "canonical_unchecked", auditkit.Notice, "page URL unknown: self-reference not checked")
	case sameURL(u, p.url):
	case p.url.Scheme == "https" && u.Scheme == "http" && sameURL(withScheme(u, "https"), p.url):
		f.capAt(40, "canonical_http", auditkit.Error, "the canonical is the http:// version of this https:// page")
	case sameURL(withSlash(u), withSlash(p.url)):
		f.capAt(85, "canonical_trailing_slash", auditkit.Notice,
			"the canonical differs from this URL only by a trailing slash: redirect one form to the other")
	default:
		f.capAt(60, "canonical_elsewhere", auditkit.Notice, "the canonical names another URL: this page will not be indexed itself")
	}
	return f
}

func (p *page) robotsField() MetaField {
	dirs := p.robotsDirectives()
	if len(dirs) == 0 {
		return newField("meta", "content", false, "", 100, "no robots meta: indexable and followable")
	}
	f := newField("meta", "content", true, strings.Join(dirs, ", "), 100, "robots meta allows indexing")
	seen := map[string]bool{}
	for _, d := range dirs {
		switch {
		case d == "noindex" || d == "none":
			f.capAt(0, "noindex", auditkit.Error, d+": the page is kept out of search results")
		case d == "nofollow":
			f.capAt(60, "nofollow", auditkit.Warning, "nofollow: no link on the page passes signals")
		case d == "nosnippet" || d == "max-snippet:0":
			f.capAt(50, "nosnippet", auditkit.Warning, d+": no text snippet in results or AI answers")
		case d == "noimageindex" || d == "noarchive" || d == "notranslate":
			if !seen[d] {
				f.capAt(90, "restrictive_robots", auditkit.Notice, d+": limits how results show the page")
			}
		}
		seen[d] = true
	}
	f.Issues = uniqueIssues(f.Issues)
	return f
}

func (p *page) viewportField() MetaField {
	vals := p.metaContent("viewport")
	if len(vals) == 0 {
		return missingField("meta", "content", 0, "missing_viewport", auditkit.Error,
			"no viewport meta: the page is not mobile-friendly; add <meta name=viewport content=\"width=device-width, initial-scale=1\">")
	}
	f := newField("meta", "content", true, vals[0], 100, "width=device-width")
	props := map[string]string{}
	for _, kv := range strings.FieldsFunc(strings.ToLower(vals[0]), func(r rune) bool { return r == ',' || r == ';' }) {
		k, v, _ := strings.Cut(kv, "=")
		props[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if props["width"] != "device-width" {
		f.capAt(50, "viewport_not_device_width", auditkit.Warning, "the viewport lacks width=device-width")
	}
	scale, err := strconv.ParseFloat(props["maximum-scale"], 64)
	if us := props["user-scalable"]; us == "no" || us == "0" || (err == nil && scale < 2) {
		f.capAt(70, "viewport_blocks_zoom", auditkit.Warning, "the viewport stops users zooming (user-scalable=no or maximum-scale under 2)")
	}
	return f
}

func (p *page) langField() MetaField {
	lang := ""
	if p.head.html != nil {
		lang = strings.TrimSpace(htmltag.Attr(p.head.html, "lang"))
	}
	if lang == "" {
		return missingField("html", "lang", 0, "missing_lang", auditkit.Warning, "no <html lang>: declare the page's language")
	}
	f := newField("html", "lang", true, lang, 100, "valid language tag")
	if _, err := language.Parse(lang); err != nil {
		f.capAt(40, "invalid_lang", auditkit.Warning, "lang is not a valid BCP 47 language tag")
	}
	return f
}

func (p *page) charsetField() MetaField {
	var sets []string
	for _, m := range p.head.metas {
		cs := strings.TrimSpace(htmltag.Attr(m, "charset"))
		if cs == "" && strings.EqualFold(strings.TrimSpace(htmltag.Attr(m, "http-equiv")), "content-type") {
			if _, params, err := mime.ParseMediaType(htmltag.Attr(m, "content")); err == nil {
				cs = params["charset"]
			}
		}
		if cs = strings.ToLower(cs); cs != "" && !slices.Contains(sets, cs) {
			sets = append(sets, cs)
		}
	}
	if len(sets) == 0 {
		return missingField("meta", "charset", 50, "missing_charset", auditkit.Notice,
			"no charset declared in the page (the Content-Type header may declare it): add <meta charset=\"utf-8\"> early in <head>")
	}
	f := newField("meta", "charset", true, sets[0], 100, "UTF-8")
	if sets[0] != "utf-8" && sets[0] != "utf8" {
		f.capAt(60, "non_utf8_charset", auditkit.Notice, "the charset is "+sets[0]+": UTF-8 is recommended")
	}
	if len(sets) > 1 {
		f.Values = sets
		f.issue("conflicting_charsets", auditkit.Warning, "several different charsets are declared", 20)
	}
	return f
}

// missingField is a field the page lacks, scored score, with its issue.
func missingField(tag, attr string, score int, code, severity, message string) MetaField {
	f := newField(tag, attr, false, "", score, message)
	f.issue(code, severity, message, 0)
	return f
}

// first returns the first non-empty value of the named meta tags.
func (p *page) first(names ...string) string {
	for _, v := range p.metaContent(names...) {
		if v != "" {
			return v
		}
	}
	return ""
}

func (p *page) openGraphField() MetaField {
	f := newField("meta", "property", false, "", 0, "")
	present := 0
	for _, prop := range []string{"og:title", "og:description", "og:image", "og:url", "og:type"} {
		if v := p.first(prop); v != "" {
			present++
			if f.Value == "" {
				f.Value = auditkit.Clip(v, 300)
			}
		} else {
			f.Missing = append(f.Missing, prop)
		}
	}
	if present == 0 {
		f = missingField("meta", "property", 0, "missing_open_graph", auditkit.Warning, "no Open Graph tags: shares show a bare link")
		f.Missing = []string{"og:title", "og:description", "og:image", "og:url", "og:type"}
		return f
	}
	f.Present, f.Score = true, 20*present
	f.Reason = fmt.Sprintf("%d of 5 Open Graph properties", present)
	switch {
	case present < 5:
		f.issue("incomplete_open_graph", auditkit.Notice, "missing "+strings.Join(f.Missing, ", "), 0)
	}
	if img := p.first("og:image"); img != "" {
		u := parseRef(img)
		switch {
		case u == nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https"):
			f.issue("og_image_relative", auditkit.Warning, "og:image must be an absolute http(s) URL", 10)
		case u.Scheme == "http" && p.url != nil && p.url.Scheme == "https":
			f.issue("og_image_insecure", auditkit.Notice, "og:image is http:// on an https:// page", 5)
		}
	}
	if ogURL := p.first("og:url"); ogURL != "" {
		if u := parseRef(ogURL); u == nil || !u.IsAbs() {
			f.issue("og_url_relative", auditkit.Notice, "og:url should be an absolute URL", 5)
		}
	}
	return f
}

func (p *page) twitterField() MetaField {
	card := strings.ToLower(p.first("twitter:card"))
	f := newField("meta", "name", card != "", card, 70, "twitter:card "+card)
	switch card {
	case "summary", "summary_large_image", "app", "player":
	case "":
		score, msg := 0, "no twitter:card: X shows a bare link"
		if p.first("og:title") != "" && p.first("og:image") != "" {
			score, msg = 30, "no twitter:card: X may build a card from Open Graph, but the type is not chosen"
		}
		f.Score, f.Reason = score, msg
		f.issue("missing_twitter_card", auditkit.Notice, msg, 0)
		return f
	default:
		f.capAt(30, "invalid_twitter_card", auditkit.Warning, "unknown twitter:card "+card+": use summary or summary_large_image")
		return f
	}
	for _, part := range []string{"title", "description", "image"} {
		if p.first("twitter:"+part) != "" || p.first("og:"+part) != "" {
			f.Score += 10
		} else {
			f.Missing = append(f.Missing, "twitter:"+part)
		}
	}
	if len(f.Missing) > 0 {
		f.Reason += "; missing " + strings.Join(f.Missing, ", ") + " (and its og: fallback)"
	}
	return f
}

func (p *page) faviconField() MetaField {
	for _, l := range p.linksWithRel("icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon") {
		u := p.resolve(htmltag.Attr(l, "href"))
		if u == nil {
			continue
		}
		f := newField("link", "href", true, u.String(), 100, "icon declared")
		if u.Scheme == "http" && p.url != nil && p.url.Scheme == "https" {
			f.capAt(80, "insecure_favicon", auditkit.Notice, "the icon is http:// on an https:// page")
		}
		return f
	}
	return missingField("link", "href", 50, "missing_favicon", auditkit.Notice,
		"no <link rel=icon>: browsers and search engines fall back to /favicon.ico, which is not checked here")
}

// withSlash is u with its path ending in "/".
func withSlash(u *url.URL) *url.URL {
	c := *u
	if !strings.HasSuffix(c.Path, "/") {
		c.Path += "/"
		c.RawPath = ""
	}
	return &c
}

func withScheme(u *url.URL, scheme string) *url.URL {
	c := *u
	c.Scheme = scheme
	if c.Port() == "80" {
		c.Host = c.Hostname()
	}
	return &c
}

// uniqueIssues drops repeated codes, keeping the first.
func uniqueIssues(issues []auditkit.Finding) []auditkit.Finding {
	var out []auditkit.Finding
	seen := map[string]bool{}
	for _, is := range issues {
		if !seen[is.Code] {
			seen[is.Code] = true
			out = append(out, is)
		}
	}
	return out
}

// clipAll clips each value for a report, keeping at most 50.
func clipAll(vals []string) []string {
	out := make([]string, 0, min(len(vals), 50))
	for _, v := range vals[:min(len(vals), 50)] {
		out = append(out, auditkit.Clip(v, 300))
	}
	return out
}
