package content

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The article's Markdown is rendered from the page's own markup, not from
// the extractor's output. go-trafilatura rebuilds the text in its own
// element set: it drops links (kept, they are noisy in the text it
// scores), turns inline <code> into a block of its own (splitting a
// sentence around it) and loses code blocks' languages. So the extractor
// decides what the article is, and findRegion finds that text in the
// page and copies the elements that hold it; the whole-page converter
// then renders the copy, so the article's Markdown has the page's links,
// inline code, headings, code blocks and images exactly as the
// whole-page Markdown does.
//
// Matching is on text with its whitespace removed, as the extractors
// change little else. The page's text is taken in runs (the text nodes of
// one block, in order). First, anchors: long runs found once in the page
// and once in the extracted text, the longest series of them in the same
// order in both. Between anchors, a pointer walks the extracted text and
// runs are matched at it, or searched for a little ahead when long
// enough not to match by chance; a match that is not right after another
// must be confirmed by what follows it (see confirmed). The extracted
// text left out is then aligned in turn with the page's text left over,
// for an extraction assembled from parts in another order than the
// page's (see rest). What is still missing is then looked for anywhere
// (go-trafilatura reorders some blocks). This is hand-written: no
// library maps an extractor's output back onto the page it came from.

// regionAnchor is the length (bytes, whitespace removed) from which a run
// of text is found by searching ahead; a shorter run must match where the
// pointer is, right after a matched run or ending where a text of the
// extraction ends, so that a menu's "Home" does not match the first word
// of "Homemade bread".
const regionAnchor = 16

// regionWindow bounds how far ahead (bytes) a run is searched for, so
// that matching is linear in the page's size.
const regionWindow = 16 << 10

// minRegionCoverage is the share of the extracted text (that the page's
// readable text holds) that must be found for the region to be used;
// below it the extractor's own tree is rendered. What is not found is
// mostly text the extractor garbled (reordered within a block, joined
// across blocks), which the Markdown then leaves out; 0.75 renders the
// region on 98% of the development pages.
const minRegionCoverage = 0.75

// textRun is the text nodes of one block, in document order.
type textRun struct {
	block *html.Node
	nodes []*html.Node
	texts []string // each node's text, whitespace removed
	whole string   // texts joined
	n     int      // their total length
}

// region is what findRegion matched.
type region struct {
	kept  map[*html.Node]bool // text nodes in the article
	live  map[*html.Node]bool // blocks holding kept text, and their figures
	spans [][2]int            // the parts of the extracted text matched
	want  int                 // the length of the extracted text
}

// findRegion copies the part of doc that holds the text of the extracted
// trees (in order), with the page's markup: the kept text nodes, the
// elements around them, images in the same blocks. It returns nil when
// less than minRegionCoverage of the extracted text is found.
func findRegion(doc *html.Node, extracted []*html.Node) *html.Node {
	r, _ := matchRegion(doc, extracted)
	if r == nil {
		return nil
	}
	return r.copy(doc)
}

// matchRegion finds the text of the extracted trees in doc: the region
// and the page's runs of text, or nil when less than minRegionCoverage of
// the extracted text is found.
func matchRegion(doc *html.Node, extracted []*html.Node) (*region, []textRun) {
	var want strings.Builder
	var starts, ends []int // where each extracted text node starts and ends in want
	for _, n := range extracted {
		eachText(n, func(t *html.Node) {
			at := want.Len()
			if appendSquashed(&want, t.Data) {
				starts, ends = append(starts, at), append(ends, want.Len())
			}
		})
	}
	text := want.String()
	if text == "" {
		return nil, nil
	}
	r := &region{kept: map[*html.Node]bool{}, live: map[*html.Node]bool{}, want: len(text)}
	runs := r.textRuns(doc)
	r.ordered(runs, text, starts, ends)
	// The parts of the extraction the alignment left out, aligned in turn
	// (see rest).
	for range maxRestPasses {
		before := r.found()
		if before == float64(len(text)) {
			break
		}
		r.rest(runs, text, starts, ends)
		if r.found() == before {
			break
		}
	}
	if !r.enough(runs, text, starts, ends) {
		r.unordered(runs, text)
		if !r.enough(runs, text, starts, ends) {
			return nil, nil
		}
	}
	return r, runs
}

