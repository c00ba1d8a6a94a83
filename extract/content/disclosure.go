package content

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// revealPanels un-hides a page's collapsed disclosure panels: the body
// of an accordion ("Details", "Specifications", an FAQ's answers) or a
// tab, which the page marks hidden until its control is pressed. They
// are the page's text (a reader opens them; the labels of every
// benchmark count them), but trafilatura and readability drop whatever
// is marked hidden (aria-hidden="true", the hidden attribute, an inline
// display:none). A panel is an element whose id a control names in
// aria-controls, or a role="tabpanel"; menus, dialogs and listboxes
// (navigation, cookie banners, search suggestions) stay hidden, as does
// anything inside a header, nav or footer, or inside a hidden element
// that is not a panel (a closed popover's tabs). doc is edited in place.
func revealPanels(doc *html.Node) {
	controlled := map[string]bool{}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if ids := htmltag.Attr(n, "aria-controls"); ids != "" {
			for _, id := range strings.Fields(ids) {
				controlled[id] = true
			}
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "header", "nav", "footer", "script", "style", "template":
				continue
			}
			role := htmltag.Attr(c, "role")
			switch role {
			case "dialog", "alertdialog", "menu", "menubar", "listbox", "navigation", "banner", "contentinfo":
				continue
			}
			if role == "tabpanel" || (len(controlled) > 0 && controlled[htmltag.Attr(c, "id")]) {
				unhide(c)
			} else if hidden(c) {
				continue // a panel inside stays as hidden as its container
			}
			walk(c)
		}
	}
	walk(doc)
}

// hidden reports whether n is marked hidden: the ways unhide undoes, a
// popover (shown only when opened) and a closed <dialog>.
func hidden(n *html.Node) bool {
	if n.Data == "dialog" && !htmltag.HasAttr(n, "open") {
		return true
	}
	for _, a := range n.Attr {
		if hidingAttr(a) || a.Key == "popover" || (a.Key == "style" && hasDisplayNone(a.Val)) {
			return true
		}
	}
	return false
}

// hidingAttr reports whether a is the hidden attribute or
// aria-hidden="true".
func hidingAttr(a html.Attribute) bool {
	return a.Key == "hidden" || (a.Key == "aria-hidden" && a.Val == "true")
}

// unhide removes what marks n hidden.
func unhide(n *html.Node) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		if hidingAttr(a) {
			continue
		}
		if a.Key == "style" && hasDisplayNone(a.Val) {
			a.Val = dropDisplayNone(a.Val)
		}
		kept = append(kept, a)
	}
	n.Attr = kept
}

// hasDisplayNone reports whether a style declares display:none.
func hasDisplayNone(style string) bool {
	if !strings.Contains(style, "none") {
		return false
	}
	for decl := range strings.SplitSeq(style, ";") {
		if isDisplayNone(decl) {
			return true
		}
	}
	return false
}

// isDisplayNone reports whether one declaration is display:none
// (!important or not).
func isDisplayNone(decl string) bool {
	k, v, _ := strings.Cut(decl, ":")
	return strings.EqualFold(strings.TrimSpace(k), "display") &&
		strings.EqualFold(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important")), "none")
}

// dropDisplayNone removes display:none declarations from a style.
func dropDisplayNone(style string) string {
	parts := strings.Split(style, ";")
	kept := parts[:0]
	for _, p := range parts {
		if !isDisplayNone(p) {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ";")
}
