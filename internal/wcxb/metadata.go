package wcxb

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// The metadata rules judge an extracted title, author or publication
// date against a page's ground truth. They are generic (nothing is keyed
// on a site) and the same for every extractor.

// foldCase is Unicode case folding; a cases.Caser keeps state, so each
// call makes its own.
func foldCase(s string) string { return cases.Fold().String(s) }

// typographic maps the typographic variants of quotes, dashes and spaces
// to their plain forms, so that "Don’t" and "Don't" compare equal.
var typographic = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u00ab", `"`, "\u00bb", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-",
	"\u00a0", " ", "\u2009", " ", "\u202f", " ", "\u200b", "",
)

// normText is s in NFC, case-folded, with typographic quotes and dashes
// made plain, whitespace collapsed, and punctuation, symbols and spaces
// trimmed from both ends.
func normText(s string) string {
	s = typographic.Replace(foldCase(norm.NFC.String(s)))
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
	})
}

// titleSeps separate a title's headline from a site or section name.
var titleSeps = []string{" | ", " - ", " :: ", " · ", " / "}

// maxSiteWords is the most words a title segment may have to count as a
// site or section name that SameTitle lets an extractor leave out.
const maxSiteWords = 4

// SameTitle reports whether an extracted title got is the true title:
// equal after normText (case folded, whitespace collapsed, quotes and
// dashes made plain, outer punctuation trimmed); or equal to the truth
// less its first or last segment when that segment is a short name (at
// most four words) set off by " | ", " - ", " – ", " — ", " :: ", " · "
// or " / " — the truth then keeps the site's name that the headline
// does not carry ("Sudo - ArchWiki" is matched by "Sudo"). An extracted
// title that adds a site name is wrong.
func SameTitle(truth, got string) bool {
	g := normText(got)
	if g == "" {
		return false
	}
	t := typographic.Replace(strings.Join(strings.Fields(truth), " "))
	if normText(t) == g {
		return true
	}
	for _, sep := range titleSeps {
		if i := strings.LastIndex(t, sep); i > 0 && len(strings.Fields(t[i+len(sep):])) <= maxSiteWords &&
			normText(t[:i]) == g {
			return true
		}
		if i := strings.Index(t, sep); i > 0 && len(strings.Fields(t[:i])) <= maxSiteWords &&
			normText(t[i+len(sep):]) == g {
			return true
		}
	}
	return false
}

// SameAuthor reports whether an extracted byline got names the true
// authors: the same set of names, each compared after normText, where a
// byline is split into names at ",", ";", "&" and the word "and", and a
// leading "By" (or "By:") is dropped; names compare after normText with
// their inner punctuation made spaces ("Dr. A. Smith" is "Dr A Smith").
// Order does not matter; a missing or extra name (or credential: "Jane
// Doe, MD" is two names) is wrong.
func SameAuthor(truth, got string) bool {
	t, g := authorNames(truth), authorNames(got)
	if len(t) == 0 || len(t) != len(g) {
		return false
	}
	for name := range t {
		if !g[name] {
			return false
		}
	}
	return true
}

// authorNames is the set of normalised names in a byline.
func authorNames(byline string) map[string]bool {
	s := strings.Join(strings.Fields(typographic.Replace(foldCase(byline))), " ")
	if rest, ok := strings.CutPrefix(s, "by"); ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, ":")) {
		s = strings.TrimPrefix(rest, ":")
	}
	s = strings.NewReplacer(",", "\x00", ";", "\x00", "&", "\x00", " and ", "\x00").Replace(" " + s + " ")
	names := map[string]bool{}
	for part := range strings.SplitSeq(s, "\x00") {
		if n := normName(part); n != "" {
			names[n] = true
		}
	}
	return names
}

// normName is a name after normText with its inner punctuation made
// spaces: "Dr. A. Smith" and "Dr A Smith" are the same name.
func normName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) || unicode.IsSymbol(r) {
			return ' '
		}
		return r
	}, normText(s))
	return strings.Join(strings.Fields(s), " ")
}

// SameDay reports whether an extracted date got (RFC 3339 or a
// full-date, YYYY-MM-DD, as the page states it) falls on the true
// publication day. The truth is a full-date, or a year and month
// (YYYY-MM) when that is all the page says, and then the same month is
// right. Days are compared as written, without converting zones.
func SameDay(truth, got string) bool {
	truth, got = strings.TrimSpace(truth), strings.TrimSpace(got)
	if len(got) < len("2006-01-02") || !isDate(got[:10]) || (len(truth) != 7 && len(truth) != 10) {
		return false
	}
	return strings.HasPrefix(got, truth)
}

// isDate reports whether s has the shape YYYY-MM-DD.
func isDate(s string) bool {
	for i := range len(s) {
		if i == 4 || i == 7 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) == 10
}
