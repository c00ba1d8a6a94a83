package content

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// go-trafilatura's output is mended here against the page it read, in
// two ways (finishAccurate runs both on its article): words it runs
// together are split (unglue), and paragraphs it cuts before an inline
// element are joined (rejoinParagraphs). Both read the page rendered as
// text (pageText), once, and only when the output holds a word or a cut
// in doubt. Hand-written: the faults are go-trafilatura's, and only the
// page it read tells where its blocks and paragraphs were.

// pageText is a page rendered by renderText, made on first use.
type pageText struct {
	page *html.Node
	text string
	made bool
}

func (p *pageText) String() string {
	if !p.made {
		p.text, p.made = renderText(p.page), true
	}
	return p.text
}

// go-trafilatura (v1.12.2) runs together the text of the blocks it
// flattens: a list item's <div>s, a card's name, badge and price
// (<li><a>Camp Stove</a><div>Top Rated</div><div>$275.00</div></li>
// comes out "Camp StoveTop Rated$275.00"), a review's date and verdict
// ("Past monthVerified purchase"). Its handleTextNode trims each
// element's text and tail before the elements are unwrapped, so the
// line breaks between them are lost, and their edge words fuse into
// words the page does not have: adjacent text nodes, which render as
// one text. Such words match no search and no reference word (on the
// WCXB development set, eleven category pages had 77 to 140 of them
// each), and restoreSpaces, which mends the edges of inline elements,
// does not see them.
//
// unglue mends them against the page. A word of the output (a run of
// non-space characters) that the page's text, rendered as a reader sees
// it, does not hold, and that is a word the page ends a block with,
// followed by words the page starts and ends blocks with, and a last
// one it starts a block with, is split there with spaces. A word the
// page holds is never split ("JavaScript", "iPhone"), nor one whose
// parts do not stand at block edges.

const (
	// maxGluedWord bounds the words unglue tries to split (in bytes):
	// a glued card line is tens of characters; a longer run of
	// non-space text is a URL, a code token or unspaced script.
	maxGluedWord = 256
	// maxGluedPart bounds each part tried, so that a word costs at most
	// maxGluedWord×maxGluedPart lookups.
	maxGluedPart = 64
	// ungluedLookups bounds the lookups a page's words cost in all: a
	// real page's take a few thousand; a hostile one of thousands of
	// long glued words whose every piece is a block of the page would
	// otherwise take billions.
	ungluedLookups = 1 << 22
)

// unglue splits the words of out, go-trafilatura's article, that fuse
// the edge words of page's blocks (see above). Only the words where two
// of out's text nodes meet are candidates (that is where its blocks
// were), so most pages cost one walk of out; page is rendered only when
// there are some. It joins the text nodes that meet.
func unglue(out *html.Node, page *pageText) {
	var met []*html.Node
	glued := map[string]bool{}
	joinTexts(out, false, func(n *html.Node, at int) {
		if w, ok := wholeWordAt(n, at); ok {
			glued[w] = true
			if len(met) == 0 || met[len(met)-1] != n {
				met = append(met, n)
			}
		}
	})
	if len(glued) == 0 {
		return
	}
	edges := blockEdgesOf(page.String(), glued)
	if len(glued) == 0 {
		return
	}
	for _, n := range met {
		n.Data = splitGlued(n.Data, glued, edges)
	}
}

// joinTexts merges each text node under n into the one before it when
// their words meet (no space between them), and calls met with the
// merged node and each offset where two met: go-trafilatura writes an
// element's text and the tails of its unwrapped children as separate
// nodes, which render as one text. Text in <pre> and <code> is left
// alone (code is not glued prose).
func joinTexts(n *html.Node, code bool, met func(n *html.Node, at int)) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && !code:
			var joined strings.Builder // written once: a run of nodes is not copied per node
			var at []int
			last := c.Data
			for next := c.NextSibling; next != nil && next.Type == html.TextNode && meet(last, next.Data); next = c.NextSibling {
				if joined.Len() == 0 {
					joined.WriteString(c.Data)
				}
				at = append(at, joined.Len())
				joined.WriteString(next.Data)
				last = next.Data
				n.RemoveChild(next)
			}
			if len(at) > 0 {
				c.Data = joined.String()
				for _, i := range at {
					met(c, i)
				}
			}
		case c.Type == html.ElementNode:
			joinTexts(c, code || atomOf(c) == atom.Pre || atomOf(c) == atom.Code, met)
		}
	}
}

