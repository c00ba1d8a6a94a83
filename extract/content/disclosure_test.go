package content

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/wcxb"
)

func TestRevealPanels(t *testing.T) {
	page := `<html><body>
<header><button aria-controls="menu">Menu</button><ul id="menu" aria-hidden="true"><li>Shop</li></ul></header>
<main>
<h1>Trail shoe</h1>
<button aria-expanded="false" aria-controls="specs">Specifications</button>
<div id="specs" aria-hidden="true" style="color: red; display: none">Weight 280 g, drop 6 mm.</div>
<div role="tabpanel" hidden>Free returns within 30 days.</div>
<div id="cookie" role="dialog" aria-hidden="true">We use cookies.</div>
<div popover><div role="tabpanel" hidden>Enable notifications.</div></div>
<dialog><div role="tabpanel" hidden>Sign in.</div></dialog>
<div hidden>Out of stock.</div>
</main></body></html>`
	doc, err := parseHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	revealPanels(doc)
	shown := map[string]bool{}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && (n.Data == "div" || n.Data == "ul") {
			shown[strings.TrimSpace(nodeText(n))] = !hidden(n)
		}
	}
	for text, want := range map[string]bool{
		"Weight 280 g, drop 6 mm.":     true,  // an accordion's panel, named by its button
		"Free returns within 30 days.": true,  // a tab
		"Shop":                         false, // a menu in the header
		"We use cookies.":              false, // a dialog
		"Enable notifications.":        false, // a tab inside a closed popover
		"Sign in.":                     false, // a tab inside a closed dialog
		"Out of stock.":                false, // hidden, and no control opens it
	} {
		if got, ok := shown[text]; !ok || got != want {
			t.Errorf("%q shown = %v (found %v), want %v", text, got, ok, want)
		}
	}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "div" && strings.Contains(nodeText(n), "Weight") {
			if style := n.Attr[len(n.Attr)-1]; style.Key != "style" || strings.Contains(style.Val, "none") || !strings.Contains(style.Val, "color") {
				t.Errorf("the panel's style should keep its colour and lose display:none: %+v", n.Attr)
			}
		}
	}
}

func TestSpaceSiblings(t *testing.T) {
	cases := []struct{ html, want string }{
		{`<a href="/p"><span>Gregory</span><span>Paragon 68 Pack</span></a>`, "Gregory Paragon 68 Pack"},
		{`<div><span>$158.73</span><div>Save 45%</div></div>`, "$158.73 Save 45%"},
		{`<p>See <a href="/x">FieldEdge</a><span>, which</span> helps.</p>`, "See FieldEdge, which helps."},
		{`<p><span class="dropcap">I</span><span>n-house catering</span></p>`, "In-house catering"},
		{`<pre><span>fmt</span><span>Println</span></pre>`, "fmtPrintln"},
		// Past an empty separator or icon, which extractors drop (as
		// dropEmpty does here).
		{`<div><span>9 hrs ago</span><div class="sep"></div><span>Latin America</span></div>`, "9 hrs ago Latin America"},
		{`<p><span>4.5</span><i class="icon-star"></i><!-- --><span>stars</span></p>`, "4.5 stars"},
		{`<p><span>super</span><wbr><span>califragilistic</span></p>`, "supercalifragilistic"},
	}
	dropEmpty := func(doc *html.Node) {
		var empty []*html.Node
		for n := range doc.Descendants() {
			if n.Type == html.ElementNode && n.FirstChild == nil && n.DataAtom != atom.Wbr || n.Type == html.CommentNode {
				empty = append(empty, n)
			}
		}
		for _, n := range empty {
			n.Parent.RemoveChild(n)
		}
	}
	for _, c := range cases {
		doc, err := parseHTML("<html><body>" + c.html + "</body></html>")
		if err != nil {
			t.Fatal(err)
		}
		spaceSiblings(doc)
		dropEmpty(doc)
		if got := strings.TrimSpace(nodeText(doc)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.html, got, c.want)
		}
	}
	// Between two blocks the renderers break the line: nothing is added.
	doc, _ := parseHTML("<html><body><div><div>One</div><div>Two</div></div></body></html>")
	spaceSiblings(doc)
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && nodeText(n) == "One" && n.NextSibling.Type != html.ElementNode {
			t.Error("a space was put between two blocks")
		}
	}
}

