package content

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"
	"github.com/RadhiFadlillah/whatlanggo"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// pageInfo is what extract reads from the page before a pipeline edits it.
type pageInfo struct {
	lang string   // the declared language, a primary subtag ("en"), or ""
	base *url.URL // what links resolve against: pageURL and <base href>

	published, modified string // as the page's metadata states them, else published as the headline's date line does

	clues    *pageClues // what the page says of its title, authors and dates
	title    string     // the headline chooseTitle found, or ""
	textDate string     // the first date in the page's text, or ""
}

// readPageInfo reads the declared language (<html lang>, else
// <meta http-equiv=content-language>, else og:locale) and the link base
// (pageURL resolved with the first <base href>).
func readPageInfo(doc *html.Node, pageURL *url.URL) pageInfo {
	info := pageInfo{base: pageURL}
	var htmlLang, metaLang, ogLocale, baseHref string
	var baseSeen bool
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Html:
				htmlLang = htmltag.Attr(n, "lang")
				if htmlLang == "" {
					htmlLang = htmltag.Attr(n, "xml:lang")
				}
			case atom.Body:
				return // all of these live in <html> and <head>
			case atom.Base:
				if !baseSeen {
					baseHref, baseSeen = htmltag.Attr(n, "href"), true
				}
			case atom.Meta:
				switch {
				case strings.EqualFold(htmltag.Attr(n, "http-equiv"), "content-language"):
					metaLang = htmltag.Attr(n, "content")
				case htmltag.Attr(n, "property") == "og:locale":
					ogLocale = htmltag.Attr(n, "content")
				}
			}
		}
		if depth > 3 {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	info.clues = readClues(doc)
	info.published, info.modified = pageDates(info.clues)
	headlineDate, textDate := info.clues.textDates()
	if info.published == "" {
		info.published = headlineDate
	}
	info.textDate = textDate
	info.title = chooseTitle(info.clues, pageURL)
	for _, l := range []string{htmlLang, metaLang, ogLocale} {
		if l = primaryTag(l); l != "" {
			info.lang = l
			break
		}
	}
	if pageURL != nil && baseHref != "" {
		if ref, err := url.Parse(strings.TrimSpace(baseHref)); err == nil {
			info.base = pageURL.ResolveReference(ref)
		}
	}
	return info
}

// primaryTag is the primary language subtag of a language tag or locale
// ("en-US", "pt_BR", "de"), lower-cased, or "" when there is none.
func primaryTag(tag string) string {
	tag = strings.TrimSpace(tag)
	if i := strings.IndexAny(tag, "-_,; "); i >= 0 {
		tag = tag[:i]
	}
	if len(tag) < 2 || len(tag) > 3 {
		return ""
	}
	for i := 0; i < len(tag); i++ {
		c := tag[i] | 0x20
		if c < 'a' || c > 'z' {
			return ""
		}
	}
	return strings.ToLower(tag)
}

// langSample is how much of the text language detection reads: enough for
// a reliable guess, little enough to cost next to nothing.
const langSample = 1024

// minLangLetters is the least text, in letters, a detected language is
// reported for: a detector shown "hi" answers with some language (Zulu),
// which is a guess, not evidence.
const minLangLetters = 40

