package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/pagetype"
)

// A forum thread, a product page, a collection or a service page often
// holds the same paragraph twice where a reader sees it once: a reply's
// one-line preview of the post it answers (NodeBB's), the mobile and
// desktop renderings of a product's description (one hidden by CSS), a
// card's text repeated in a carousel's clone, a post quoted whole. The
// extractors keep each copy. dropRepeatedBlocks keeps the first.
//
// On the WCXB development set (accurate mode): forums 0.7515 to 0.7680,
// products 0.6579 to 0.6663, collections 0.6765 to 0.6824, service pages
// 0.8356 to 0.8390, overall 0.8599 to 0.8627 (fast 0.8282 to 0.8307); 93
// pages better, 21 worse: threads whose quotes the ground truth keeps (it
// keeps some threads' and not others'), pages that say a sentence twice
// on purpose. The article benchmark did not change. Articles and
// documentation repeat on purpose, a training plan's warm-up in each
// session, a quickstart's prose in each language's tab: on every type it
// cost documentation 0.004, and articles gained only 0.001.
func repeatsDropped(kind pagetype.Type) bool {
	switch kind {
	case pagetype.Forum, pagetype.Product, pagetype.Collection, pagetype.Service:
		return true
	}
	return false
}

// minRepeatBytes is the shortest text block dropRepeatedBlocks drops for
// repeating an earlier one: a short line ("Free shipping", a price) is
// as likely said twice on purpose.
const minRepeatBytes = 60

// dropRepeatedBlocks removes from root each text block (a paragraph, a
// list item: a lineBlock holding no blocks) of at least minRepeatBytes
// whose text, whitespace and case aside, an earlier block of root has.
// Code and tables are left whole: a tabbed example and a table's header
// row repeat on purpose.
func dropRepeatedBlocks(root *html.Node) {
	if root == nil {
		return
	}
	seen := map[string]bool{}
	var found []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch atomOf(c) {
			case atom.Pre, atom.Code, atom.Table:
				continue
			}
			if !lineBlock(c) || holdsBlocks(c) {
				walk(c)
				continue
			}
			key := blockKey(c)
			if len(key) < minRepeatBytes {
				continue
			}
			if seen[key] {
				found = append(found, c)
			}
			seen[key] = true
		}
	}
	walk(root)
	for _, n := range found {
		n.Parent.RemoveChild(n)
	}
}

// blockKey is n's text, lower case, whitespace collapsed.
func blockKey(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
			b.WriteByte(' ')
		}
	}
	return strings.ToLower(strings.Join(strings.Fields(b.String()), " "))
}
