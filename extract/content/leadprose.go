package content

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// The bounds of the leading prose withLeadingProse restores.
const (
	leadMinParagraphs = 2   // the fewest paragraphs it takes
	leadParagraphMin  = 10  // the fewest words of one of them
	leadParagraphMax  = 200 // the most words of one of them
	leadCovered       = 0.2 // the share of a block's 4-grams in b that marks b's start
	leadMaxBlocks     = 32  // the most blocks an introduction has, headings and all
)

// withLeadingProse puts before b, readability's article chosen over a,
// go-trafilatura's (see choose), whose text is tb, the introduction a
// has before b's text starts, and reports whether it did. Readability
// merges the siblings of the container it scores highest, and an
// introduction the page sets apart from the body (a "body-intro" block,
// a summary box above the first section) is left out of it; trafilatura
// keeps it. Taken are the paragraphs of a before its first block that b
// holds: each a single line of leadParagraphMin to leadParagraphMax
// words ending a sentence, mostly not link text, with a heading that
// heads one of them. Only two paragraphs or more are taken: a single
// one there is as often the standfirst, the summary under the headline,
// which both benchmarks leave out. On the WCXB development set this
// changed 12 pages, 9 for the better (articles' F1 +0.0005, `with`
// +0.15 points), the article benchmark none; taking a single paragraph
// too changed 37, 17 for the better and 18 for the worse, and cost the
// article benchmark 0.0002.
func withLeadingProse(b *html.Node, tb string, a *html.Node) bool {
	// b's text squashed and shingled, made when first needed: most of
	// a's first blocks are in b's text as they are.
	var have string
	var sb *shingles
	var lead []*html.Node
	var texts []string
	for c := range topBlocks(a) {
		t := renderText(c)
		trimmed := strings.TrimSpace(t)
		if trimmed == "" {
			continue
		}
		if strings.Contains(tb, trimmed) {
			break
		}
		if have == "" {
			have = squash(tb)
		}
		if strings.Contains(have, squash(t)) {
			break
		}
		if sb == nil {
			s := shingle(tb)
			sb = &s
		}
		if shingle(t).coveredBy(*sb) >= leadCovered {
			break
		}
		if len(lead) == leadMaxBlocks {
			// Not an introduction; and each block more would be
			// looked for in all of b.
			return false
		}
		lead, texts = append(lead, c), append(texts, t)
	}
	var keep []*html.Node
	paragraphs := 0
	for i := len(lead) - 1; i >= 0; i-- {
		switch c := lead[i]; {
		case prose(c, texts[i]):
			keep = append(keep, c)
			paragraphs++
		case htmltag.IsHeading(atomOf(c)) && len(keep) > 0 && keep[len(keep)-1] == lead[i+1]:
			keep = append(keep, c)
		}
	}
	if paragraphs < leadMinParagraphs {
		return false
	}
	for _, c := range keep {
		b.InsertBefore(cloneTree(c), b.FirstChild)
	}
	return true
}

// prose reports whether block c, with text t, is a paragraph of prose:
// not a heading, one line of leadParagraphMin to leadParagraphMax words
// that ends a sentence, under half of it link text.
func prose(c *html.Node, t string) bool {
	t = strings.TrimSpace(t)
	if htmltag.IsHeading(atomOf(c)) || strings.Contains(t, "\n") {
		return false
	}
	if n := words.Count(t); n < leadParagraphMin || n > leadParagraphMax {
		return false
	}
	end := strings.TrimRight(t, "\"'”’)»")
	if !strings.HasSuffix(end, ".") && !strings.HasSuffix(end, "!") &&
		!strings.HasSuffix(end, "?") && !strings.HasSuffix(end, "…") {
		return false
	}
	total, linked := linkText(c)
	return 2*linked < total
}

// topBlocks yields the element children of a, or of the element that a
// only wraps (an element with no text of its own and one element child),
// as deep as they go.
func topBlocks(a *html.Node) func(yield func(*html.Node) bool) {
	return func(yield func(*html.Node) bool) {
		root := a
		for {
			only := onlyChild(root)
			if only == nil {
				break
			}
			root = only
		}
		for c := root.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && !yield(c) {
				return
			}
		}
	}
}

// onlyChild is n's one element child when n has no other and no text of
// its own, else nil.
func onlyChild(n *html.Node) *html.Node {
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.ElementNode && only == nil:
			only = c
		case c.Type == html.ElementNode, c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return nil
		}
	}
	return only
}
