package content

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

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
//
// Hand-written: the fault is go-trafilatura's, and the page it read is
// what tells where its paragraphs were.

const (
	// rejoinWords is how many words on each side of a cut are looked for
	// in the page.
	rejoinWords = 3
	// maxRejoinChecks bounds the cuts looked for in a page's text (each
	// a scan of it).
	maxRejoinChecks = 64
)

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
	var run []*html.Node // what would move into p
	switch {
	case next == nil:
		return false
	case next.Type == html.ElementNode && atomOf(next) == atom.P:
		first := next.FirstChild
		if first == nil || first.Type != html.ElementNode || !isInline(atomOf(first)) || closesSentence(renderText(p)) {
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
	before := lastWords(renderText(p), rejoinWords)
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

// closesSentence reports whether text ends with closing punctuation.
func closesSentence(text string) bool {
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRightFunc(text, unicode.IsSpace))
	return strings.ContainsRune(".!?:;…\"'”’)]", r)
}
