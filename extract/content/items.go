package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/extract/pagetype"
	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// A collection (a category page's product grid), a listing (an index of
// posts, reviews, entries), a service page and a forum thread are their
// items: cards of a name, a price, a rating, a teaser, each a link to the
// item's own page; a service's features and plans, each with its "learn
// more"; or posts, each with its author's link. go-trafilatura reads a
// card as boilerplate (short lines, mostly link text) and drops the
// grid, keeping the page's introduction and buying guide; in a thread it
// often keeps the first post or two. On the WCXB development set the
// item names and later posts were most of the `with` snippets those
// pages missed.
//
// So on those pages the grid is found in the page itself, as the element
// whose children repeat one shape (the same tag and classes) and are
// items: each has a link and, on average, more words than a menu entry.
// The grid holding the most item text wins, and the items the
// extraction does not already hold are added to it.
//
// Hand-written: no Go extraction library finds repeated item records
// (go-trafilatura and readability both look for one article body).

const (
	// minItems is how many items of one shape make a grid.
	minItems = 4
	// minItemWords is the average number of words an item of a grid must
	// have: a menu's entries have one to three.
	minItemWords = 5
	// maxItemWords caps what one item counts for when grids are compared,
	// so that a few long sections do not outweigh a grid of cards.
	maxItemWords = 150
	// gridBudget bounds the nodes the search visits (a node is visited
	// once per grid candidate above it): a few times a normal page's
	// size, while a hostile page of nested grids 512 deep would
	// otherwise cost its size times 512.
	gridBudget = 4 << 20
	// maxGridItems is how many of a grid's items are added at most (the
	// first, in page order). Each is looked for in the extraction's text,
	// so this bounds that work too; real grids hold tens to hundreds.
	maxGridItems = 500
)

// itemGrid returns the items of the page's grid (see above), or nil;
// posts says the page is a thread (see shaper).
func itemGrid(doc *html.Node, posts bool) []*html.Node {
	var best []*html.Node
	bestScore := 0
	budget := gridBudget
	headline := headlineAncestors(doc, 4) // a page may open with a logo's or a banner's
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if items, score := gridItems(n, posts, &budget); score > bestScore {
			best, bestScore = items, score
		}
		for c := n.FirstChild; c != nil && budget > 0; c = c.NextSibling {
			if c.Type == html.ElementNode && !outsideContent(c, headline[c]) {
				walk(c)
			}
		}
	}
	walk(doc)
	return best
}

// outsideContent reports whether n is page chrome no item grid is taken
// from: the page's header, footer, navigation and sidebars, what the
// page hides, and what holds no text. Its class and id are not read when
// it holds the headline (holdsHeadline): a wrapper of the whole page
// may be named for a layout trick (XenForo's "headerMover").
func outsideContent(n *html.Node, holdsHeadline bool) bool {
	if unrendered(n) {
		return true
	}
	switch atomOf(n) {
	case atom.Head, atom.Header, atom.Footer, atom.Nav, atom.Aside, atom.Svg, atom.Select, atom.Button, atom.Dialog:
		return true
	}
	for _, a := range n.Attr {
		if hidingAttr(a) {
			return true
		}
	}
	return !holdsHeadline && hintedBoilerplate(n)
}

// headlineAncestors is the set of elements that hold one of the page's
// first count <h1> elements.
func headlineAncestors(doc *html.Node, count int) map[*html.Node]bool {
	out := map[*html.Node]bool{}
	found := 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || atomOf(n) != atom.H1 {
			continue
		}
		for a := n.Parent; a != nil && !out[a]; a = a.Parent {
			out[a] = true
		}
		if found++; found == count {
			break
		}
	}
	return out
}

