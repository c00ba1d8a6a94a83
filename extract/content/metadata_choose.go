package content

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/webinfra/webinfra/internal/words"
)

// The choosers below were fitted on the WCXB development set's title,
// author and publish_date ground truth (see TestMetadataWCXB): generic
// signals, weighed in the order that scored best.

// titleSeparators set a site or section name off a headline in a <title>
// or og:title.
var titleSeparators = []string{" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " / ", " » ", " « "}

// maxSiteNameWords is the most words a title's last segment may have for
// chooseTitle to take it for a site or section name.
const maxSiteNameWords = 4

// maxHeadlineBytes is the longest <h1> taken for a headline.
const maxHeadlineBytes = 250

// minHeadlineOverlap is the least word overlap (Jaccard) an <h1> needs
// with the metadata's title to be taken for the headline.
const minHeadlineOverlap = 0.2

// chooseTitle is the article's headline: the <h1> that best agrees with
// the title the metadata states (og:title, twitter:title, JSON-LD
// headline, else <title>) when one shares a fifth of its words with it;
// else that title without its site name; else the first <h1> that is not
// the site's name. "" when the page states none.
func chooseTitle(c *pageClues, pageURL *url.URL) string {
	var stated string
	for _, t := range []string{c.meta["og:title"], c.meta["twitter:title"], c.ldFirst("headline"), c.docTitle} {
		if t = strings.Join(strings.Fields(t), " "); t != "" {
			stated = t
			break
		}
	}
	sites := c.siteNames(pageURL)
	stated = trimTitle(stated, sites)
	var best, first string
	bestScore := 0.0
	for _, h := range c.h1 {
		if len(h.text) > maxHeadlineBytes || sites.is(h.text) {
			continue
		}
		if first == "" {
			first = h.text
		}
		if s := wordOverlap(h.text, stated); s > bestScore {
			best, bestScore = h.text, s
		}
	}
	switch {
	case best != "" && bestScore >= minHeadlineOverlap:
		return best
	case stated != "":
		return stated
	case first != "":
		return first
	case len(c.h1) > 0:
		return c.h1[0].text
	}
	return ""
}

// siteNames is what a page calls its site, as normKey keys without
// spaces, and its host name without dots and dashes.
type siteNames struct {
	names []string
	host  string
}

// siteNames gathers the site's names: og:site_name, application-name and
// the like, the JSON-LD publisher, and the host name.
func (c *pageClues) siteNames(pageURL *url.URL) siteNames {
	var s siteNames
	for _, k := range []string{"og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site",
		"publisher", "twitter:app:name:iphone"} {
		if n := squashKey(strings.TrimPrefix(c.meta[k], "@")); n != "" {
			s.names = append(s.names, n)
		}
	}
	var pub []string
	for _, v := range c.ld {
		pub = ldValues(v, "publisher", 0, pub)
	}
	for i, p := range pub {
		if n := squashKey(p); i < 2 && n != "" {
			s.names = append(s.names, n)
		}
	}
	if pageURL != nil {
		s.host = strings.NewReplacer(".", "", "-", "").Replace(strings.ToLower(pageURL.Hostname()))
	}
	return s
}

// is reports whether text is the site's name: one of its names, or a
// word of three letters or more that its host name holds.
func (s siteNames) is(text string) bool {
	k := squashKey(text)
	if k == "" {
		return false
	}
	for _, n := range s.names {
		if n == k {
			return true
		}
	}
	return len(k) >= 3 && s.host != "" && strings.Contains(s.host, k)
}

// squashKey is normKey(s) without its spaces.
func squashKey(s string) string { return strings.ReplaceAll(normKey(s), " ", "") }

// trimTitle removes the site's name from a title: a last segment that is
// the site's name or at most maxSiteNameWords words, or a first segment
// that is the site's name, set off by one of titleSeparators; twice, for
// "Headline | Section | Site".
func trimTitle(title string, sites siteNames) string {
	for range 2 {
		cut := false
		for _, sep := range titleSeparators {
			if i := strings.LastIndex(title, sep); i > 0 {
				if tail := title[i+len(sep):]; sites.is(tail) || words.CountFields(normKey(tail)) <= maxSiteNameWords {
					title, cut = strings.TrimSpace(title[:i]), true
					break
				}
			}
			if i := strings.Index(title, sep); i > 0 && sites.is(title[:i]) {
				title, cut = strings.TrimSpace(title[i+len(sep):]), true
				break
			}
		}
		if !cut {
			break
		}
	}
	return title
}

// wordOverlap is the Jaccard similarity of two texts' sets of words.
func wordOverlap(a, b string) float64 {
	wa, wb := map[string]bool{}, map[string]bool{}
	for _, w := range strings.Fields(normKey(a)) {
		wa[w] = true
	}
	for _, w := range strings.Fields(normKey(b)) {
		wb[w] = true
	}
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	both := 0
	for w := range wa {
		if wb[w] {
			both++
		}
	}
	return float64(both) / float64(len(wa)+len(wb)-both)
}

// ldFirst is the first value of key in the page's JSON-LD.
func (c *pageClues) ldFirst(key string) string {
	for _, v := range c.ld {
		if vs := ldValues(v, key, 0, nil); len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}

// chooseByline is the article's author or authors, the first of, each
// cleaned by cleanByline: the JSON-LD author (every name of the first
// author value), <meta name=author>, an element whose class or id says
// author or byline, a rel=author link, readability's byline (rdByline),
// an itemprop=author element. "" when none gives a name.
func chooseByline(c *pageClues, rdByline string) string {
	var ld []string
	for _, v := range c.ld {
		if ld = ldAuthor(v, 0); ld != nil {
			break
		}
	}
	if s := cleanByline(strings.Join(ld, ", ")); s != "" {
		return s
	}
	if s := cleanByline(c.meta["author"]); s != "" {
		return s
	}
	for _, how := range []string{"class", "rel", "", "itemprop"} {
		if how == "" {
			if s := cleanByline(rdByline); s != "" {
				return s
			}
			continue
		}
		for _, a := range c.authors {
			if a.how != how {
				continue
			}
			if s := cleanByline(a.text); s != "" {
				return s
			}
		}
	}
	return ""
}

// ldAuthor is the names of the first "author" value in decoded JSON-LD
// (depth first), or nil.
func ldAuthor(v any, depth int) []string {
	if depth > 8 {
		return nil
	}
	switch v := v.(type) {
	case map[string]any:
		if a, ok := v["author"]; ok {
			if names := ldNames(a, nil); len(names) > 0 {
				return names
			}
		}
		for _, k := range slices.Sorted(maps.Keys(v)) { // in a fixed order: maps have none
			c := v[k]
			if k == "author" {
				continue
			}
			if names := ldAuthor(c, depth+1); names != nil {
				return names
			}
		}
	case []any:
		for _, c := range v {
			if names := ldAuthor(c, depth+1); names != nil {
				return names
			}
		}
	}
	return nil
}

// The parts of a byline that are not the names: a lead-in ("By",
// "Written by:", "Authors:", "via"), and what follows the names (a date,
// a separator, "Updated", a count, an e-mail address).
var (
	bylineLead = regexp.MustCompile(`(?i)^(?:\pL+\s+){0,4}?(?:by|authors?|via)\b\s*:?\s*`)
	bylineDate = regexp.MustCompile(`(?i)(\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?(\b` + monthRx +
		`\s+\d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+` + monthRx + `|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\b\d{1,2}\.\d{1,2}\.\d{4})`)
	bylineTail = regexp.MustCompile(`(?i)\s*(?:[•|»·—–\n✉<(\[]| - |\blast updated\b|\bupdated\b|\bposted\b|\bpublished\b|\bon\s*$|\s\d|\b\d+\s+\w+\s+ago\b|\S+@\S+)`)
	bylineOn   = regexp.MustCompile(`(?i)\s+on$`)
)

// notNames are bylines that name no one.
var notNames = map[string]bool{"the author": true, "author": true, "admin": true, "of this article": true,
	"guest": true, "staff": true, "editor": true, "anonymous": true, "unknown": true}

// maxBylineWords and maxBylineBytes bound a byline: longer, it is a bio
// or a sentence.
const (
	maxBylineWords = 8
	maxBylineBytes = 80
)

// cleanByline is the names in a byline: the lead-in and what follows the
// names removed, or "" when what is left is not names (no letters, an
// address, a placeholder such as "Admin", or too long).
func cleanByline(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\u00a0", " "))
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' }), " ")
	if loc := bylineLead.FindStringIndex(s); loc != nil {
		s = s[loc[1]:]
	}
	if loc := bylineDate.FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	if loc := bylineTail.FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	s = strings.Trim(strings.Join(strings.Fields(s), " "), " ,;:-–—|•·&")
	s = bylineOn.ReplaceAllString(s, "")
	switch {
	case !hasLetter(s), notNames[strings.ToLower(s)], strings.Contains(s, "@"), strings.HasPrefix(s, "http"),
		words.CountFields(s) > maxBylineWords, len(s) > maxBylineBytes:
		return ""
	}
	return s
}

// hasLetter reports whether s has a letter.
func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// maxDateDistance is how far (in elements) after the first <h1> a date in
// the text may be to count as the headline's date.
const maxDateDistance = 50

// textDates are the dates the page's text states: the first within
// maxDateDistance elements after the first <h1> (the headline's date
// line), and the first anywhere.
func (c *pageClues) textDates() (headline, first string) {
	h1 := 0
	if len(c.h1) > 0 {
		h1 = c.h1[0].order
	}
	for _, d := range c.dates {
		if first == "" {
			first = d.date
		}
		if d.order >= h1 && d.order-h1 <= maxDateDistance {
			return d.date, first
		}
	}
	return "", first
}
