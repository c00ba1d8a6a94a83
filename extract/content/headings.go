package content

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/internal/words"
)

// headingsMaxNodes bounds the nodes findHeadingsOver and withHeadings
// render, each: a page nesting paragraphs in buttons in paragraphs
// would otherwise have each one rendered once per level.
const headingsMaxNodes = 1 << 20

// headingsOver maps a paragraph's text (squashed) to a copy of the
// heading right before it on the page.
type headingsOver map[string]*html.Node

// findHeadingsOver finds the page's subheadings (<h2> to <h6>) whose next
// element is a paragraph of eight words or more, the heading of a
// section or of a card. go-trafilatura keeps such a paragraph and drops
// its heading where the heading holds other elements (Substack's
// permalink anchors) or sits in a link with its paragraph (a teaser
// card), and readability where it looks like chrome; withHeadings puts
// them back. The page's <h1> is the title, not repeated in the text.
func findHeadingsOver(doc *html.Node) headingsOver {
	out := headingsOver{}
	budget := headingsMaxNodes
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || !htmltag.IsHeading(atomOf(n)) || atomOf(n) == atom.H1 {
			continue
		}
		p := n.NextSibling
		for p != nil && p.Type != html.ElementNode {
			p = p.NextSibling
		}
		if p == nil || atomOf(p) != atom.P {
			continue
		}
		text, ok := boundedText(p, &budget)
		if !ok {
			break
		}
		if words.Count(text) < heroParaWords {
			continue
		}
		heading, ok := boundedText(n, &budget)
		if !ok {
			break
		}
		if words.Count(heading) > 0 {
			out[squash(text)] = n
		}
	}
	return out
}

// withHeadings puts before each paragraph of res's article its heading
// from over, where the article lacks that heading (a line of its text);
// not the title
// or the description over the article's top (see dropLeadingMeta), which
// the pipelines took out on purpose. Headings are copied, each once.
func withHeadings(res *Result, over headingsOver) {
	if len(over) == 0 || res.Node == nil {
		return
	}
	have := map[string]bool{}
	for line := range strings.SplitSeq(renderText(res.Node), "\n") {
		have[squash(line)] = true
	}
	title, description := normKey(res.Title), normKey(res.Description)
	budget := headingsMaxNodes
	var paras, headings []*html.Node
	for n := range res.Node.Descendants() {
		if n.Type != html.ElementNode || atomOf(n) != atom.P {
			continue
		}
		text, ok := boundedText(n, &budget)
		if !ok {
			break
		}
		h := over[squash(text)]
		if h == nil {
			continue
		}
		delete(over, squash(text))
		heading := renderText(h)
		if k := normKey(heading); have[squash(heading)] || similar(k, title) || similar(k, description) {
			continue
		}
		paras, headings = append(paras, n), append(headings, cloneTree(h))
	}
	for i, p := range paras {
		p.Parent.InsertBefore(headings[i], p)
	}
	if len(paras) > 0 {
		res.Text = "" // finish renders it
	}
}

// boundedText renders n when its nodes fit in *budget, which it charges.
func boundedText(n *html.Node, budget *int) (string, bool) {
	if *budget -= subtreeSize(n, *budget); *budget < 0 {
		return "", false
	}
	return renderText(n), true
}