// wholeWordAt returns the word (run of non-space characters) of text node
// n around byte offset at, and whether it is the whole word as rendered
// and at most maxGluedWord long: one that runs to an edge of n is whole
// only when nothing renders next to it there (n is its block's first or
// last child, or a block or line break stands beside it). It reads at
// most maxGluedWord bytes each side of at.
func wholeWordAt(n *html.Node, at int) (string, bool) {
	lo, hi := max(0, at-maxGluedWord), min(len(n.Data), at+maxGluedWord)
	from := strings.LastIndexFunc(n.Data[lo:at], unicode.IsSpace) + 1 + lo
	if from == lo && lo > 0 {
		return "", false // longer than maxGluedWord
	}
	to := strings.IndexFunc(n.Data[at:hi], unicode.IsSpace)
	switch {
	case to >= 0:
		to += at
	case hi < len(n.Data):
		return "", false
	default:
		to = len(n.Data)
	}
	if from == 0 && !wordEndsAt(n, false) || to == len(n.Data) && !wordEndsAt(n, true) || to-from > maxGluedWord {
		return "", false
	}
	return n.Data[from:to], true
}

// wordEndsAt reports whether a word of text node n that runs to its end
// (after) or start ends there as rendered: the sibling on that side is a
// block or a line break, or text beginning (ending) with a space, or
// there is none and n's parent is a block.
func wordEndsAt(n *html.Node, after bool) bool {
	beside := n.PrevSibling
	if after {
		beside = n.NextSibling
	}
	switch {
	case beside == nil:
		return n.Parent == nil || !isInline(atomOf(n.Parent))
	case beside.Type == html.TextNode && after:
		return !meet("x", beside.Data)
	case beside.Type == html.TextNode:
		return !meet(beside.Data, "x")
	}
	return beside.Type == html.ElementNode && !isInline(atomOf(beside)) && atomOf(beside) != atom.Img
}

// meet reports whether a ends and b starts with a non-space character.
func meet(a, b string) bool {
	l, _ := utf8.DecodeLastRuneInString(a)
	r, _ := utf8.DecodeRuneInString(b)
	return a != "" && b != "" && !unicode.IsSpace(l) && !unicode.IsSpace(r)
}

// blockEdges are the words that begin and that end a block's text on a
// page.
type blockEdges struct {
	starts, ends map[string]bool
	lookups      int // left to split (see ungluedLookups)
}

// blockEdgesOf returns the block edges of text, a page rendered by
// renderText; it deletes from unknown the words the text holds.
func blockEdgesOf(text string, unknown map[string]bool) *blockEdges {
	e := &blockEdges{starts: map[string]bool{}, ends: map[string]bool{}, lookups: ungluedLookups}
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == '\t' }) {
		var first, last string
		for w := range strings.FieldsSeq(line) {
			if first == "" {
				first = w
			}
			last = w
			if len(unknown) > 0 {
				delete(unknown, w)
			}
		}
		if first != "" {
			e.starts[first] = true
			e.ends[last] = true
		}
	}
	return e
}

// splitGlued returns text with each word in glued split into the block
// edge words it fuses (see unglue), where it does.
func splitGlued(text string, glued map[string]bool, e *blockEdges) string {
	var b strings.Builder
	changed := false
	rest := text
	for rest != "" {
		start := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsSpace(r) })
		if start < 0 {
			b.WriteString(rest)
			break
		}
		end := strings.IndexFunc(rest[start:], unicode.IsSpace)
		if end < 0 {
			end = len(rest) - start
		}
		b.WriteString(rest[:start])
		w := rest[start : start+end]
		var parts []string
		if glued[w] {
			parts = e.split(w)
		}
		if parts != nil {
			b.WriteString(strings.Join(parts, " "))
			changed = true
		} else {
			b.WriteString(w)
		}
		rest = rest[start+end:]
	}
	if !changed {
		return text
	}
	return b.String()
}

// split cuts w into the fewest parts of which the first ends a block, the
// last starts one and each other does both, or returns nil when it
// cannot or e's lookups run out.
func (e *blockEdges) split(w string) []string {
	if e.lookups -= len(w) * maxGluedPart; e.lookups < 0 {
		return nil
	}
	// parts[i] is the fewest parts t[:i] cuts into, each but the first
	// starting a block and each ending one; from[i] where its last begins.
	parts := make([]int, len(w))
	from := make([]int, len(w))
	for i := 1; i < len(w); i++ {
		if i <= maxGluedPart && e.ends[w[:i]] {
			parts[i], from[i] = 1, 0
			continue
		}
		for j := max(1, i-maxGluedPart); j < i; j++ {
			if parts[j] > 0 && (parts[i] == 0 || parts[j]+1 < parts[i]) && e.starts[w[j:i]] && e.ends[w[j:i]] {
				parts[i], from[i] = parts[j]+1, j
			}
		}
	}
	last := 0
	for j := max(1, len(w)-maxGluedPart); j < len(w); j++ {
		if parts[j] > 0 && (last == 0 || parts[j] < parts[last]) && e.starts[w[j:]] {
			last = j
		}
	}
	if last == 0 {
		return nil
	}
	cut := []string{w[last:]}
	for i := last; i > 0; i = from[i] {
		cut = append(cut, w[from[i]:i])
	}
	for l, r := 0, len(cut)-1; l < r; l, r = l+1, r-1 {
		cut[l], cut[r] = cut[r], cut[l]
	}
	return cut
}

