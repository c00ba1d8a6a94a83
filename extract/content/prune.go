package content

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// prune removes, from readability's article, boilerplate that its
// scoring lets through:
//
//   - figure captions (<figcaption>), and page chrome elements (<header>,
//     <footer>, <nav>, <aside>) inside the article: photo credits, the
//     headline block with byline and date, share bars;
//   - lists, navs, divs, sections, asides and tables whose text is at
//     least 80% link text: menus, tag lists, related-story lists;
//   - elements whose class or id names them as boilerplate (see
//     hintedBoilerplate), the same kind of cue go-trafilatura's discard
//     rules use, unless the element holds over half of the article's
//     text (a wrapper around the whole article named "post-header-body"
//     must not take the article with it).
//
// Readability drops most of this itself when it scores containers, but
// not inside the container it picks. Measured on the benchmark each rule
// raises precision and leaves recall alone (see the package doc).
func prune(root *html.Node) {
	total, _ := linkText(root)
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode {
				if boilerplate(c, total) {
					n.RemoveChild(c)
				} else {
					walk(c)
				}
			}
			c = next
		}
	}
	walk(root)
}

// boilerplate reports whether prune drops n; total is the text length of
// the whole article.
func boilerplate(n *html.Node, total int) bool {
	switch atomOf(n) {
	case atom.Figcaption, atom.Header, atom.Footer, atom.Nav, atom.Aside:
		return true
	case atom.Ul, atom.Ol, atom.Div, atom.Section, atom.Table:
		text, linked := linkText(n)
		if text > 0 && linked*10 >= text*8 {
			return true
		}
	}
	if hintedBoilerplate(n) {
		text, _ := linkText(n)
		return text*2 <= total
	}
	return false
}

// Class and id words that name boilerplate. exactHints must be a whole
// word of the class or id (split at non-letters and camelCase humps:
// "post-date", "shareBar"), as they are common inside other words
// ("update", "subheader"); looseHints may be part of a word
// ("figcaption", "authorbox").
var (
	exactHints = []string{"header", "date", "time", "timestamp", "dateline", "photo", "print",
		"bio", "share", "sharing", "social", "tags", "ad", "ads", "promo", "sponsored",
		"subscribe", "copyright", "meta"}
	looseHints = []string{"caption", "byline", "newsletter", "gallery", "signup", "related", "sidebar",
		"credit", "author", "advert"}
)

// hintedBoilerplate reports whether n's class or id names it boilerplate.
func hintedBoilerplate(n *html.Node) bool {
	for _, at := range n.Attr {
		if at.Key != "class" && at.Key != "id" {
			continue
		}
		for _, w := range splitIdent(withoutPrintStyles(at.Val)) {
			for _, h := range exactHints {
				if w == h {
					return true
				}
			}
			for _, h := range looseHints {
				if strings.Contains(w, h) {
					return true
				}
			}
		}
	}
	return false
}

// withoutPrintStyles is a class value without its tokens that style the
// element for print (see printStyle); the value itself, not copied, when
// it names no print at all.
func withoutPrintStyles(v string) string {
	if !containsFold(v, "print") {
		return v
	}
	var kept []string
	for _, token := range strings.Fields(v) {
		if !printStyle(splitIdent(token)) {
			kept = append(kept, token)
		}
	}
	return strings.Join(kept, " ")
}

// printStyle reports whether a class token's words style the element for
// print ("hidden-print", "d-print-none", "print:hidden", "hide-for-print",
// "print:break-inside-avoid"): the hint "print" names a print button or
// link, not what a stylesheet leaves off paper, which a thread's comment
// section is as often as its share bar. (WCXB: a thread whose comments
// sat in a "post-comments hidden-print" block, 0.35 to 0.97, and a
// documentation page's links to related standards, −0.006.)
func printStyle(words []string) bool {
	if !slices.Contains(words, "print") {
		return false
	}
	for _, w := range words {
		switch w {
		case "hidden", "hide", "none", "no", "dn", "d", "break", "avoid":
			return true
		}
	}
	return false
}

// splitIdent splits a class or id value into lower-case words at
// anything but ASCII letters and at camelCase humps.
func splitIdent(v string) []string {
	var out []string
	start := -1
	prevLower := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		upper := c >= 'A' && c <= 'Z'
		letter := upper || (c >= 'a' && c <= 'z')
		if (!letter || (upper && prevLower)) && start >= 0 {
			out = append(out, strings.ToLower(v[start:i]))
			start = -1
		}
		if letter && start < 0 {
			start = i
		}
		prevLower = letter && !upper
	}
	if start >= 0 {
		out = append(out, strings.ToLower(v[start:]))
	}
	return out
}

// linkText counts the bytes of n's text, and those inside links.
func linkText(n *html.Node) (total, linked int) {
	var walk func(n *html.Node, inLink bool)
	walk = func(n *html.Node, inLink bool) {
		if n.Type == html.TextNode {
			k := len(strings.TrimSpace(n.Data))
			total += k
			if inLink {
				linked += k
			}
			return
		}
		if n.Type == html.ElementNode && atomOf(n) == atom.A {
			inLink = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inLink)
		}
	}
	walk(n, false)
	return
}

// stripAttrs removes class, id and style attributes from n's tree, as
// readability does when it is not asked to keep classes, but for the
// class of code (it names the code's language: "language-go").
func stripAttrs(n *html.Node) {
	if n.Type == html.ElementNode && len(n.Attr) > 0 {
		code := n.DataAtom == atom.Pre || n.DataAtom == atom.Code
		kept := n.Attr[:0]
		for _, a := range n.Attr {
			switch {
			case a.Key == "class" && code:
				kept = append(kept, a)
			case a.Key == "class", a.Key == "id", a.Key == "style":
			default:
				kept = append(kept, a)
			}
		}
		n.Attr = kept
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		stripAttrs(c)
	}
}
