package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// consentBudget bounds the nodes dropConsentBanners renders to read the
// banners' text: far more than a page's banners hold, while a hostile
// page of nested elements each named a cookie banner costs no more.
const consentBudget = 1 << 20

// dropConsentBanners removes from doc the cookie-consent banners and
// dialogs that sites put outside their content: elements whose class or
// id names a consent banner (consentNamed) and whose text speaks of
// cookies. The extractors know them by neither: on a page whose content
// is cards of links, which both drop as link lists, the banner's
// paragraph was the one piece of prose left, and came out as the
// article (a shop's category page: the whole answer was "With our
// cookies we would like to offer you the best shopping experience…").
//
// Nothing inside <main> or <article> is taken (a documentation page may
// show a consent banner's markup or discuss one), nor <html>, <head> or
// <body> (themes name the body for the consent state: "cookies-not-set"),
// nor an element that holds the page's headline.
//
// On the WCXB development set this changed 8 pages in accurate mode, 6
// for the better (that category page 0.08 to 0.75, a thread 0.17 to
// 0.69), F1 0.8657 to 0.8667, listings 0.6978 to 0.7054; fast mode 9
// pages, 8 for the better, 0.8393 to 0.8406, and the article benchmark
// 0.9715 to 0.9720 (accurate unchanged). The pages that lost did so by
// the extractors' choice among what was left (a Steam page's fast-mode
// cut), not by losing content.
func dropConsentBanners(doc *html.Node) {
	var headline map[*html.Node]bool // found at the first candidate
	budget := consentBudget
	banner := func(n *html.Node) bool {
		if !consentNamed(n) {
			return false
		}
		if headline == nil {
			headline = headlineAncestors(doc, 1)
		}
		if headline[n] {
			return false
		}
		text, ok := boundedText(n, &budget)
		return ok && containsFold(text, "cookie")
	}
	var drop []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && budget > 0; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Main, atom.Article:
				continue
			case atom.Html, atom.Head, atom.Body:
			default:
				if banner(c) {
					drop = append(drop, c)
					continue
				}
			}
			walk(c)
		}
	}
	walk(doc)
	detach(drop)
}

// consentNamed reports whether one of n's classes or its id names a
// consent banner: a word of it (see splitIdent) is "consent" or "gdpr",
// or "cookie" with another word ("cookie-notice", "cookieBar"), or one
// word made on it (Cookiebot's "CybotCookiebotDialog", "cookielawinfo",
// "cmplz-cookiebanner"). A bare "cookies" is left: it is a section's
// anchor on a page about them.
func consentNamed(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" {
			continue
		}
		// Most classes name none: they are not split.
		if !containsFold(a.Val, "cookie") && !containsFold(a.Val, "consent") && !containsFold(a.Val, "gdpr") {
			continue
		}
		for name := range strings.FieldsSeq(a.Val) {
			words := splitIdent(name)
			for _, w := range words {
				switch w {
				case "consent", "gdpr":
					return true
				case "cookie", "cookies":
					if len(words) > 1 {
						return true
					}
				default:
					if strings.HasPrefix(w, "cookie") {
						return true
					}
				}
			}
		}
	}
	return false
}
