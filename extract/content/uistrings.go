package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A line of the extraction that is nothing but a control's label ("Share",
// "Add to cart", "Reply with quote", "Read more", "Advertisement") is the
// page's interface, not its content: the extractors keep such lines when
// they sit inside the content's container (a post's toolbar, a product's
// buy box, an ad slot's label, a teaser's link). dropInterfaceLines
// removes the blocks whose whole text is one of them. The list is the
// common English labels of page controls, chosen before measuring; a
// sentence or a heading that merely contains one of the words stays.
//
// Hand-written: the extraction libraries weigh elements by their markup
// and link density, which a label alone in a paragraph passes.
var interfaceLabels = map[string]bool{}

func init() {
	for _, l := range []string{
		// ads and sharing
		"advertisement", "sponsored", "share", "share this", "share this article", "share this post",
		"share on facebook", "share on twitter", "tweet", "email", "print",
		// accounts and newsletters
		"subscribe", "subscribe now", "sign in", "sign up", "log in", "login", "register", "join", "join now",
		"join our newsletter", "newsletter", "follow us",
		// navigation
		"related", "related posts", "related articles", "related products", "you may also like",
		"you might also like", "back to blog", "back to top", "read more", "learn more", "get started",
		"book a demo", "request a demo", "contact us", "about us", "privacy policy", "terms of service",
		"terms of use", "cookie policy", "home", "skip to content", "skip to main content", "menu", "search",
		"close", "previous", "next", "next post", "previous post",
		// forum posts' controls and their authors' counters
		"reply", "reply with quote", "quote", "report", "joined", "messages", "reaction score", "member",
		"new member", "well-known member", "posts", "threads", "leave a comment", "leave a reply", "comments",
		"was this helpful",
		// shop controls
		"out of stock", "in stock", "add to cart", "add to bag", "add to wishlist", "verified buyer",
	} {
		interfaceLabels[l] = true
	}
}

// maxLabelBytes is the longest label's length in bytes, with room for the
// whitespace and punctuation around it: a block whose text is longer is
// no label, and its text is not read further.
const maxLabelBytes = 48

// dropInterfaceLines removes from root the blocks (paragraphs, divs,
// list items, headings, definition terms and descriptions) whose whole
// text is an interface label. Each block's text is read up to
// maxLabelBytes bytes or 64 nodes, so the walk is linear in root's size.
func dropInterfaceLines(root *html.Node) {
	if root == nil {
		return
	}
	var drop []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if lineBlock(c) {
				if text, ok := labelText(c); ok && interfaceLabels[labelKey(text)] {
					drop = append(drop, c)
					continue
				}
			}
			walk(c)
		}
	}
	walk(root)
	for _, n := range drop {
		n.Parent.RemoveChild(n)
	}
}

// lineBlock reports whether n renders as a line of its own.
func lineBlock(n *html.Node) bool {
	switch atomOf(n) {
	case atom.P, atom.Div, atom.Li, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Dt, atom.Dd:
		return true
	}
	return false
}

// labelText is n's text when it has at most maxLabelBytes bytes in at
// most 64 nodes; ok is false otherwise. (shortText bounds the bytes
// only: a block of many empty elements would be read whole, at every
// level of the walk.)
func labelText(n *html.Node) (text string, ok bool) {
	var b strings.Builder
	nodes := 0
	for d := range n.Descendants() {
		if nodes++; nodes > 64 {
			return "", false
		}
		if d.Type != html.TextNode {
			continue
		}
		b.WriteString(d.Data)
		b.WriteByte(' ')
		if b.Len() > maxLabelBytes+1 {
			return "", false
		}
	}
	return b.String(), true
}

// labelKey is text as interfaceLabels holds it: lower case, whitespace
// collapsed, without the punctuation and arrows a label ends with.
func labelKey(text string) string {
	key := strings.ToLower(strings.Join(strings.Fields(text), " "))
	return strings.TrimRight(key, " :!.?»›→…")
}
