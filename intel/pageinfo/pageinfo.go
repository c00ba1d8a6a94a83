package pageinfo

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// DefaultMaxHTMLBytes is how much of a page is read when Options does not
// say: 10 MiB, the fetcher's default body cap.
const DefaultMaxHTMLBytes = 10 << 20

// Input names the page to analyse. The same struct is the JSON body of
// POST /v1/intel/page: the server fetches the URL with its SSRF-guarded
// fetcher and hands the answer to Analyze as a Page.
type Input struct {
	URL string `json:"url" minLength:"1" maxLength:"8192" example:"https://example.com/" doc:"The page to fetch and analyse (http or https)."`
}

// Page is a fetched page: what Analyze and company.Profile read. Build it
// from a fetch with FromResponse.
type Page struct {
	// URL is the page's final URL (after redirects); it resolves
	// relative links and decides which links are internal.
	URL string
	// Status is the HTTP status the page was answered with.
	Status int
	// Header is the response's header; nil when unknown.
	Header http.Header
	// HTML is the body, UTF-8 (as the fetcher returns textual bodies).
	HTML []byte
}

// FromResponse is the Page of a fetch's answer.
func FromResponse(res *fetch.Response) Page {
	return Page{URL: res.FinalURL, Status: res.StatusCode, Header: res.Header, HTML: res.Body}
}

// Options tune Analyze. The zero value (or nil) means defaults.
type Options struct {
	// MaxHTMLBytes is how much of Page.HTML is parsed; the rest is
	// ignored and Report.Notes says so. 0 means DefaultMaxHTMLBytes.
	MaxHTMLBytes int
}

// Report is what a page says about itself and the software behind it.
type Report struct {
	URL             string          `json:"url" doc:"The page's URL (after redirects)."`
	Status          int             `json:"status,omitempty" doc:"The HTTP status the page was answered with."`
	Title           string          `json:"title,omitempty" doc:"<title>, white space collapsed."`
	Description     string          `json:"description,omitempty" doc:"<meta name=description>, else og:description."`
	Language        string          `json:"language,omitempty" example:"en-GB" doc:"The page's language: <html lang>, else the Content-Language header, else og:locale (en_GB written en-GB)."`
	LanguageSources LanguageSources `json:"language_sources" doc:"Each language signal as written."`
	Canonical       string          `json:"canonical,omitempty" doc:"<link rel=canonical>, absolute."`
	MetaRobots      string          `json:"meta_robots,omitempty" doc:"<meta name=robots>, as written."`
	Generator       string          `json:"generator,omitempty" example:"WordPress 6.4.2" doc:"The first <meta name=generator>."`
	Generators      []string        `json:"generators,omitempty" doc:"Every <meta name=generator>, in page order, when there are several (CMS, plugins, page builders)."`
	Technologies    []Technology    `json:"technologies" doc:"Software recognised from headers, cookies, meta tags, script and stylesheet URLs and markup, each with the evidence; sorted by category, then name."`
	ServerHeaders   ServerHeaders   `json:"server_headers" doc:"The response headers that describe the server, its caches and its CDN."`
	Links           LinkCounts      `json:"links" doc:"The page's <a href> and <area href> links."`
	Images          ImageCounts     `json:"images"`
	Scripts         ScriptCounts    `json:"scripts"`
	Stylesheets     StyleCounts     `json:"stylesheets"`
	Headings        Headings        `json:"headings"`
	WordCount       int             `json:"word_count" doc:"Words of visible text (scripts and styles left out): runs of letters and digits; text written without spaces (Chinese, Japanese) counts as few words."`
	StructuredData  StructuredData  `json:"structured_data"`
	Hreflang        []Alternate     `json:"hreflang,omitempty" doc:"<link rel=alternate hreflang> language versions, absolute."`
	Feeds           []Feed          `json:"feeds,omitempty" doc:"RSS, Atom and JSON Feed links, absolute."`
	Favicon         string          `json:"favicon,omitempty" doc:"The first declared icon (rel=icon or shortcut icon, else any icon link), absolute; absent when the page declares none (browsers then try /favicon.ico)."`
	Notes           []string        `json:"notes,omitempty" doc:"What limited the analysis: a page cut at the size cap, a document the parser refused, a body that is not HTML."`
}

// LanguageSources are the page's language signals, as written.
type LanguageSources struct {
	HTMLLang        string `json:"html_lang,omitempty" doc:"<html lang>."`
	ContentLanguage string `json:"content_language,omitempty" doc:"The Content-Language header, else <meta http-equiv=content-language>."`
	OGLocale        string `json:"og_locale,omitempty" doc:"og:locale."`
}

// Alternate is one language version of the page.
type Alternate struct {
	Hreflang string `json:"hreflang" example:"de-DE"`
	URL      string `json:"url"`
}

// Feed is one feed the page links to.
type Feed struct {
	URL   string `json:"url"`
	Type  string `json:"type,omitempty" example:"application/rss+xml"`
	Title string `json:"title,omitempty"`
}

