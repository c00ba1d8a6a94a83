package content

import (
	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// chromeRoles are the ARIA landmark roles of page chrome, each the role
// of an element the extractors already delete or down-weigh by its tag:
// banner is the page's <header>, navigation a <nav>, contentinfo the
// page's <footer>, complementary an <aside>, and search a search form.
var chromeRoles = map[string]bool{
	"banner": true, "navigation": true, "contentinfo": true, "complementary": true, "search": true,
}

// liveRoles are the ARIA roles of live regions whose text is the page's
// passing state, never its content: status (an advisory message: "Added
// to your cart", "24 results"), timer (a sale's countdown) and marquee (a
// scrolling ticker). Alert, log and tooltip are not among them: sites
// mark documentation's notes as alerts (Bootstrap's alert component),
// a log is a chat's transcript, and Medium wraps its listings' entries
// in tooltips. On the WCXB development set the three changed four pages,
// all for the better (products 0.6713 to 0.6716, collections 0.6829 to
// 0.6833), in both modes.
var liveRoles = map[string]bool{"status": true, "timer": true, "marquee": true}

// dropLandmarkChrome removes from doc the elements an ARIA landmark role
// marks as page chrome (chromeRoles), and live regions (liveRoles).
// go-trafilatura and readability know a header, a menu or a footer by
// its tag only, so a site built of <div role="banner"> and <div
// role="navigation"> had its language menu or its footer links taken
// for the article (a store's product pages, a course catalogue, GitHub's
// listings).
//
// An element that holds the page's headline, its first <h1>, stays (a
// hero section marked banner). Only the first: a sidebar may hold a
// closed dialog's <h1> further down (Stack Exchange's), and guarding the
// first four, as the item-grid search does, kept seven threads'
// sidebars.
//
// On the WCXB development set this changed 42 pages, 37 for the better:
// F1 0.8395 to 0.8440 (accurate mode), products 0.600 to 0.624,
// listings 0.636 to 0.658, forums 0.695 to 0.701; on the article
// benchmark accurate mode did not change, fast mode 0.9721 to 0.9719.
// The page-type detector reads the page before (its model was trained
// on pages with their chrome).
func dropLandmarkChrome(doc *html.Node) {
	headline := headlineAncestors(doc, 1)
	var drop []*html.Node
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Namespace != "" || headline[n] {
			continue
		}
		if role := htmltag.Attr(n, "role"); chromeRoles[role] || liveRoles[role] {
			drop = append(drop, n)
		}
	}
	detach(drop)
}