// ordered is the first pass: it walks the page's runs and the extracted
// text together.
func (r *region) ordered(runs []textRun, text string, starts, ends []int) {
	anchors := anchorRuns(runs, text, starts)
	p, synced, budget := 0, false, unorderedBudget
	for i, run := range runs {
		for len(anchors) > 0 && anchors[0].run < i {
			anchors = anchors[1:]
		}
		limit := len(text)
		if len(anchors) > 0 {
			if a := anchors[0]; a.run == i && a.at >= p {
				r.keep(run, run.nodes, a.at, a.at+run.n)
				p, synced = a.at+run.n, true
				continue
			}
			limit = max(anchors[0].at, p)
		}
		// Between anchors, a run matches at p, or a little ahead, but not
		// past the next anchor.
		nodes, n, q, jumped := match(run, text[:limit], p, ends, synced, &budget)
		synced = nodes != nil && (synced && !jumped || n >= freeMatch ||
			q == len(text) && !jumped || confirmed(runs[i+1:], text, q-n, q))
		if synced {
			r.keep(run, nodes, q-n, q)
			p = q
		}
	}
}

// enough reports whether the runs kept hold minRegionCoverage of the
// extracted text that the page's readable text has. Extractors keep
// some text no reader sees (an SVG's symbol names, a <template>'s menu,
// the <title>), which no region can hold; it is not counted.
func (r *region) enough(runs []textRun, text string, starts, ends []int) bool {
	found := r.found()
	if found >= minRegionCoverage*float64(len(text)) {
		return true
	}
	placed := r.placed(len(text))
	var page strings.Builder
	for _, run := range runs {
		page.WriteString(run.whole)
	}
	readable, budget := page.String(), unorderedBudget
	unseen := 0
	for k, s := range starts {
		// The part of each extracted text node not placed, as one piece.
		lo, hi := s, ends[k]
		for lo < hi && placed[lo] {
			lo++
		}
		for hi > lo && placed[hi-1] {
			hi--
		}
		if hi-lo < minNodeMatch {
			continue
		}
		if budget -= len(readable); budget < 0 {
			break
		}
		if !strings.Contains(readable, text[lo:hi]) {
			unseen += hi - lo
		}
	}
	return found >= minRegionCoverage*float64(len(text)-unseen)
}

// placed marks the bytes of the extracted text (n long) that r matched.
func (r *region) placed(n int) []bool {
	placed := make([]bool, n)
	for _, sp := range r.spans {
		for i := sp[0]; i < sp[1]; i++ {
			placed[i] = true
		}
	}
	return placed
}

// found is the length of the extracted text matched.
func (r *region) found() float64 {
	n := 0
	for _, sp := range r.spans {
		n += sp[1] - sp[0]
	}
	return float64(n)
}

// unorderedBudget bounds the bytes each pass's searches scan (ordered's
// searching ahead, enough's and unordered's), so that a large page costs
// no more than a few milliseconds.
const unorderedBudget = 32 << 20

// minNodeMatch is the length (bytes) from which one text node is looked
// for on its own.
const minNodeMatch = 8

// unordered is the second pass, for extractions that reorder the page
// (go-trafilatura moves some blocks, such as <summary>s, ahead of their
// siblings): it keeps each long run not yet kept that the page has once
// and the extracted text has anywhere.
func (r *region) unordered(runs []textRun, text string) {
	count := map[string]int{}
	for _, run := range runs {
		if run.n >= regionAnchor {
			count[run.whole]++
		}
	}
	budget := unorderedBudget
	for _, run := range runs {
		if run.n < regionAnchor || count[run.whole] > 1 || r.kept[run.nodes[0]] {
			continue
		}
		if budget -= len(text); budget < 0 {
			return
		}
		if i := strings.Index(text, run.whole); i >= 0 {
			r.keep(run, run.nodes, i, i+run.n)
			continue
		}
		// go-trafilatura also reorders within a block (a link's text can
		// land after the text that followed it): the run is kept when most
		// of it is there node by node.
		var at [][2]int
		n := 0
		for _, t := range run.texts {
			if len(t) < minNodeMatch {
				continue
			}
			if budget -= len(text); budget < 0 {
				return
			}
			if i := strings.Index(text, t); i >= 0 {
				at = append(at, [2]int{i, i + len(t)})
				n += len(t)
			}
		}
		if n >= regionAnchor && 2*n >= run.n {
			r.keep(run, run.nodes, at[0][0], at[0][1])
			r.spans = append(r.spans, at[1:]...)
		}
	}
}

