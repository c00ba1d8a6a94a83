package content

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// pageClues is what a page says about its title, authors and dates, in
// its metadata and in its visible header, gathered in one walk. The
// choosers (chooseTitle, chooseAuthor, chooseDate) weigh them.
type pageClues struct {
	meta     map[string]string // lower-cased <meta> name, property or itemprop → first content
	docTitle string            // the first <title>
	h1       []headClue        // the page's <h1>s, in order (at most maxH1)
	ld       []any             // the decoded JSON-LD blocks

	authors []authorClue // elements marked as naming an author
	dates   []dateClue   // dates in <time> elements and in short texts

	// sheets are the texts of the page's own stylesheets, its <style>
	// elements (not those in a template, SVG or <noscript>, which a
	// browser running scripts does not apply to the page).
	sheets []string
}

// headClue is a heading's text and where it is in the page.
type headClue struct {
	text  string
	order int // the element's position in document order
}

// authorClue is an element marked as naming an author.
type authorClue struct {
	text  string
	how   string // "itemprop", "rel" or "class"
	order int
}

// dateClue is a date stated in the page's visible text or a <time>.
type dateClue struct {
	date    string // YYYY-MM-DD
	updated bool   // marked or worded as an update, not the publication
	order   int
}

// maxH1 is how many <h1>s pageClues keeps.
const maxH1 = 4

// maxClueText is the longest text an author or date clue is read from:
// longer, it is a paragraph, not a byline.
const maxClueText = 200

// maxAuthorClues bounds the author clues kept: the first few are the
// byline's, and a page of nested author-marked elements costs no more.
const maxAuthorClues = 32

// readClues walks doc once and gathers its clues.
func readClues(doc *html.Node) *pageClues {
	c := &pageClues{meta: map[string]string{}}
	var srcs []string
	order := 0
	// updated is whether an ancestor's class, id or itemprop marks what
	// it holds as an update (see markedUpdated).
	var walk func(n *html.Node, updated bool)
	walk = func(n *html.Node, updated bool) {
		if n.Type == html.TextNode {
			// findTextDate passes over long text and text without a
			// year at once.
			if d, upd, ok := findTextDate(n.Data); ok {
				c.dates = append(c.dates, dateClue{d, upd || updated || updatedWords(n), order})
			}
			return
		}
		if n.Type != html.ElementNode && n.Type != html.DocumentNode {
			return
		}
		order++
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script:
				if htmltag.IsJSONLD(n) && n.FirstChild != nil {
					srcs = append(srcs, n.FirstChild.Data)
				}
				return
			case atom.Style:
				for t := n.FirstChild; t != nil; t = t.NextSibling {
					if t.Type == html.TextNode {
						c.sheets = append(c.sheets, t.Data)
					}
				}
				return
			case atom.Template, atom.Svg, atom.Noscript, atom.Select, atom.Button:
				return
			case atom.Meta:
				readMeta(c.meta, n)
				return
			case atom.Title:
				if c.docTitle == "" && n.FirstChild != nil {
					c.docTitle = strings.Join(strings.Fields(n.FirstChild.Data), " ")
				}
				return
			case atom.H1:
				if len(c.h1) < maxH1 {
					if t := nodeText(n); t != "" {
						c.h1 = append(c.h1, headClue{t, order})
					}
				}
			}
			updated = updated || markedUpdated(n)
			switch n.DataAtom {
			case atom.Time:
				dt := htmltag.Attr(n, "datetime")
				if k := strings.ToLower(htmltag.Attr(n, "itemprop")); k != "" && dt != "" && c.meta[k] == "" {
					c.meta[k] = dt
				}
				if d := formatStated(dt); d != "" {
					upd := updated || updatedWords(n)
					c.dates = append(c.dates, dateClue{d[:10], upd, order})
					return
				}
			}
			if how := authorMark(n); how != "" && len(c.authors) < maxAuthorClues {
				if t, ok := shortText(n, maxClueText); ok && t != "" {
					c.authors = append(c.authors, authorClue{t, how, order})
				}
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch, updated)
		}
	}
	walk(doc, false)
	c.ld = decodeJSONLD(srcs)
	return c
}

// readMeta records a <meta>'s content under its lower-cased name,
// property, itemprop and http-equiv, keeping the first of each.
func readMeta(meta map[string]string, n *html.Node) {
	v := strings.TrimSpace(html.UnescapeString(htmltag.Attr(n, "content")))
	if v == "" {
		return
	}
	for _, k := range []string{htmltag.Attr(n, "property"), htmltag.Attr(n, "name"),
		htmltag.Attr(n, "itemprop"), htmltag.Attr(n, "http-equiv")} {
		if k = strings.ToLower(strings.TrimSpace(k)); k != "" && meta[k] == "" {
			meta[k] = v
		}
	}
}