// gridItems returns n's children of its commonest shape when they are
// items, and their score (their words, each capped at maxItemWords);
// else nil and 0. The nodes it visits are taken from *budget. posts: see
// shaper.
func gridItems(n *html.Node, posts bool, budget *int) ([]*html.Node, int) {
	shapeFor := shaper(n, posts)
	shapes := map[string]int{}
	top, topCount := "", 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		// Empty elements and scripts between the items are not of the
		// grid: the permalink targets a forum puts before each post
		// (Invision's <span id="comment-…"></span>, two per post) would
		// otherwise outnumber the posts, and an ad slot's script match
		// them.
		if c.Type != html.ElementNode || empty(c) || unrendered(c) {
			continue
		}
		s := shapeFor(c)
		shapes[s]++
		if shapes[s] > topCount {
			top, topCount = s, shapes[s]
		}
	}
	// Rows of a table are a layout's more often than a list's, and
	// the extractors keep data tables.
	if topCount < minItems || strings.HasPrefix(top, "tr.") {
		return nil, 0
	}
	var items []*html.Node
	total, score := 0, 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || shapeFor(c) != top {
			continue
		}
		if outsideContent(c, false) || *budget <= 0 {
			continue
		}
		link, size := linkAndSize(c)
		*budget -= 2 * size // this walk and renderText's
		// An item links to its own page. (Service pages' feature cards
		// often do not, but taking unlinked children as items scored
		// them 0.003 lower on WCXB, and the other types lost more.)
		if !link {
			continue
		}
		w := words.Count(renderText(c))
		if w == 0 {
			continue
		}
		items = append(items, c)
		total += w
		score += min(w, maxItemWords)
	}
	if len(items) < minItems || len(items)*3 < topCount*2 || total < minItemWords*len(items) {
		return nil, 0
	}
	return items, score
}

// longestLine returns text's longest line: an item's name, the line the
// extractor keeps if it keeps the item at all (it may drop a price or a
// rating on a line of its own). (An item's longest text node, tried
// instead, finds more items "already held", wrongly: collection F1 0.607
// against 0.618 on the WCXB development set.)
func longestLine(text string) string {
	var best string
	for line := range strings.SplitSeq(text, "\n") {
		if len(line) > len(best) {
			best = line
		}
	}
	return best
}

// shape is an element's tag and classes. (Tag and first class, tried to
// let "card sold-out" join "card", also took sections of a news page's
// stacks of teasers for a grid: "component component--topic-politics".)
func shape(n *html.Node) string {
	return shapeOf(n, strings.Fields(htmltag.Attr(n, "class")))
}

// shapeOf is the shape of n with the classes given.
func shapeOf(n *html.Node, classes []string) string {
	return n.Data + "." + strings.Join(classes, " ")
}

// shaper returns the shape function for the children of parent: shape,
// or for a thread's posts (posts true) shape without the class words
// that hold a digit and that no other child has: a post's own id
// ("thing id-t1_ab12c comment", "post-4711"), which would make every
// post a shape of its own. On the WCXB development set that found the
// comments of an old-Reddit thread (0.23 to 0.76) and changed no other
// thread; for every type of page it changed 11, 3 for the better.
func shaper(parent *html.Node, posts bool) func(*html.Node) string {
	if !posts {
		return shape
	}
	counts := map[string]int{}
	for c := parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			for _, w := range strings.Fields(htmltag.Attr(c, "class")) {
				if strings.ContainsAny(w, "0123456789") {
					counts[w]++
				}
			}
		}
	}
	if len(counts) == 0 {
		return shape
	}
	return func(n *html.Node) string {
		var kept []string
		for _, w := range strings.Fields(htmltag.Attr(n, "class")) {
			if counts[w] != 1 {
				kept = append(kept, w)
			}
		}
		return shapeOf(n, kept)
	}
}

// empty reports whether n has no child but whitespace text. (Only its
// children are read: each element is looked at once per parent.)
func empty(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode || c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return false
		}
	}
	return true
}

// unrendered reports whether n is an element whose content a reader of
// the page does not see: scripts, styles, templates, links and metadata.
// A <noscript> is not one of them: pages are read as a crawler reads them,
// scripts off (see the package doc), and its markup is what it shows then;
// forum engines such as Flarum serve their whole thread there, post after
// post. So the item grid, the chrome labels and the other-product titles
// are all looked for inside it (WCXB forums: accurate mode's F1 0.7454 to
// 0.7515; Flarum's thread 0.40 to 0.99).
func unrendered(n *html.Node) bool {
	switch atomOf(n) {
	case atom.Script, atom.Style, atom.Template, atom.Link, atom.Meta:
		return true
	}
	return false
}