// match matches one run of the page against the extracted text at p. It
// returns the nodes that matched (nil: none), their length, the position
// after them, and whether they were found ahead of p rather than at it.
// Searching ahead spends *budget (bytes scanned); when it is spent, runs
// match at p only.
func match(run textRun, text string, p int, ends []int, synced bool, budget *int) (nodes []*html.Node, n, next int, jumped bool) {
	whole := run.whole
	rest := text[p:]
	if strings.HasPrefix(rest, whole) && (run.n >= regionAnchor || synced || atEnd(ends, p+run.n)) {
		return run.nodes, run.n, p + run.n, false
	}
	if run.n >= regionAnchor && *budget > 0 {
		window := rest[:min(len(rest), regionWindow+run.n)]
		*budget -= len(window)
		if i := strings.Index(window, whole); i >= 0 {
			return run.nodes, run.n, p + i + run.n, i > 0
		}
	}
	// Part of the run: the extractor dropped some of its nodes (a
	// footnote mark, a "read more" link). Enough of it must match, at p:
	// most of it, or, right after a matched run, a node or two.
	var got []*html.Node
	q := p
	for i, t := range run.texts {
		if strings.HasPrefix(text[q:], t) {
			got = append(got, run.nodes[i])
			q += len(t)
		}
	}
	if n := q - p; n >= regionAnchor && 2*n >= run.n || synced && n >= minNodeMatch {
		return got, q - p, q, false
	}
	return nil, 0, p, false
}

// anchor is a run of the page found once in the extracted text, at at.
type anchor struct{ run, at int }

// anchorRuns finds the runs that fix the alignment: long runs whose text
// the page has once and the extracted text has once, where one of its
// text nodes starts; of those, the longest series in the same order in
// both (a list of sections repeated in a menu is out of order, or not
// unique). Between anchors, runs are matched one by one.
func anchorRuns(runs []textRun, text string, starts []int) []anchor {
	byKey := map[string][]int{}
	for _, s := range starts {
		if len(text)-s >= regionAnchor {
			k := text[s : s+regionAnchor]
			byKey[k] = append(byKey[k], s)
		}
	}
	count := map[string]int{}
	for _, run := range runs {
		if run.n >= regionAnchor {
			count[run.whole]++
		}
	}
	var found []anchor
	for i, run := range runs {
		if run.n < regionAnchor || count[run.whole] > 1 {
			continue
		}
		at, hits := -1, 0
		for _, s := range byKey[run.whole[:regionAnchor]] {
			if strings.HasPrefix(text[s:], run.whole) {
				at, hits = s, hits+1
			}
		}
		if hits == 1 {
			found = append(found, anchor{i, at})
		}
	}
	return increasing(found)
}

