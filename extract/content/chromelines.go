package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// A short line of the extraction whose text is also the text of an
// element of the page's chrome (its menus, header, footer, sidebars) is
// that chrome repeated inside the content's container: a menu's
// "Platform Overview" or "Sign In" in a hero's toolbar, a footer's
// "Privacy Policy" under the last paragraph. The extractors judge a block
// by its own markup and cannot see the repetition; boilerplate detection
// by a site's template (text a site repeats on every page) reads the same
// signal across pages, this reads it within one.
//
// maxChromeLineWords and maxChromeLineBytes bound such a line: a
// sentence the page's footer happens to repeat is content. Headings stay
// whatever they repeat (a documentation page's sections are its
// sidebar's entries too).
const (
	maxChromeLineWords = 6
	maxChromeLineBytes = 64
)

// chromeLabels collects the keys (labelKey) of the short texts of doc's
// chrome: <nav> and <aside>, the page's own <header> and <footer> (not
// an article's or a section's), and the elements whose ARIA landmark role
// is chrome (chromeRoles). Each element's text is read up to
// maxChromeLineBytes or 64 nodes, so the walk is linear in doc's size.
func chromeLabels(doc *html.Node) map[string]bool {
	labels := map[string]bool{}
	var walk func(n *html.Node, inChrome, inSection bool)
	walk = func(n *html.Node, inChrome, inSection bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || unrendered(c) {
				continue
			}
			chrome, section := inChrome, inSection
			switch c.DataAtom {
			case atom.Nav, atom.Aside:
				chrome = true
			case atom.Header, atom.Footer:
				chrome = chrome || !inSection
			case atom.Article, atom.Main, atom.Section:
				section = true
			}
			chrome = chrome || chromeRoles[htmltag.Attr(c, "role")]
			if chrome {
				if text, ok := lineText(c, maxChromeLineBytes); ok {
					if key := labelKey(text); key != "" && len(strings.Fields(key)) <= maxChromeLineWords {
						labels[key] = true
					}
				}
			}
			walk(c, chrome, section)
		}
	}
	walk(doc, false, false)
	return labels
}

// dropChromeLines removes from root the line blocks whose text is one of
// the chrome's (chromeLabels), but headings: real ones, and lines all in
// bold, which pages use as headings, and whose text a table of contents
// repeats. Only blocks: a list item's title that is a text or a link
// before its description is a table of contents' entry too.
func dropChromeLines(root *html.Node, chrome map[string]bool) {
	if len(chrome) == 0 {
		return
	}
	dropLines(root, maxChromeLineBytes, false, func(block *html.Node, key string) bool {
		return chrome[key] && !htmltag.IsHeading(atomOf(block)) && !allBold(block)
	})
}

// allBold reports whether every word of n is inside a <strong> or <b>
// (n's text is short: see dropLines).
func allBold(n *html.Node) bool {
	if bold(n) {
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return false
		case c.Type == html.ElementNode && !allBold(c):
			return false
		}
	}
	return true
}

func bold(n *html.Node) bool {
	a := atomOf(n)
	return a == atom.Strong || a == atom.B
}
