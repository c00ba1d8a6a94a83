package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/words"
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
	for _, list := range [][]string{{
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
	}, {
		// A second list, of common labels seen among the lines the first
		// left on the development pages (WCXB's `without` snippets), none
		// a site's own words.
		"shop now", "buy now", "quick view", "sort and filter", "sort & filter", "filter and sort",
		"filter & sort", "sort by", "see all reviews", "write a review", "view all", "see all", "show more",
		"load more", "loading", "get a quote", "start a free trial", "start free trial", "try it free",
		"try for free", "contact sales", "forgot password", "create account", "my account", "pin it",
		"pin for later", "copy link", "you are not logged in", "start new topic", "reply to this topic",
		"post reply", "ask question", "similar threads", "signature", "join date",
	}, {
		// A third, of a product card's controls seen among the lines left
		// on collection pages (WCXB: collections 0.6824 to 0.6830, products
		// 0.6663 to 0.6665; 12 pages better, 2 worse; "compare", "filter"
		// and "sort" left out, as a section's heading may be just that).
		"quick shop", "quick add", "show options", "choose options", "select options", "add to basket",
		"view details", "view product", "filters", "sold out", "notify me",
	}} {
		for _, l := range list {
			interfaceLabels[l] = true
		}
	}
}

// authorCounters are the labels of the counters a forum prints beside
// each post's author ("Posts: 1,077", "Join Date: Aug 2008").
var authorCounters = map[string]bool{
	"posts": true, "threads": true, "messages": true, "join date": true, "joined": true, "reputation": true,
	"reaction score": true, "points": true, "likes": true, "likes received": true, "solutions": true,
	"trophies": true, "karma": true,
}

// authorCounter reports whether key (see labelKey) is one of a post
// author's counters: a label of authorCounters, a colon, and a value of
// at most three words holding a digit.
func authorCounter(key string) bool {
	label, value, ok := strings.Cut(key, ":")
	if !ok || !authorCounters[strings.TrimSpace(label)] {
		return false
	}
	return words.CountFields(value) <= 3 && strings.ContainsAny(value, "0123456789")
}

// maxLabelBytes is the longest label's length in bytes, with room for the
// whitespace and punctuation around it: a block whose text is longer is
// no label, and its text is not read further.
const maxLabelBytes = 48

// dropInterfaceLines removes from root the blocks (paragraphs, divs,
// list items, headings, definition terms and descriptions) whose whole
// text is an interface label.
func dropInterfaceLines(root *html.Node) {
	dropLines(root, maxLabelBytes, true, func(_ *html.Node, key string) bool {
		return interfaceLabels[key] || authorCounter(key)
	})
}

// dropLines removes from root each line block whose text, read up to
// maxBytes bytes or 64 nodes and keyed by labelKey, drop accepts; with
// loose, also text and running-text elements that make a line of their
// own between blocks (loneInline). The walk enters a block it reads only
// when the block holds blocks, so each node is read at most 64 times
// over: the walk is linear in root's size.
func dropLines(root *html.Node, maxBytes int, loose bool, drop func(block *html.Node, key string) bool) {
	if root == nil {
		return
	}
	var found []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if loose && c.Type == html.TextNode && loneInline(c) && len(c.Data) <= maxBytes && drop(c, labelKey(c.Data)) {
				// Text between blocks, where an extractor left a link's
				// words.
				found = append(found, c)
				continue
			}
			if c.Type != html.ElementNode {
				continue
			}
			if lineBlock(c) || loose && loneInline(c) {
				if text, ok := lineText(c, maxBytes); ok {
					if drop(c, labelKey(text)) {
						found = append(found, c)
						continue
					}
					if !holdsBlocks(c) {
						// One line, judged whole: a heading kept is not
						// then cut to its link.
						continue
					}
				}
			}
			walk(c)
		}
	}
	walk(root)
	for _, n := range found {
		n.Parent.RemoveChild(n)
	}
}

// loneInline reports whether n is text or running-text markup (a link,
// a span) that renders as a line of its own: the elements beside it, past
// whitespace and comments, are blocks or nothing, and its parent is no
// running text (a card's "Learn more" link after its paragraph).
func loneInline(n *html.Node) bool {
	if n.Type == html.ElementNode && !phrasing(atomOf(n)) {
		return false
	}
	if p := n.Parent; p == nil || p.Type != html.ElementNode || phrasing(atomOf(p)) {
		return false
	}
	return blockOrNothing(n.PrevSibling, func(s *html.Node) *html.Node { return s.PrevSibling }) &&
		blockOrNothing(n.NextSibling, func(s *html.Node) *html.Node { return s.NextSibling })
}

// blockOrNothing reports whether the first sibling from s on (stepping
// with next) that is not whitespace or a comment is a block element, or
// there is none.
func blockOrNothing(s *html.Node, next func(*html.Node) *html.Node) bool {
	for ; s != nil; s = next(s) {
		switch {
		case s.Type == html.CommentNode, s.Type == html.TextNode && strings.TrimSpace(s.Data) == "":
		case s.Type == html.ElementNode:
			return !phrasing(atomOf(s))
		default:
			return false
		}
	}
	return true
}

// holdsBlocks reports whether one of n's children is an element other
// than running-text markup.
func holdsBlocks(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !phrasing(atomOf(c)) {
			return true
		}
	}
	return false
}

// lineBlock reports whether n renders as a line of its own.
func lineBlock(n *html.Node) bool {
	switch atomOf(n) {
	case atom.P, atom.Div, atom.Li, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Dt, atom.Dd:
		return true
	}
	return false
}

// lineText is n's text when it has at most maxBytes bytes in at most
// 64 nodes; ok is false otherwise. (shortText bounds the bytes only: a
// block of many empty elements would be read whole, at every level of a
// walk.) It walks by hand (see nextUnder): it runs at every level of
// those walks, where n.Descendants() allocated at each element.
func lineText(n *html.Node, maxBytes int) (text string, ok bool) {
	var b strings.Builder
	nodes := 0
	for d := n.FirstChild; d != nil; d = nextUnder(d, n) {
		if nodes++; nodes > 64 {
			return "", false
		}
		if d.Type != html.TextNode {
			continue
		}
		b.WriteString(d.Data)
		b.WriteByte(' ')
		if b.Len() > maxBytes+1 {
			return "", false
		}
	}
	return b.String(), true
}

// nextUnder is the node after d in document order within root's
// subtree (d is under root), or nil after the last.
func nextUnder(d, root *html.Node) *html.Node {
	if d.FirstChild != nil {
		return d.FirstChild
	}
	for ; d != root; d = d.Parent {
		if d.NextSibling != nil {
			return d.NextSibling
		}
	}
	return nil
}

// labelKey is text as interfaceLabels holds it: lower case, whitespace
// collapsed, without the punctuation and arrows a label ends with.
func labelKey(text string) string {
	// strings.ToLower(strings.Join(strings.Fields(text), " ")) without
	// the slice of fields and its joined copy: chromeLabels keys every
	// short line of the page.
	var b strings.Builder
	b.Grow(len(text))
	for f := range strings.FieldsSeq(text) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	key := strings.ToLower(b.String())
	return strings.TrimRight(key, " :!.?»›→…")
}
