package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// dropAssistiveOnly removes from doc what only assistive technology
// reads, which a reader of the page never sees (sheets are the page's
// stylesheets: see visuallyHiddenClasses):
//
//   - text hidden off-screen for screen readers by the CSS frameworks'
//     utility classes (Bootstrap's and Tailwind's sr-only, Bootstrap 5's
//     and HTML5 Boilerplate's visually-hidden, WordPress's
//     screen-reader-text, Foundation's show-for-sr, GOV.UK's
//     govuk-visually-hidden): "Current price", "Opens in a new
//     window", "Rated 4.5 out of 5";
//   - skip links, the in-page links a keyboard user tabs to first
//     ("Skip to main content", WCAG's bypass blocks): a link to a
//     fragment of the page whose class or id says skip or bypass, or
//     whose text starts with "skip to".
//
// The extractors keep both (an off-screen span is not marked hidden). On
// the WCXB development set dropping them changed 69 pages, 44 for the
// better: F1 0.8382 to 0.8395 (accurate) and 0.8054 to 0.8070 (fast),
// collections 0.643 to 0.660 with the cards' "Regular price" labels
// gone, `without` 5.8% to 5.7%.
//
// The walk is linear in the page: a skip link's text is read only up
// to a short bound (shortText).
func dropAssistiveOnly(doc *html.Node, sheets []string) {
	hiddenClasses := visuallyHiddenClasses(sheets)
	var drop []*html.Node
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Namespace != "" {
			continue
		}
		// A heading for screen readers ("Posts", "Product details")
		// still says where a section starts (see outsideContent), and
		// text standing in for what is hidden from them is the only copy
		// of it the extractors read.
		if ((screenReaderOnly(n) || hasClassOf(n, hiddenClasses)) && !htmltag.IsHeading(n.DataAtom) && !standsIn(n)) || skipLink(n) {
			drop = append(drop, n)
		}
	}
	detach(drop)
}

// detach removes each of nodes from its parent. Nodes already detached
// with an ancestor (a walk collects an element's descendants too) are
// left as they are.
func detach(nodes []*html.Node) {
	for _, n := range nodes {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
}

// screenReaderOnly reports whether n's class is one of the frameworks'
// classes that hide an element off-screen, for screen readers only
// (their "-focusable" variants show it on focus: a skip link).
func screenReaderOnly(n *html.Node) bool {
	class := htmltag.Attr(n, "class")
	if !mayHideForScreenReaders(class) {
		return false
	}
	for c := range strings.FieldsSeq(class) {
		c = strings.TrimSuffix(strings.ToLower(c), "-focusable")
		switch c {
		case "sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text", "screen-reader-only",
			"screenreader-only", "show-for-sr", "element-invisible":
			return true
		}
		if strings.HasSuffix(c, "-visually-hidden") || strings.HasSuffix(c, "-sr-only") {
			return true
		}
	}
	return false
}

// mayHideForScreenReaders reports whether a class attribute holds a
// word every class screenReaderOnly knows holds ("sr", "hidden",
// "screen", "invisible"): a quick look that spares reading each class
// of most elements.
func mayHideForScreenReaders(class string) bool {
	for i := 0; i < len(class); i++ {
		if c := class[i]; 'A' <= c && c <= 'Z' {
			class = strings.ToLower(class)
			break
		}
	}
	return strings.Contains(class, "sr") || strings.Contains(class, "hidden") ||
		strings.Contains(class, "screen") || strings.Contains(class, "invisible")
}

// hasClassOf reports whether one of n's classes is in classes.
func hasClassOf(n *html.Node, classes map[string]bool) bool {
	if len(classes) == 0 {
		return false
	}
	for c := range strings.FieldsSeq(htmltag.Attr(n, "class")) {
		if classes[c] {
			return true
		}
	}
	return false
}

// skipLink reports whether n is a skip link: a link to a fragment of the
// page named a skip or bypass link by its class or id, or whose text
// starts with "skip to".
func skipLink(n *html.Node) bool {
	if n.DataAtom != atom.A || !strings.HasPrefix(htmltag.Attr(n, "href"), "#") {
		return false
	}
	for _, at := range n.Attr {
		if at.Key != "class" && at.Key != "id" {
			continue
		}
		for _, w := range splitIdent(at.Val) {
			if w == "skip" || w == "bypass" {
				return true
			}
		}
	}
	// A skip link's text is short; shortText stops reading a long one
	// early, so that asking every fragment link stays linear.
	text, _ := shortText(n, 80)
	return strings.HasPrefix(strings.ToLower(text), "skip to ")
}

// standsIn reports whether n, screen-reader-only, stands in for a
// sibling element hidden from assistive technology (aria-hidden): the
// visible price WooCommerce hides from screen readers beside its
// "Current price is: $28.00." for them. The extractors drop what is
// aria-hidden, so n is the only copy of that text they see.
func standsIn(n *html.Node) bool {
	prev, next := n.PrevSibling, n.NextSibling
	for spaceBetween(prev) {
		prev = prev.PrevSibling
	}
	for spaceBetween(next) {
		next = next.NextSibling
	}
	return ariaHidden(prev) || ariaHidden(next)
}

// spaceBetween reports whether n is white space between elements.
func spaceBetween(n *html.Node) bool {
	return n != nil && n.Type == html.TextNode && strings.TrimSpace(n.Data) == ""
}

// ariaHidden reports whether n is an element hidden from assistive
// technology.
func ariaHidden(n *html.Node) bool {
	return n != nil && n.Type == html.ElementNode && htmltag.Attr(n, "aria-hidden") == "true"
}
