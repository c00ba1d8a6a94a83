package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
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
// It returns the page's footers too: its outermost chrome elements that
// are a <footer> or say role="contentinfo" (see footerOnly).
func chromeLabels(doc *html.Node) (labels map[string]bool, footers []*html.Node) {
	labels = map[string]bool{}
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
			role := htmltag.Attr(c, "role")
			chrome = chrome || chromeRoles[role]
			if chrome && !inChrome && (c.DataAtom == atom.Footer || role == "contentinfo") {
				footers = append(footers, c)
			}
			if chrome {
				if text, ok := lineText(c, maxChromeLineBytes); ok {
					if key := labelKey(text); key != "" && words.CountFields(key) <= maxChromeLineWords {
						labels[key] = true
					}
				}
			}
			walk(c, chrome, section)
		}
	}
	walk(doc, false, false)
	return labels, footers
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

// An extraction whose text is the page's footer's is no content: the page
// is a shell whose content its scripts fetch (a store's product page
// served as a header, an empty root <div> and its footer), and the
// extractors, finding no article, fell back on the only text there was,
// the footer's links or its newsletter notice. The caller is told there
// is no content (Result.NoContent) rather than handed the footer.
//
// Only a <footer> (or role="contentinfo") counts, not the other chrome:
// a page whose <aside> is left unclosed holds its whole article inside
// it, and one of the WCXB development pages does. Of the text's words,
// counted, minFooterShare must be the footers'. (Not its word 4-grams,
// as compare's shingles: a footer's lines are short, and those that
// span two of them, which the extraction joins differently, are half.)
//
// On the WCXB development set this found no content on five pages whose
// ground truth has none (three product pages, a listing, a service page),
// and on one listing whose truth has content and whose extraction was its
// footer all the same (F1 0.06): accurate mode 0.8566 to 0.8599, products
// 0.6327 to 0.6579, listings 0.6768 to 0.6863, service pages 0.8296 to
// 0.8356. Fast mode (0.8272 to 0.8282) lost four pages whose extraction
// was mostly the footer (F1 0.19 at most) and gained two. The article
// benchmark did not change.
const minFooterShare = 0.9

// footerOnly reports whether text is footers' text (see minFooterShare).
func footerOnly(text string, footers []*html.Node) bool {
	if text == "" || len(footers) == 0 {
		return false
	}
	var b strings.Builder
	for _, f := range footers {
		b.WriteString(renderText(f))
		b.WriteByte('\n')
	}
	// The footers' text must be about as long as text at least: a page's
	// footer repeats a few of its lines, not its content.
	if float64(b.Len()) < minFooterShare*float64(len(text)) {
		return false
	}
	footer := map[string]int{}
	eachWord(strings.ToLower(b.String()), func(w string) { footer[w]++ })
	words, in := 0, 0
	eachWord(strings.ToLower(text), func(w string) {
		words++
		if footer[w] > 0 {
			footer[w]--
			in++
		}
	})
	return float64(in) >= minFooterShare*float64(words)
}
