package content

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/pagetype"
)

// A forum thread, a product page, a collection or a service page often
// holds the same text twice where a reader sees it once: a reply's
// one-line preview of the post it answers (NodeBB's), the mobile and
// desktop renderings of a product's description or of a whole section
// of a landing page (one hidden by CSS), a card's text repeated in a
// carousel's clone, a post quoted whole. The extractors keep each copy.
// dropRepeatedBlocks keeps the first.
//
// On the WCXB development set (accurate mode), for paragraphs and list
// items: forums 0.7515 to 0.7680, products 0.6579 to 0.6663,
// collections 0.6765 to 0.6824, service pages 0.8356 to 0.8390, overall
// 0.8599 to 0.8627 (fast 0.8282 to 0.8307); 93 pages better, 21 worse:
// threads whose quotes the ground truth keeps (it keeps some threads'
// and not others'), pages that say a sentence twice on purpose. Then
// for any block, a section of short lines ("3.6x", "faster time to
// market") as well as a paragraph: 70 pages changed, 50 for the better,
// overall 0.8673 to 0.8680, service pages 0.8481 to 0.8507, products
// 0.6718 to 0.6742 (fast 0.8408 to 0.8416); the worse are mostly pages
// whose ground truth counts a section twice (an FAQ shown twice). Runs
// of repeated lines within blocks were tried too (0.8683): they took
// the features two price plans share and the lines every card of a
// collection repeats ("HSA / FSA eligible"), which are the page's text
// in each place. The article benchmark did not change. Articles and
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

// dropRepeatedBlocks removes from root each block (any element that
// is not phrasing content: a paragraph, a list item, a list, a section)
// of at least minRepeatBytes of text whose text, whitespace and case
// aside, an earlier block of root outside it has. Code and tables are
// left whole: a tabbed example and a table's header row repeat on
// purpose. The texts are compared by a hash of their words, found for
// every block in one pass (see sumTexts), and read whole only when two
// hashes meet, so the walk stays linear however deep the blocks nest.
func dropRepeatedBlocks(root *html.Node) {
	if root == nil {
		return
	}
	sums := map[*html.Node]textSum{}
	sumTexts(root, sums, false)
	seen := map[uint64]*html.Node{} // the first block of each hash
	keys := map[*html.Node]string{} // blockKey of each first block compared
	open := map[*html.Node]bool{}   // the blocks the walk is inside
	var found []*html.Node
	repeats := func(c *html.Node) bool {
		sum, ok := sums[c]
		if !ok || sum.bytes < minRepeatBytes {
			return false
		}
		first := seen[sum.hash]
		if first == nil {
			seen[sum.hash] = c
			return false
		}
		if open[first] {
			return false // a wrapper's text is its content's, not a copy
		}
		if _, ok := keys[first]; !ok {
			keys[first] = blockKey(first)
		}
		return keys[first] == blockKey(c)
	}
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
			if repeats(c) {
				found = append(found, c)
				continue
			}
			if lineBlock(c) && !holdsBlocks(c) {
				continue // a line is compared whole, not looked into
			}
			open[c] = true
			walk(c)
			delete(open, c)
		}
	}
	walk(root)
	for _, n := range found {
		n.Parent.RemoveChild(n)
	}
}

// textSum is a hash of a text's words (lower case) and the bytes of
// its blockKey.
type textSum struct {
	hash  uint64 // polynomial in textHashBase over the words' hashes
	pow   uint64 // textHashBase to the number of words
	bytes int    // the words' bytes and one space between each two
}

// textHashBase is the polynomial hash's base, an odd 64-bit constant.
const textHashBase = 0x100000001b3

// then is s followed by t, the hash of the joined word sequences.
func (s textSum) then(t textSum) textSum {
	if s.bytes == 0 {
		return t
	}
	if t.bytes == 0 {
		return s
	}
	return textSum{hash: s.hash*t.pow + t.hash, pow: s.pow * t.pow, bytes: s.bytes + 1 + t.bytes}
}

// sumTexts returns the textSum of n's text and notes in sums that of
// each block under n that is not phrasing content (the blocks
// dropRepeatedBlocks weighs). With drawnOnly, what a browser does not
// draw as text, scripts, stylesheets and templates, is not counted (an
// extraction's output holds none, a page does).
func sumTexts(n *html.Node, sums map[*html.Node]textSum, drawnOnly bool) textSum {
	if drawnOnly && n.Type == html.ElementNode {
		switch n.DataAtom {
		case atom.Script, atom.Style, atom.Template:
			return textSum{}
		}
	}
	if n.Type == html.TextNode {
		var sum textSum
		for w := range strings.FieldsSeq(n.Data) {
			sum = sum.then(wordSum(w))
		}
		return sum
	}
	var sum textSum
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		sum = sum.then(sumTexts(c, sums, drawnOnly))
	}
	if n.Type == html.ElementNode && !phrasing(atomOf(n)) {
		sums[n] = sum
	}
	return sum
}

// wordSum is the textSum of one word, lower case (as strings.ToLower
// maps it, rune by rune).
func wordSum(w string) textSum {
	h := uint64(14695981039346656037) // FNV-1a
	bytes := 0
	for _, r := range w {
		r = unicode.ToLower(r)
		bytes += utf8.RuneLen(r)
		for ; r > 0; r >>= 8 {
			h = (h ^ uint64(r&0xff)) * 1099511628211
		}
		h = (h ^ 0xff) * 1099511628211 // rune boundary
	}
	return textSum{hash: h, pow: textHashBase, bytes: bytes}
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