// linkAndSize reports whether n is or holds a link to another page, and
// the number of nodes in its subtree.
func linkAndSize(n *html.Node) (link bool, size int) {
	link = n.Type == html.ElementNode && atomOf(n) == atom.A && htmltag.Attr(n, "href") != ""
	size = 1
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		l, k := linkAndSize(c)
		link = link || l
		size += k
	}
	return link, size
}

// pageItems returns copies of the items of the page's item grid (see
// above), or nil: copies, as fast mode's readability may edit the page.
// Posts (posts true) are pruned as readability's article is (see prune):
// a post is prose, and its share bar, signature and quoted-link lists
// are chrome; a card is mostly links by nature and is kept whole.
// A thread's post also takes what the thread puts between it and the
// next post of the grid (see withFollowers); a card does not: what sits
// between cards is a banner or an ad.
func pageItems(doc *html.Node, posts bool) []*html.Node {
	grid := itemGrid(doc, posts)
	if len(grid) == 0 {
		return nil
	}
	grid = grid[:min(len(grid), maxGridItems)]
	items := make([]*html.Node, len(grid))
	for i, it := range grid {
		items[i] = cloneTree(it)
		if posts && i+1 < len(grid) {
			items[i] = withFollowers(items[i], it, grid[i+1])
		}
		if posts {
			prune(items[i])
		}
	}
	return items
}

// withFollowers returns post, a copy of the grid's item it, in a <div>
// with copies of the elements between it and next, the grid's next item
// (a grid's items are siblings), or post alone when there are none:
// a post whose row class alternates (phpBB's "post bg1" and "post bg2"
// make two shapes of one thread, the grid being one of them), the
// container of the replies nested under a post (threaded forums put it
// beside the post). After the last post comes the thread's pager, which
// is not taken. On the WCXB development set: 13 threads changed, 9 for
// the better (a thread of nested replies 0.68 to 0.90), forums' F1
// 0.7761 to 0.7793; the worse are threads whose ground truth stops
// short of the thread's later or nested replies. Taking what follows
// the last post too changed 20, 9 for the better; taking what lies
// between as items of their own, 25, 7 for the better.
func withFollowers(post, it, next *html.Node) *html.Node {
	var wrap *html.Node
	for s := it.NextSibling; s != nil && s != next; s = s.NextSibling {
		if s.Type != html.ElementNode || unrendered(s) {
			continue
		}
		if wrap == nil {
			wrap = &html.Node{Type: html.ElementNode, DataAtom: atom.Div, Data: "div"}
			wrap.AppendChild(post)
		}
		wrap.AppendChild(cloneTree(s))
	}
	if wrap == nil {
		return post
	}
	return wrap
}

// withItems adds to res's article the items its text does not already
// hold, or makes them the article when the extractor found none.
func withItems(res *Result, items []*html.Node) {
	if len(items) == 0 {
		return
	}
	if res.Node == nil {
		res.Node = &html.Node{Type: html.ElementNode, DataAtom: atom.Div, Data: "div"}
	}
	if res.Text == "" {
		res.Text = renderText(res.Node)
	}
	have := squash(res.Text)
	var list *html.Node
	for _, it := range items {
		if strings.Contains(have, squash(longestLine(renderText(it)))) {
			continue
		}
		if list == nil {
			list = &html.Node{Type: html.ElementNode, DataAtom: atom.Div, Data: "div"}
			res.Node.AppendChild(list)
		}
		list.AppendChild(it)
	}
	if res.Node.FirstChild == nil {
		res.Node = nil
	}
}

// itemsInstead gives res, which has no content, the page's item grid if
// it has one (see pageItems), whatever type the page was taken for:
// the cards of a shop's search results are links through and through,
// title, price and all, which the extractors leave out as link lists,
// and what remains of such a page is its newsletter form or footer. A
// list of the results is the page; nothing is not. (WCXB: an unsure
// listing that came out empty, 0 to 0.49 F1 in both modes, and three
// more pages in fast mode.) Doc is the page; in fast mode readability
// has edited it, which can leave fewer items.
func itemsInstead(res *Result, doc *html.Node, kind pagetype.Type, info pageInfo, footers []*html.Node) {
	items := pageItems(doc, kind == pagetype.Forum)
	if items == nil {
		return
	}
	res.NoContent = false
	withItems(res, items)
	finish(res, info, footers)
}
