package content

import (
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestRejoinParagraphs: a paragraph go-trafilatura ended before an
// inline element is joined to what follows when the page has the words
// on one line; paragraphs the page sets apart stay apart.
func TestRejoinParagraphs(t *testing.T) {
	page := fragment(t, `<div><p>I'm happy to announce RC1 (that's <em>Release Candidate 1</em>!!) of NodeBB v4.</p>`+
		`<p>You're one of the few not yet <i>turned</i> zombie.</p>`+
		`<p>A heading of sorts</p><p><b>Bold</b> start of the next one.</p>`+
		`<p>Read the guide</p><a href="/more">Read more</a></div>`)
	tests := []struct{ name, out, want string }{
		{"inline after the paragraph",
			`<p>I'm happy to announce RC1 (that's</p><em>Release Candidate 1</em>!!) of NodeBB v4.`,
			`<p>I&#39;m happy to announce RC1 (that&#39;s <em>Release Candidate 1</em>!!) of NodeBB v4.</p>`},
		{"a paragraph opening with an inline element",
			`<p>You're one of the few not yet</p><p><i>turned</i> zombie.</p>`,
			`<p>You&#39;re one of the few not yet <i>turned</i> zombie.</p>`},
		{"paragraphs the page sets apart",
			`<p>A heading of sorts</p><p><b>Bold</b> start of the next one.</p>`,
			`<p>A heading of sorts</p><p><b>Bold</b> start of the next one.</p>`},
		{"a link after a paragraph",
			`<p>Read the guide</p><a href="/more">Read more</a>`,
			`<p>Read the guide</p><a href="/more">Read more</a>`},
	}
	for _, tt := range tests {
		out := fragment(t, tt.out)
		rejoinParagraphs(out, &pageText{page: page})
		if got := render(out); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// TestRejoinBounded: a page is scanned for at most maxRejoinChecks cuts.
func TestRejoinBounded(t *testing.T) {
	page := fragment(t, `<p>w x y z</p>`)
	out := &html.Node{Type: html.ElementNode, Data: "body"}
	for range 2 * maxRejoinChecks {
		p := &html.Node{Type: html.ElementNode, Data: "p", DataAtom: atom.P}
		p.AppendChild(&html.Node{Type: html.TextNode, Data: "x y"})
		out.AppendChild(p)
		out.AppendChild(&html.Node{Type: html.TextNode, Data: "z"})
	}
	rejoinParagraphs(out, &pageText{page: page})
	left := 0
	for c := out.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			left++
		}
	}
	if left != maxRejoinChecks {
		t.Errorf("%d cuts left of %d, want %d (one joined per check)", left, 2*maxRejoinChecks, maxRejoinChecks)
	}
}