// Analyze reads what a fetched page says about itself: title, language,
// canonical, generator, the technologies behind it, its server headers,
// link, image, script and heading counts, words, structured-data types,
// language versions, feeds and favicon. It fetches nothing and never
// fails: what cannot be read is left out and named in Report.Notes.
func Analyze(in Page, opts *Options) *Report {
	maxHTML := DefaultMaxHTMLBytes
	if opts != nil && opts.MaxHTMLBytes > 0 {
		maxHTML = opts.MaxHTMLBytes
	}
	rep := &Report{URL: in.URL, Status: in.Status, Technologies: []Technology{}}
	rep.ServerHeaders = serverHeaders(in.Header)
	rep.LanguageSources.ContentLanguage = strings.TrimSpace(in.Header.Get("Content-Language"))
	base, _ := url.Parse(in.URL)
	if base != nil && !base.IsAbs() {
		base = nil
	}
	facts := &facts{header: in.Header}
	src := in.HTML
	if len(src) > maxHTML {
		src = cutUTF8(src, maxHTML)
		rep.Notes = append(rep.Notes, "the page is larger than the analysis cap; only its first "+byteSize(maxHTML)+" were read")
	}
	if page := string(src); strings.TrimSpace(page) != "" {
		if doc, err := htmltag.Parse(page, "html"); err != nil {
			rep.Notes = append(rep.Notes, "the HTML parser refused the document (elements nested more than 512 deep): only the headers were read")
		} else {
			readDocument(rep, facts, doc, base)
		}
	} else {
		rep.Notes = append(rep.Notes, "the page has no body: only the headers were read")
	}
	rep.Technologies = detect(facts)
	return rep
}

// readDocument fills the report from the parsed page.
func readDocument(rep *Report, facts *facts, doc *html.Node, base *url.URL) {
	sd := structured.FromNode(doc, base, nil)
	s := walk(doc, base, domRules)
	facts.scan = s
	if m := sd.Meta; m != nil {
		rep.Title, rep.Description, rep.MetaRobots = m.Title, m.Description, m.Robots
		if rep.LanguageSources.ContentLanguage == "" && m.Language != "" && m.Language != s.htmlLang {
			rep.LanguageSources.ContentLanguage = m.Language // <meta http-equiv=content-language>
		}
	}
	if rep.Description == "" {
		rep.Description = ogString(sd.OpenGraph, "og:description")
	}
	rep.LanguageSources.HTMLLang = s.htmlLang
	rep.LanguageSources.OGLocale = ogString(sd.OpenGraph, "og:locale")
	rep.Language = language(rep.LanguageSources)
	if len(s.generators) > 0 {
		rep.Generator = s.generators[0]
		if len(s.generators) > 1 {
			rep.Generators = s.generators
		}
	}
	rep.Links, rep.Images, rep.Scripts, rep.Stylesheets = s.links.counts(), s.images, s.scripts, s.styles
	rep.Headings, rep.WordCount = s.headings, s.words
	rep.StructuredData = structuredData(sd, s.jsonLDBlocks)
	if l := sd.Links; l != nil {
		rep.Canonical = l.Canonical
		for _, a := range l.Alternates {
			if a.Hreflang != "" && len(rep.Hreflang) < maxListed {
				rep.Hreflang = append(rep.Hreflang, Alternate{Hreflang: a.Hreflang, URL: a.Href})
			}
		}
		for _, f := range l.Feeds {
			if len(rep.Feeds) < maxListed {
				rep.Feeds = append(rep.Feeds, Feed{URL: f.Href, Type: f.Type, Title: f.Title})
			}
		}
		rep.Favicon = favicon(l.Icons)
	}
}

// maxListed caps the report's lists of URLs (hreflang, feeds).
const maxListed = 200

// language picks the page's language from its signals.
func language(s LanguageSources) string {
	if s.HTMLLang != "" {
		return s.HTMLLang
	}
	if s.ContentLanguage != "" {
		first, _, _ := strings.Cut(s.ContentLanguage, ",")
		return strings.TrimSpace(first)
	}
	return strings.ReplaceAll(s.OGLocale, "_", "-")
}

// favicon is the first rel=icon or "shortcut icon", else the first icon
// of any kind (apple-touch-icon, mask-icon).
func favicon(icons []structured.Link) string {
	for _, ic := range icons {
		if ic.Rel == "icon" || ic.Rel == "shortcut icon" {
			return ic.Href
		}
	}
	if len(icons) > 0 {
		return icons[0].Href
	}
	return ""
}

// ogString is an OpenGraph property that is a plain string, else "".
func ogString(og map[string]any, key string) string {
	s, _ := og[key].(string)
	return strings.TrimSpace(s)
}

// cutUTF8 is b cut to at most n bytes, not through a character.
func cutUTF8(b []byte, n int) []byte {
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}

// byteSize writes n bytes for people: "10 MiB", "512 KiB", "300 bytes".
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}
