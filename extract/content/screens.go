package content

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// desktopWidth is the viewport width, in CSS pixels, whose layout the
// extraction reads: the browser renderer's default
// (fetch/render.DefaultViewportWidth), a laptop's screen.
const desktopWidth = 1280

// A responsive page may hold the same content twice or thrice, laid out
// once for each screen size, and show one copy at a time by CSS media
// queries: Wix's "ssr-variant" sections, Bootstrap's d-none d-md-block
// beside d-block d-md-none, Tailwind's lg:hidden, Elementor's
// elementor-hidden-desktop. A browser draws one copy; the extractors,
// which read no stylesheet, keep every copy, so a blog post came out
// three times over (F1 0.50) and a listing's items twice.
//
// dropOtherScreens removes from doc each element that is hidden at
// desktopWidth by such a rule, of the page's stylesheets (sheets) or of
// a CSS framework (see otherScreenOnly), and whose text another
// element, drawn at that width, holds too (see copiedElsewhere). Text
// laid out for small screens only and said nowhere else stays: a
// rule that hides a tab's panel until a script shows it reads the same
// as one that hides a copy for phones, and only the copy is a copy.
// Hiding that is not tied to the screen's width (display:none at every
// width, a script's toggle) is left to the extractors as before (see
// dropHidden: such elements hold a product's description and a
// carousel's slides the ground truth counts).
func dropOtherScreens(doc *html.Node, sheets []string) {
	sheet := responsiveHiddenClasses(sheets)
	var hidden, never []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.Namespace != "" {
				continue
			}
			switch otherScreenOnly(c, sheet) {
			case hiddenEverywhere:
				never = append(never, c)
				continue
			case hiddenOnDesktop:
				hidden = append(hidden, c)
				continue
			}
			walk(c)
		}
	}
	walk(doc)
	if len(hidden) > 0 {
		detach(copiedElsewhere(doc, hidden))
	}
	detach(never)
}

// copiedElsewhere returns those of hidden (disjoint subtrees of doc)
// whose text is at least nine tenths in blocks that doc has, word for
// word (case and whitespace aside), outside every one of hidden. Blocks
// are compared by the hash of their words (see sumTexts), so the work is
// linear in the page. A hidden element with no text is not a copy.
func copiedElsewhere(doc *html.Node, hidden []*html.Node) []*html.Node {
	sums := map[*html.Node]textSum{}
	own := make([]textSum, len(hidden))
	worded := false
	for i, n := range hidden {
		own[i] = sumTexts(n, sums, true) // phrasing content too, which sums lacks
		worded = worded || own[i].bytes > 0
	}
	if !worded {
		return nil // a menu button's icon: no text to look for
	}
	sumTexts(doc, sums, true)
	out := map[*html.Node]bool{}
	for _, n := range hidden {
		out[n] = true
	}
	drawn := map[uint64]bool{} // the hashes of the blocks outside hidden
	var collect func(n *html.Node)
	collect = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || out[c] {
				continue
			}
			if s, ok := sums[c]; ok && s.bytes > 0 {
				drawn[s.hash] = true
			}
			collect(c)
		}
	}
	collect(doc)
	// covered is the bytes of n's text in blocks drawn elsewhere.
	var covered func(n *html.Node) int
	covered = func(n *html.Node) int {
		if s, ok := sums[n]; ok && drawn[s.hash] {
			return s.bytes
		}
		total := 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				total += covered(c)
			}
		}
		return total
	}
	var copies []*html.Node
	for i, n := range hidden {
		if s := own[i]; s.bytes > 0 && (drawn[s.hash] || 10*covered(n) >= 9*s.bytes) {
			copies = append(copies, n)
		}
	}
	return copies
}

// screens is where a framework's or a page's classes show an element.
type screens int

const (
	shown            screens = iota // at desktopWidth, as far as the classes say
	hiddenOnDesktop                 // on screens desktopWidth wide, and shown on some other
	hiddenEverywhere                // at every width: the author took it out
)

// otherScreenOnly says where n's classes show it: hidden at
// desktopWidth by its page's media queries (one of its classes is in
// sheet: see responsiveHiddenClasses) or by a CSS framework's
// responsive display classes, which the page links rather than inlines:
// Bootstrap 4 and 5 (d-none d-md-block, d-lg-none), Bootstrap 3
// (hidden-lg, visible-xs), Tailwind (md:hidden, hidden lg:flex),
// Foundation (hide-for-large, show-for-small-only), Bulma
// (is-hidden-desktop) and Elementor (elementor-hidden-desktop). A class
// that hides at every width is not one of them, a script's toggle as
// often as not: an element of Bootstrap's or Tailwind's counts only
// when it has a display class for a breakpoint. Two kinds are hidden at
// every width and not by a script, hiddenEverywhere: Elementor's
// classes for all three of its screens together, a section its author
// switched off, and Webflow's w-condition-invisible and w-dyn-hide,
// which its stylesheet hides for good where the site's conditional
// visibility said no when the page was published (a blog post's
// fallback summary, a second copy of its lead).
func otherScreenOnly(n *html.Node, sheet map[string]bool) screens {
	class := htmltag.Attr(n, "class")
	if class == "" || len(sheet) == 0 && !frameworkScreens(class) {
		return shown
	}
	var bootstrap, tailwind breakpoints
	bs3Visible, bs3Shown := false, false
	elementor := 0 // Elementor's screens it is hidden on
	hidden, never := false, false
	for c := range strings.FieldsSeq(class) {
		bs3Screen := bootstrap3Visible(c)
		switch {
		case sheet[c]:
			hidden = true
		case c == "w-condition-invisible" || c == "w-dyn-hide":
			never = true
		case c == "elementor-hidden-desktop" || c == "elementor-hidden-tablet" || c == "elementor-hidden-mobile":
			elementor++
			hidden = hidden || c == "elementor-hidden-desktop"
		case c == "hidden-lg" || c == "hide-for-large" || c == "show-for-small-only" || c == "show-for-medium-only" ||
			c == "hide-for-medium" || c == "is-hidden-desktop" || c == "is-hidden-widescreen" ||
			c == "is-hidden-tablet" || c == "is-hidden-widescreen-only":
			hidden = true
		case bs3Screen != "":
			bs3Visible = true
			bs3Shown = bs3Shown || bs3Screen == "lg"
		case strings.HasPrefix(c, "d-"):
			bootstrap.note(c[len("d-"):], "-", bootstrapWidths)
		default:
			tailwind.note(c, ":", tailwindWidths)
		}
	}
	switch {
	case elementor == 3 || never:
		return hiddenEverywhere
	case hidden || bs3Visible && !bs3Shown || bootstrap.hiddenAtDesktop() || tailwind.hiddenAtDesktop():
		return hiddenOnDesktop
	}
	return shown
}

