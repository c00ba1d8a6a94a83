package htmltag

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// visibleText is n's text outside <script>, <style> and <iframe>.
func visibleText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Iframe) {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data + " ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func TestParseNoscriptHoldsElements(t *testing.T) {
	doc, err := Parse(`<html><body><noscript><div class="post"><p>First post</p></div></noscript><p>After</p></body></html>`, "html")
	if err != nil {
		t.Fatal(err)
	}
	var post *html.Node
	for n := range doc.Descendants() {
		if n.DataAtom == atom.P && n.Parent != nil && n.Parent.DataAtom == atom.Div {
			post = n
		}
	}
	if post == nil || post.Parent.Parent.DataAtom != atom.Noscript {
		t.Fatalf("the <noscript>'s markup was not parsed into elements: %q", visibleText(doc))
	}
	if got := visibleText(doc); got != "First post After" {
		t.Errorf("text = %q", got)
	}
}

// A tag manager's `<noscript><iframe ... /></noscript>` must not swallow
// the rest of the page into the iframe's raw text, as it does when the
// whole page is parsed with scripting off.
func TestParseNoscriptIframeStaysInside(t *testing.T) {
	page := `<html><head><noscript><img src="/pixel.gif"></noscript></head><body>` +
		`<noscript><iframe src="https://tags.example/ns.html" height="0" width="0" /></noscript>` +
		`<main><h1>Your fastest path</h1><p>Deploy in minutes.</p></main></body></html>`
	doc, err := Parse(page, "html")
	if err != nil {
		t.Fatal(err)
	}
	if got := visibleText(doc); got != "Your fastest path Deploy in minutes." {
		t.Errorf("text = %q, want the page's text outside the iframe", got)
	}
	for n := range doc.Descendants() {
		if n.DataAtom == atom.Img && (n.Parent.DataAtom != atom.Noscript || n.Parent.Parent.DataAtom != atom.Body) {
			t.Errorf("the head's <noscript> image is in a <%s> in a <%s>, want a <noscript> at the start of the <body>",
				n.Parent.Data, n.Parent.Parent.Data)
		}
	}
}

// A <noscript> of head elements stays in the <head>.
func TestParseNoscriptHeadStyles(t *testing.T) {
	doc, err := Parse(`<html><head><noscript><style>.js{display:none}</style></noscript></head><body><p>Text</p></body></html>`, "html")
	if err != nil {
		t.Fatal(err)
	}
	for n := range doc.Descendants() {
		if n.DataAtom == atom.Style && n.Parent.Parent.DataAtom != atom.Head {
			t.Errorf("the <style> moved to a <%s>", n.Parent.Parent.Data)
		}
	}
}

// Many <noscript>s in the <head> move to the body in their order, the
// body found once (a walk per <noscript> would be quadratic).
func TestParseManyHeadNoscripts(t *testing.T) {
	var head strings.Builder
	for i := range 5000 {
		head.WriteString(`<noscript><img alt="` + string(rune('a'+i%26)) + `"></noscript>`)
	}
	doc, err := Parse(`<html><head>`+head.String()+`</head><body><p>Text</p></body></html>`, "html")
	if err != nil {
		t.Fatal(err)
	}
	var alts []byte
	for n := range doc.Descendants() {
		if n.DataAtom == atom.Img {
			if n.Parent.Parent.DataAtom != atom.Body {
				t.Fatalf("an image's <noscript> is in a <%s>", n.Parent.Parent.Data)
			}
			alts = append(alts, Attr(n, "alt")[0])
		}
	}
	if len(alts) != 5000 || string(alts[:27]) != "abcdefghijklmnopqrstuvwxyza" {
		t.Errorf("%d images, order %q", len(alts), alts[:min(27, len(alts))])
	}
}