// go-trafilatura (v1.12.2) also ends a paragraph where an inline element
// follows its text in some containers (a forum post's <p>, a
// blockquote, text between <br>s): "<p>I'm happy to announce RC1
// (that's <em>Release Candidate 1</em>!!) of NodeBB v4.</p>" comes out
// "<p>I'm happy to announce RC1 (that's</p><em>Release Candidate
// 1</em>!!) of NodeBB v4.", and "not yet <i>turned</i> zombie" as two
// paragraphs. The sentence is then cut in two lines of the text, a
// chunk boundary may fall inside it, and a search for it fails.
//
// rejoinParagraphs mends them against the page: a <p> followed by text
// or an inline element, or by a <p> that opens with an inline element
// after one that ends without closing punctuation, takes what follows
// it in when the page's text has the words on both sides of the cut
// on one line, as one run. Paragraphs the page sets apart are never
// joined: renderText ends a line at every paragraph.

const (
	// rejoinWords is how many words on each side of a cut are looked for
	// in the page.
	rejoinWords = 3
	// maxRejoinChecks bounds the cuts looked for in a page's text (each
	// a scan of it).
	maxRejoinChecks = 64
)

// rejoinParagraphs joins the paragraphs of out, go-trafilatura's article,
// that it cut where page has none (see above).
func rejoinParagraphs(out *html.Node, page *pageText) {
	checks := maxRejoinChecks
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if atomOf(c) == atom.P {
				for checks > 0 && rejoinNext(c, page, &checks) {
				}
			}
			walk(c)
		}
	}
	walk(out)
}

// rejoinNext moves into p what follows it when go-trafilatura cut the two
// apart (see above), and reports whether it did.
func rejoinNext(p *html.Node, page *pageText, checks *int) bool {
	next := p.NextSibling
	if next == nil {
		return false
	}
	text := renderText(p)
	var run []*html.Node // what would move into p
	switch {
	case next.Type == html.ElementNode && atomOf(next) == atom.P:
		first := next.FirstChild
		if first == nil || first.Type != html.ElementNode || !isInline(atomOf(first)) || closesSentence(text) {
			return false
		}
		run = []*html.Node{next}
	default:
		for n := next; n != nil && (n.Type == html.TextNode || n.Type == html.ElementNode && isInline(atomOf(n))); n = n.NextSibling {
			run = append(run, n)
		}
		if len(run) == 0 || strings.TrimSpace(renderText(run[0])) == "" && len(run) == 1 {
			return false
		}
	}
	before := lastWords(text, rejoinWords)
	var after []string
	for _, n := range run {
		after = append(after, strings.Fields(renderText(n))...)
		if len(after) >= rejoinWords {
			break
		}
	}
	if len(before) == 0 || len(after) == 0 {
		return false
	}
	after = after[:min(len(after), rejoinWords)]
	*checks--
	if !strings.Contains(page.String(), strings.Join(before, " ")+" "+strings.Join(after, " ")) {
		return false
	}
	p.AppendChild(&html.Node{Type: html.TextNode, Data: " "})
	for _, n := range run {
		if atomOf(n) == atom.P && n.Type == html.ElementNode {
			for c := n.FirstChild; c != nil; c = n.FirstChild {
				n.RemoveChild(c)
				p.AppendChild(c)
			}
			n.Parent.RemoveChild(n)
			continue
		}
		n.Parent.RemoveChild(n)
		p.AppendChild(n)
	}
	return true
}

// lastWords returns the last n words of text.
func lastWords(text string, n int) []string {
	words := strings.Fields(text)
	return words[max(0, len(words)-n):]
}

// closesSentence reports whether text, as renderText gives it (trimmed),
// ends a clause (endsClause) or with a closing quote or bracket.
func closesSentence(text string) bool {
	r, _ := utf8.DecodeLastRuneInString(text)
	return endsClause(text) || strings.ContainsRune("\"'”’)]", r)
}
