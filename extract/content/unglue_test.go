package content

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
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