// authorMark says how an element is marked as naming an author:
// "itemprop" (itemprop=author), "rel" (rel=author), "class" (a class or
// id of author or byline), or "" when it is not.
func authorMark(n *html.Node) string {
	if strings.Contains(strings.ToLower(htmltag.Attr(n, "itemprop")), "author") {
		return "itemprop"
	}
	if strings.Contains(strings.ToLower(htmltag.Attr(n, "rel")), "author") {
		return "rel"
	}
	for _, v := range [...]string{htmltag.Attr(n, "class"), htmltag.Attr(n, "id")} {
		if !containsFold(v, "author") && !containsFold(v, "byline") {
			continue // the common case, without lower-casing
		}
		for f := range strings.FieldsSeq(strings.ToLower(v)) {
			if (authorWord(f) || strings.Contains(f, "byline")) && !strings.Contains(f, "avatar") &&
				!strings.Contains(f, "img") && !strings.Contains(f, "image") && !strings.Contains(f, "photo") {
				return "class"
			}
		}
	}
	return ""
}

// authorWord reports whether tok, a lower-cased class or id token, holds
// the word author (post-author, authorname, authors) rather than only
// the start of another word: authorization, authoring and authority
// mark a permission, a how-to or a source, not a person.
func authorWord(tok string) bool {
	for i := 0; ; {
		j := strings.Index(tok[i:], "author")
		if j < 0 {
			return false
		}
		end := i + j + len("author")
		if end == len(tok) || tok[end] != 'i' {
			return true
		}
		i = end
	}
}

// markedUpdated reports whether an element's class, id or itemprop says
// that the dates it holds are updates ("updated", "date-modified").
func markedUpdated(n *html.Node) bool {
	for _, k := range [...]string{"class", "id", "itemprop"} {
		if v := htmltag.Attr(n, k); containsFold(v, "updat") || containsFold(v, "modif") {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains w, a word of lower-case ASCII
// letters, ignoring case: strings.Contains(strings.ToLower(s), w), without
// lower-casing s when it is ASCII (class names almost always are; outside
// ASCII, lower-casing can make ASCII letters: the Kelvin sign is k), and
// with strings.Contains when it has no capitals (most class names).
func containsFold(s, w string) bool {
	capitals := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return strings.Contains(strings.ToLower(s), w)
		case 'A' <= c && c <= 'Z':
			capitals = true
		}
	}
	if !capitals {
		return strings.Contains(s, w)
	}
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for j < len(w) && s[i+j]|0x20 == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// updatedWords reports whether the text just before n (in its parent, up
// to n, the nearest maxClueText bytes) words a date as an update
// ("Updated:", "Last modified").
func updatedWords(n *html.Node) bool {
	var parts []string
	size := 0
	for s := n; s != nil && size < maxClueText; s = s.PrevSibling {
		var t string
		switch {
		case s.Type == html.TextNode:
			t = s.Data
		case s.Type == html.ElementNode && s != n:
			t, _ = shortText(s, maxClueText-size)
		}
		parts = append(parts, t)
		size += len(t)
	}
	slices.Reverse(parts)
	t := strings.ToLower(strings.Join(parts, " "))
	return strings.Contains(t, "updated") || strings.Contains(t, "modified") || strings.Contains(t, "reviewed")
}

// shortText is nodeText(n) when it is at most limit bytes; else "" and
// false, having read no more than about twice limit bytes of n's text,
// so that asking it of every element stays linear in the page.
func shortText(n *html.Node, limit int) (string, bool) {
	size := 0
	var fits func(*html.Node) bool
	fits = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				if size += collapsedLen(c.Data); size > 2*limit {
					return false
				}
			} else if c.Type == html.ElementNode && !unreadable(c) && !fits(c) {
				return false
			}
		}
		return true
	}
	if !fits(n) {
		return "", false
	}
	t := nodeText(n)
	return t, len(t) <= limit
}

// collapsedLen is len(s) with each run of whitespace counted as one byte.
func collapsedLen(s string) int {
	n, space := 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f':
			if !space {
				n++
			}
			space = true
		default:
			n++
			space = false
		}
	}
	return n
}

// ldValues gathers, depth first, the values of key in decoded JSON-LD: a
// string as it is, an object's "name", and each element of an array.
func ldValues(v any, key string, depth int, out []string) []string {
	if depth > 8 {
		return out
	}
	switch v := v.(type) {
	case map[string]any:
		if x, ok := v[key]; ok {
			out = ldNames(x, out)
		}
		for _, k := range slices.Sorted(maps.Keys(v)) { // in a fixed order: maps have none
			c := v[k]
			if k != key {
				out = ldValues(c, key, depth+1, out)
			}
		}
	case []any:
		for _, c := range v {
			out = ldValues(c, key, depth+1, out)
		}
	}
	return out
}

// ldNames appends a JSON-LD value's names: a string, an object's "name",
// or those of an array's elements.
func ldNames(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		if s := strings.TrimSpace(v); s != "" {
			out = append(out, s)
		}
	case map[string]any:
		if s, ok := v["name"].(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	case []any:
		for _, c := range v {
			out = ldNames(c, out)
		}
	}
	return out
}