func TestDropHidden(t *testing.T) {
	page := `<html><body>
<main>
<h2>Trail shoe</h2>
<p>Weight 280 g.</p>
<div role="dialog" aria-modal="true" hidden><h2>Why you're seeing this ad</h2></div>
<div class="backorder" hidden><p>Back in stock soon.</p></div>
<div hidden="Until-Found"><p>Care: wash cold.</p></div>
<button aria-controls="specs">Specifications</button><div id="specs" hidden><p>Drop 6 mm.</p></div>
<div hidden id="S:1"><p>Streamed reviews.</p></div>
</main>
</body></html>`
	doc, err := parseHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	revealPanels(doc)
	dropHidden(doc)
	text := nodeText(doc)
	for _, want := range []string{"Weight 280 g.", "Care: wash cold.", "Drop 6 mm.", "Streamed reviews."} {
		if !strings.Contains(text, want) {
			t.Errorf("%q was dropped: what is shown, a panel and a streamed part stay", want)
		}
	}
	for _, gone := range []string{"seeing this ad", "Back in stock"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q stayed: the hidden attribute hides it and nothing opens it", gone)
		}
	}
}

// A page hidden whole until its scripts run is still the page.
func TestDropHiddenKeepsAHiddenPage(t *testing.T) {
	doc, err := parseHTML(`<html><body><div id="app" hidden><main hidden><h2>Trail shoe</h2><p>A light shoe for long runs on rough ground.</p>
<div role="dialog" hidden>Sign in</div></main></div><footer>© Shop</footer></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	dropHidden(doc)
	text := nodeText(doc)
	if !strings.Contains(text, "A light shoe") {
		t.Errorf("the hidden page was dropped: %q", text)
	}
	if strings.Contains(text, "Sign in") {
		t.Errorf("the hidden dialog inside the hidden page stayed: %q", text)
	}
}

func TestDropClosedMenus(t *testing.T) {
	page := `<html><body>
<h1>Trending</h1>
<details class="select-menu"><summary>Spoken language: <span>Any</span></summary>
<details-menu><div class="select-menu-list"><a role="menuitemradio" href="?l=ab">Abkhazian</a><a role="menuitemradio" href="?l=af">Afar</a>
<a role="menuitemradio" href="?l=ar">Arabic</a><a role="menuitemradio" href="?l=hy">Armenian</a></div></details-menu>
</details>
<details><summary aria-haspopup="menu">Men</summary><ul><li><a href="/men/shoes">Shoes</a></li></ul></details>
<details open><summary>Sort</summary><div role="listbox"><div role="option">Newest</div></div></details>
<details><summary>Is shipping free?</summary><p>Yes, on orders over $50.</p></details>
<details><summary>Read the whole story</summary><p>The engine predicts what a swarm of agents will do.</p><ul role="menu"><li role="menuitem">Share</li></ul></details>
<details><summary>Contents</summary><details><summary>Part one</summary><p>The first part.</p></details></details>
<article><p>A swarm intelligence engine.</p></article>
</body></html>`
	doc, err := parseHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	dropClosedMenus(doc)
	text := nodeText(doc)
	for _, want := range []string{"Trending", "Newest", "Is shipping free?", "Yes, on orders over $50.", "The engine predicts", "The first part.", "A swarm intelligence engine."} {
		if !strings.Contains(text, want) {
			t.Errorf("%q was dropped: an open menu, an FAQ's answer, a section with a menu in it and nested sections stay", want)
		}
	}
	for _, gone := range []string{"Spoken language", "Abkhazian", "Men", "Shoes"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q stayed: a closed <details> that opens a menu is not drawn", gone)
		}
	}
}

// A page built inside a closed <details> that also holds a menu is
// still the page.
func TestDropClosedMenusKeepsThePage(t *testing.T) {
	doc, err := parseHTML(`<html><body><details><summary aria-haspopup="true">Menu</summary><main><h1>Trail shoe</h1><p>A light shoe for long runs.</p></main></details></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	dropClosedMenus(doc)
	if text := nodeText(doc); !strings.Contains(text, "A light shoe") {
		t.Errorf("the page was dropped: %q", text)
	}
}

// On a real page, in both modes: GitHub's trending repositories under
// its language and date pickers.
func TestClosedMenusLeftOut(t *testing.T) {
	p := wcxb.LoadPage(t, "2909")
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		r, err := Extract(context.Background(), Input{HTML: string(p.HTML), URL: p.URL, Mode: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.Text, "Abkhazian") || strings.Contains(r.Text, "Select a spoken language") {
			t.Errorf("%s: the language picker came out:\n%s", mode, r.Text[:min(len(r.Text), 600)])
		}
		if !strings.Contains(r.Text, "A Simple and Universal Swarm Intelligence Engine") {
			t.Errorf("%s: the repositories are missing:\n%s", mode, r.Text[:min(len(r.Text), 600)])
		}
	}
}