// bootstrap3Visible returns the screen ("xs", "sm", "md", "lg") of one
// of Bootstrap 3's visible-* classes ("visible-xs",
// "visible-md-inline-block"), else "".
func bootstrap3Visible(class string) string {
	v, ok := strings.CutPrefix(class, "visible-")
	if !ok || len(v) < 2 {
		return ""
	}
	switch screen, display := v[:2], v[2:]; {
	case screen != "xs" && screen != "sm" && screen != "md" && screen != "lg":
		return ""
	case display == "" || display == "-block" || display == "-inline" || display == "-inline-block":
		return screen
	}
	return ""
}

// frameworkScreens reports whether a class attribute may hold one of
// the frameworks' classes otherScreenOnly reads, a quick look that
// spares reading each class of most elements.
func frameworkScreens(class string) bool {
	return strings.Contains(class, "d-") || strings.Contains(class, ":") || strings.Contains(class, "hid") ||
		strings.Contains(class, "visible-") || strings.Contains(class, "show-for") ||
		strings.Contains(class, "w-con") || strings.Contains(class, "w-dyn")
}

// Breakpoints' minimum widths, in pixels.
var (
	bootstrapWidths = map[string]int{"sm": 576, "md": 768, "lg": 992, "xl": 1200, "xxl": 1400}
	tailwindWidths  = map[string]int{"sm": 640, "md": 768, "lg": 1024, "xl": 1280, "2xl": 1536}
)

// breakpoints is what a mobile-first framework's display classes on one
// element say: the display that applies at desktopWidth, from the
// widest breakpoint at or under it, and whether any class is for a
// breakpoint.
type breakpoints struct {
	width      int  // the breakpoint of the class that applies
	none, set  bool // the applying class hides; a class applies
	responsive bool // a class is for a breakpoint
}

// note reads one class, "none", "md-block" (Bootstrap's, after "d-") or
// "lg:hidden", "hidden" (Tailwind's), with sep between breakpoint and
// display.
func (b *breakpoints) note(class, sep string, widths map[string]int) {
	width, display := 0, class
	if bp, rest, ok := strings.Cut(class, sep); ok {
		if w, known := widths[bp]; known {
			width, display = w, rest
		}
	}
	none := display == "none" || display == "hidden"
	if !none && !displayValue(display) {
		return
	}
	b.responsive = b.responsive || width > 0
	if width > desktopWidth || b.set && width < b.width {
		return
	}
	b.width, b.none, b.set = width, none, true
}

// hiddenAtDesktop reports whether the classes noted hide the element at
// desktopWidth and at least one is for a breakpoint.
func (b *breakpoints) hiddenAtDesktop() bool {
	return b.responsive && b.set && b.none
}

// displayValue reports whether v names a display that draws the element
// (as the frameworks' classes spell them).
func displayValue(v string) bool {
	switch v {
	case "block", "inline", "inline-block", "flex", "inline-flex", "grid", "inline-grid", "table",
		"table-row", "table-cell", "contents", "flow-root", "list-item":
		return true
	}
	return false
}

// responsiveHiddenClasses returns the classes that the page's own
// stylesheets (its <style> elements' texts: pageClues.sheets) hide at
// desktopWidth, by a rule whose selector is that class alone, and that
// some rule for that class inside a media query on the viewport's width
// names (see sheetDisplays): a class a page shows or hides by screen
// size. The
// last rule that applies at desktopWidth decides, !important above the
// rest. Media queries on anything but the screen's width are read as
// not applying.
func responsiveHiddenClasses(sheets []string) map[string]bool {
	type state struct {
		none, important, set, responsive bool
	}
	var states map[string]*state
	for _, sheet := range sheets {
		sheetDisplays(sheet, func(class string, r displayRule) {
			if states == nil {
				states = map[string]*state{}
			}
			s := states[class]
			if s == nil {
				s = &state{}
				states[class] = s
			}
			s.responsive = s.responsive || r.widthQuery
			if !r.applies || s.important && !r.important {
				return
			}
			s.none, s.important, s.set = r.none, r.important || s.important, true
		})
	}
	var out map[string]bool
	for class, s := range states {
		if s.responsive && s.set && s.none {
			if out == nil {
				out = map[string]bool{}
			}
			out[class] = true
		}
	}
	return out
}
