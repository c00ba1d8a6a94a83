package content

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TestUnglueCards: go-trafilatura runs a card's blocks together ("Camp
// StoveTop Rated$275.00Fuel Type:Canister"); the article has the page's
// words, each card still on one line.
func TestUnglueCards(t *testing.T) {
	var cards strings.Builder
	for i := range 8 {
		fmt.Fprintf(&cards, `<li><div><div><span>Top Rated</span></div></div><a href="/p/%d"><span>Camp Stove %d</span></a>`+
			`<div><div><span>$%d.00</span></div></div><div><dl><div><dt>Fuel Type:</dt><dd>Canister</dd></div>`+
			`<div><dt>Weight:</dt><dd>%d lbs.</dd></div></dl></div></li>`, i, i, 100+i, 5+i)
	}
	page := `<html><head><title>Camp Stoves</title></head><body><main><h1>Camp Stoves</h1>` +
		`<p>Cook a hot meal anywhere with a camp stove: compare burners, fuel types and weights.</p>` +
		`<ul>` + cards.String() + `</ul></main></body></html>`
	res, err := Extract(context.Background(), Input{HTML: page, URL: "https://shop.example/c/camp-stoves"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, glued := range []string{"StoveTop", "0Top", "Rated$", "00Fuel", "Type:Canister", "CanisterWeight"} {
		if strings.Contains(res.Text, glued) {
			t.Errorf("text runs blocks together (%q):\n%s", glued, res.Text)
			break
		}
	}
	if !strings.Contains(res.Text, "Camp Stove 3") || !strings.Contains(res.Text, "$103.00") {
		t.Errorf("cards missing:\n%s", res.Text)
	}
}

// TestUnglue: a word where two text nodes meet is split where it fuses
// the words that end and start the page's blocks, and nowhere else.
func TestUnglue(t *testing.T) {
	page := fragment(t, `<div>Top Rated</div><a href="/x">Camp Stove</a><div>$275.00</div>`+
		`<p>Learn <b>Java</b>Script and the iPhone.</p><p>Read aloud with your voice.<sup>2</sup><sup>4</sup></p>`+
		`<div>Java</div><div>Script</div>`)
	out := fragment(t, `<ul><li></li></ul><p></p><p></p><p></p>`)
	texts := func(n *html.Node, parts ...string) {
		for _, p := range parts {
			n.AppendChild(&html.Node{Type: html.TextNode, Data: p})
		}
	}
	li := out.FirstChild.FirstChild
	texts(li, "Camp Stove", "Top Rated", "$275.00")
	p1 := out.FirstChild.NextSibling
	texts(p1, "Learn Java", "Script and the ", "iPhone.")
	p2 := p1.NextSibling
	texts(p2, "Read aloud with your voice.", "2", "4")
	p3 := p2.NextSibling
	texts(p3, "Camp Stove", " and more")
	unglue(out, &pageText{page: page})
	for _, c := range []struct {
		n    *html.Node
		want string
	}{
		{li, "Camp Stove Top Rated $275.00"},
		{p1, "Learn JavaScript and the iPhone."}, // the page has the word
		{p2, "Read aloud with your voice.24"},
		{p3, "Camp Stove and more"},
	} {
		if got := renderText(c.n); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestUnglueBounded: a long run of text with no spaces is not tried.
func TestUnglueBounded(t *testing.T) {
	long := strings.Repeat("ab", maxGluedWord)
	page := fragment(t, `<div>`+long+`</div><div>x</div>`)
	out := fragment(t, `<p></p>`)
	out.FirstChild.AppendChild(&html.Node{Type: html.TextNode, Data: long})
	out.FirstChild.AppendChild(&html.Node{Type: html.TextNode, Data: "x"})
	unglue(out, &pageText{page: page})
	if got := renderText(out); got != long+"x" {
		t.Errorf("a word over maxGluedWord was split: %q", got)
	}
}

// TestUnglueBudget: once a page's lookups are spent, no more words are
// tried.
func TestUnglueBudget(t *testing.T) {
	e := &blockEdges{starts: map[string]bool{"Top": true}, ends: map[string]bool{"Stove": true}, lookups: 3 * maxGluedPart * len("StoveTop")}
	for i := range 4 {
		got := e.split("StoveTop")
		if want := i < 3; (got != nil) != want {
			t.Fatalf("split %d: %q, want a split: %v", i, got, want)
		}
	}
}

// TestUnglueLongRun: a run of many text nodes is joined in one pass, and a
// word longer than maxGluedWord is not tried, however many junctions it
// has (a hostile page; quadratic work here would take minutes).
func TestUnglueLongRun(t *testing.T) {
	page := fragment(t, `<div>a</div><div>b</div>`)
	out := fragment(t, `<p></p>`)
	const nodes = 200_000
	for range nodes / 2 {
		out.FirstChild.AppendChild(&html.Node{Type: html.TextNode, Data: "a"})
		out.FirstChild.AppendChild(&html.Node{Type: html.TextNode, Data: "b"})
	}
	unglue(out, &pageText{page: page})
	if c := out.FirstChild.FirstChild; c.NextSibling != nil || len(c.Data) != nodes || strings.Contains(c.Data, " ") {
		t.Errorf("the run was not joined into one unsplit text node (%d bytes)", len(c.Data))
	}
}

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