// increasing is the longest subsequence of anchors (in run order) whose
// offsets increase, by patience sorting.
func increasing(as []anchor) []anchor {
	if len(as) < 2 {
		return as
	}
	var tails []int              // tails[k]: index in as of the last anchor of the best series of length k+1
	prev := make([]int, len(as)) // the anchor before each in its series
	for i, a := range as {
		k, _ := slices.BinarySearchFunc(tails, a.at, func(j, at int) int { return as[j].at - at })
		prev[i] = -1
		if k > 0 {
			prev[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([]anchor, len(tails))
	for k, i := len(tails)-1, tails[len(tails)-1]; k >= 0; k, i = k-1, prev[i] {
		out[k] = as[i]
	}
	return out
}

// freeMatch is the length (bytes, whitespace removed) from which a
// matched run needs no confirmation: text that long is not repeated by
// chance.
const freeMatch = 100

// confirmLookahead is how many of the runs after a match are tried to
// confirm it.
const confirmLookahead = 5

// confirmed reports whether one of the next few runs starts where a match
// at p ended, q, before another matches at p too. A table of contents
// repeats a page's headings: its entries match the extracted text too,
// but what follows each is the next entry (or the heading itself), where
// after the heading comes its section's text.
func confirmed(next []textRun, text string, p, q int) bool {
	for _, run := range next[:min(len(next), confirmLookahead)] {
		switch {
		case strings.HasPrefix(text[q:], run.texts[0]):
			return true
		case strings.HasPrefix(text[p:], run.whole):
			return false
		}
	}
	return false
}

// atEnd reports whether an extracted text node ends at offset i.
func atEnd(ends []int, i int) bool {
	_, ok := slices.BinarySearch(ends, i)
	return ok
}

// keep marks nodes of run as the article's, matched at text[from:to],
// and their block (and the figure around it) as live.
func (r *region) keep(run textRun, nodes []*html.Node, from, to int) {
	r.spans = append(r.spans, [2]int{from, to})
	for _, n := range nodes {
		r.kept[n] = true
	}
	r.live[run.block] = true
	for b, i := run.block, 0; b != nil && i < 3; b, i = b.Parent, i+1 {
		if b.Type == html.ElementNode && b.DataAtom == atom.Figure {
			r.live[b] = true
			break
		}
	}
}

// textRuns lists the page's text in document order, grouped by the block
// holding it; text nobody reads (scripts, styles, templates, <head>) is
// left out. The texts are cut from one string: a run's texts follow
// each other in it, and whole is their span.
func (r *region) textRuns(doc *html.Node) []textRun {
	var runs []textRun
	var all strings.Builder
	var bounds [][2]int // each text's start and end in all
	var starts []int    // each run's first text in bounds
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				at := all.Len()
				if !appendSquashed(&all, c.Data) {
					continue
				}
				b := blockOf(c)
				if k := len(runs) - 1; k < 0 || runs[k].block != b {
					runs = append(runs, textRun{block: b})
					starts = append(starts, len(bounds))
				}
				run := &runs[len(runs)-1]
				run.nodes = append(run.nodes, c)
				run.n += all.Len() - at
				bounds = append(bounds, [2]int{at, all.Len()})
			case html.ElementNode:
				if !unreadable(c) {
					walk(c)
				}
			}
		}
	}
	walk(doc)
	text := all.String()
	for i := range runs {
		bs := bounds[starts[i] : starts[i]+len(runs[i].nodes)]
		runs[i].texts = make([]string, len(bs))
		for k, b := range bs {
			runs[i].texts[k] = text[b[0]:b[1]]
		}
		runs[i].whole = text[bs[0][0]:bs[len(bs)-1][1]]
	}
	return runs
}

// unreadable elements hold no text a reader sees.
func unreadable(n *html.Node) bool {
	switch atomOf(n) {
	case atom.Head, atom.Script, atom.Style, atom.Template, atom.Title, atom.Svg, atom.Math, atom.Iframe, atom.Object, atom.Canvas, atom.Select,
		atom.Textarea, atom.Noembed, atom.Noframes, atom.Video, atom.Audio:
		return true
	}
	return false
}

// blockOf is the nearest ancestor of n that is not running text markup.
func blockOf(n *html.Node) *html.Node {
	b := n.Parent
	for b != nil && b.Type == html.ElementNode && phrasing(atomOf(b)) {
		b = b.Parent
	}
	return b
}

// phrasing reports whether an element is markup within running text.
func phrasing(a atom.Atom) bool {
	switch a {
	case atom.Sup, atom.Sub, atom.Label, atom.Bdi, atom.Bdo, atom.Data, atom.Ruby, atom.Rt,
		atom.Rp, atom.Nobr, atom.Picture, atom.Img, atom.Br, atom.Wbr, atom.Strike, atom.Output:
		return true
	}
	return isInline(a)
}

// eachText calls f for each text node under n, in order.
func eachText(n *html.Node, f func(*html.Node)) {
	if n.Type == html.TextNode {
		f(n)
		return
	}
	if n.Type == html.ElementNode && unreadable(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		eachText(c, f)
	}
}

// appendSquashed appends s without its whitespace and invisible
// characters to b and reports whether it appended anything.
func appendSquashed(b *strings.Builder, s string) bool {
	n := b.Len()
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c > ' ' {
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) && !invisible(r) {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.Len() > n
}

// invisible runes are dropped or added by extractors at will.
func invisible(r rune) bool {
	return r == '\u00AD' || r == '\uFEFF' || (r >= '\u200B' && r <= '\u200D')
}

// hasWord reports whether s has a letter or digit.
func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