// language is the article's language: detected from its text when there
// is enough of it and the detector is confident, else the page's declared
// language (<html lang>, content-language), else "" — never an unsure
// guess.
//
// guess is what the same detector (whatlanggo) answered for the whole
// article when an extractor already ran it (go-trafilatura does), else
// "". When it is the declared language, text and page agree and that is
// the answer: detecting again would cost about half a millisecond a page
// (whatlanggo weighs every language's profile whatever the text's size)
// to learn what the two already say.
func language(text, declared, guess string) string {
	if declared != "" && guess == declared {
		return declared
	}
	if len(text) > langSample {
		cut := langSample
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	if countLetters(text) < minLangLetters {
		return declared
	}
	info := whatlanggo.Detect(text)
	if detected := info.Lang.Iso6391(); detected != "" && info.IsReliable() {
		return detected
	}
	return declared
}

func countLetters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// readabilityMeta fills res's empty metadata fields from readability's
// article metadata (<meta> tags and JSON-LD).
func readabilityMeta(res *Result, a *readability.Article) {
	if a == nil {
		return
	}
	set := func(dst *string, v string) {
		if *dst == "" {
			*dst = strings.TrimSpace(v)
		}
	}
	set(&res.Title, a.Title())
	set(&res.Byline, a.Byline())
	set(&res.SiteName, a.SiteName())
	meta := *a
	meta.Node = nil // Excerpt falls back to the first paragraph; we want the page's own
	set(&res.Description, meta.Excerpt())
	set(&res.Image, a.ImageURL())
}

// pageMeta sets res's title and byline from the page's clues (see
// chooseTitle and chooseByline), keeping the extractors' where the clues
// give none (the byline cleaned), takes the first date in the page's
// text for the publication date when nothing better was found, and the
// <meta> tags' image when the extractors gave none. rd is
// readability's article, or nil. The pipelines call it after cutting the
// headline from the text with the extractors' title: a product page's
// <h1> is often part of its content, and the text is scored as it was.
func pageMeta(res *Result, info pageInfo, rd *readability.Article) {
	if info.title != "" {
		res.Title = info.title
	}
	var rdByline string
	if rd != nil {
		rdByline = rd.Byline()
	}
	if info.clues != nil {
		if b := chooseByline(info.clues, rdByline); b != "" {
			res.Byline = b
		} else if b := cleanByline(res.Byline); b != "" {
			res.Byline = b
		}
	}
	if res.Published == "" {
		res.Published = info.textDate
	}
	if res.Image == "" && info.clues != nil {
		res.Image = pageImage(info.clues.meta, info.base)
	} else {
		res.Image = htmltag.ResolveURL(info.base, res.Image) // readeck's is as the page wrote it
	}
}

// pageImage is the lead image the page's <meta> tags name (og:image,
// image, twitter:image, as readability reads them), made absolute
// against base; "" when there is none.
func pageImage(meta map[string]string, base *url.URL) string {
	for _, k := range []string{"og:image", "image", "twitter:image"} {
		if v := meta[k]; v != "" {
			return htmltag.ResolveURL(base, v)
		}
	}
	return ""
}

// tidyMeta writes res's title, byline, site name and description each
// on one line, white space collapsed (a byline marked up over two
// lines), with the character references left in them decoded: a page's
// templates often escape a name twice, or escape one in JSON-LD, whose
// strings are not HTML ("Maria &amp; Katerina", "SQL &#x26; AI"), so that
// the parsed page states the reference, which no reader means to see (on
// WCXB, 3 of the 1,497 pages).
//
// A description that opens with a <p> tag is HTML, escaped into the
// attribute as some blogging engines write their excerpts ("<p>I did <a
// href=…>Advent of Code</a> again…"; 3 WCXB pages): its text is taken
// (see htmlDescription). Other angle brackets are text ("The <table>
// HTML element represents…").
func tidyMeta(res *Result) {
	res.Title, res.Byline, res.SiteName = tidyLine(res.Title), tidyLine(res.Byline), tidyLine(res.SiteName)
	if text, ok := htmlDescription(res.Description); ok {
		res.Description = text // its references decoded by the parser
	} else {
		res.Description = tidyLine(res.Description)
	}
}

// tidyLine is s with its character references decoded and its white
// space collapsed.
func tidyLine(s string) string {
	if strings.Contains(s, "&") {
		s = html.UnescapeString(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// maxHTMLDescription is the longest description htmlDescription parses:
// an excerpt is a paragraph or two; a page cannot make each request
// parse megabytes of markup nested thousands deep a second time.
const maxHTMLDescription = 4 << 10

// htmlDescription is the text of d (see nodeText) when d is HTML: it
// opens with a <p> tag and is at most maxHTMLDescription bytes.
func htmlDescription(d string) (string, bool) {
	if len(d) < 4 || len(d) > maxHTMLDescription || !strings.EqualFold(d[:2], "<p") || d[2] != '>' && d[2] != ' ' {
		return "", false
	}
	body := &html.Node{Type: html.ElementNode, DataAtom: atom.Body, Data: "body"}
	nodes, err := html.ParseFragment(strings.NewReader(d), body)
	if err != nil {
		return "", false
	}
	for _, n := range nodes {
		body.AppendChild(n)
	}
	return nodeText(body), true
}

// trimSiteName removes a trailing (or leading) " | Site", " - Site" or
// " — Site" from a title when Site is the page's site name, as a title
// element usually carries it and the headline does not.
func trimSiteName(title, site string) string {
	sk := normKey(site)
	if sk == "" {
		return title
	}
	for _, sep := range []string{" | ", " - ", " – ", " — ", " :: ", " · "} {
		if i := strings.LastIndex(title, sep); i > 0 && normKey(title[i+len(sep):]) == sk {
			return strings.TrimSpace(title[:i])
		}
		if i := strings.Index(title, sep); i > 0 && normKey(title[:i]) == sk {
			return strings.TrimSpace(title[i+len(sep):])
		}
	}
	return title
}
