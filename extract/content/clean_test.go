package content

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// fragment parses markup as the children of a <body> and returns the body.
func fragment(t *testing.T, markup string) *html.Node {
	t.Helper()
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(markup), body)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		body.AppendChild(n)
	}
	return body
}

func render(n *html.Node) string {
	var b bytes.Buffer
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		html.Render(&b, c)
	}
	return b.String()
}

func TestRenderText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<p>one <b>two</b>  three</p><p>four</p>`, "one two three\n\nfour"},
		{`<h2>Title</h2>tail text<div>a</div><div>b</div>`, "Title\n\ntail text\na\nb"},
		{`<ul><li>x</li><li>y</li></ul>after`, "x\ny\n\nafter"},
		{`<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>`, "a\tb\nc\td"},
		{`<p>Line.<br>Break</p><pre>  keep
  this</pre>`, "Line.\nBreak\n\n  keep\n  this"},
		// A <br> within a sentence only wraps it; one before a capital
		// (an address's lines) or after a full stop ends the line.
		{`<p>used in a<br> fitness facility, in<br>2018</p>`, "used in a fitness facility, in 2018"},
		{`<p>Jane Doe<br>Main Street 4<br><br>next</p>`, "Jane Doe\nMain Street 4\n\nnext"},
		{`<p>wrapped<br></p><p>para</p>`, "wrapped\n\npara"},
		{`<p>shown<script>hidden()</script><style>p{}</style></p>`, "shown"},
	}
	for _, tt := range tests {
		if got := renderText(fragment(t, tt.in)); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestArticleText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bullets", `<p>Apps:</p><ul><li>Headspace</li><li><a href="/b">Buddhify</a></li></ul>after`,
			"Apps:\n\n- Headspace\n- Buddhify\n\nafter"},
		{"numbers", `<ol><li>one</li><li>two</li></ol>`, "1. one\n2. two"},
		{"start", `<ol start="7"><li>seven</li><li>eight</li></ol>`, "7. seven\n8. eight"},
		{"reversed", `<ol reversed><li>three</li><li>two</li><li>one</li></ol>`, "3. three\n2. two\n1. one"},
		{"value", `<ol><li>one</li><li value="10">ten</li><li>eleven</li></ol>`, "1. one\n10. ten\n11. eleven"},
		{"nested", `<ol><li>first<ul><li>inner</li></ul></li><li>second</li></ol>`, "1. first\n\n- inner\n\n2. second"},
		{"item of blocks", `<ul><li><p>para</p></li><li></li><li>last</li></ul>`, "- para\n\n- last"},
		{"table", `<table><tr><th>Year</th><th>Physics</th></tr><tr><td>1901</td><td></td><td>Röntgen</td></tr></table>`,
			"| Year | Physics |\n| 1901 | Röntgen |"},
		{"break in a cell", `<table><tr><td>Result of a course<br>&nbsp;</td><td>Of an<br>Exam</td></tr></table>`,
			"| Result of a course | Of an Exam |"},
		{"table in a cell", `<table><tr><td>a</td><td><table><tr><td>x</td><td>y</td></tr></table></td></tr></table>`,
			"| a |\n\n| x | y |"},
	}
	for _, tt := range tests {
		if got := articleText(fragment(t, tt.in)); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestRestoreSpaces(t *testing.T) {
	// go-trafilatura's output trims the text around inline elements.
	n := fragment(t, `<p>2 for<strong>Larry</strong>has,<a href="x">then</a>(not)<b>W</b>'s <i>ok</i></p>`)
	restoreSpaces(n, nil)
	if got, want := renderText(n), "2 for Larry has, then(not) W's ok"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Chinese and Japanese put no spaces between words.
	n = fragment(t, `<p>中文<b>强调</b>文字、<i>日本語</i>です</p>`)
	restoreSpaces(n, nil)
	if got, want := renderText(n), "中文强调文字、日本語です"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDropLeadingMeta(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"headline and standfirst", `<h1>Water on Europa!</h1><h2>Scientists confirm vapour plumes.</h2><p>Body.</p>`, `<p>Body.</p>`},
		{"headline nested", `<div><header><h1>Water on Europa</h1></header><p>Body.</p></div>`, `<div><header></header><p>Body.</p></div>`},
		{"a paragraph like the description is body", `<p>Scientists confirm vapour plumes.</p><p>Body.</p>`, `<p>Scientists confirm vapour plumes.</p><p>Body.</p>`},
		{"only at the top", `<p>Body.</p><h2>Water on Europa</h2>`, `<p>Body.</p><h2>Water on Europa</h2>`},
		{"a longer heading stays", `<h1>Water on Europa: what the plumes tell us about the ocean</h1><p>Body.</p>`, `<h1>Water on Europa: what the plumes tell us about the ocean</h1><p>Body.</p>`},
	}
	for _, tt := range tests {
		n := fragment(t, tt.in)
		dropLeadingMeta(n, "Water on Europa", "Scientists confirm vapour plumes")
		if got := render(n); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestPrune(t *testing.T) {
	in := `<p>Body one.</p>
<figure><img src="a.jpg"><figcaption>Photo: NASA</figcaption></figure>
<div class="article-byline">By Lois Lane</div>
<div class="shareBar">Share</div>
<p class="post-date">Nov 18</p>
<p class="update">Updated text stays.</p>
<ul><li><a href="/a">Related one</a></li><li><a href="/b">Related two</a></li></ul>
<ul><li>A list item that <a href="/c">has a link</a> but mostly text.</li></ul>
<aside>Sidebar</aside>
<p>Body two.</p>`
	n := fragment(t, in)
	prune(n)
	got := strings.Join(strings.Fields(renderText(n)), " ")
	want := "Body one. Updated text stays. A list item that has a link but mostly text. Body two."
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// A print button goes; what a stylesheet leaves off paper is not
	// named boilerplate for that.
	n = fragment(t, `<p>`+strings.Repeat("Body text. ", 20)+`</p><div class="btn-print">Print this page</div>
<div class="comments hidden-print">A reader's comment.</div><div class="d-print-none">Another comment.</div>
<div class="print:hidden">A third one.</div>`)
	prune(n)
	if text := renderText(n); strings.Contains(text, "Print this page") || !strings.Contains(text, "A reader's comment.") ||
		!strings.Contains(text, "Another comment.") || !strings.Contains(text, "A third one.") {
		t.Errorf("print hints misread:\n%s", text)
	}
	// A hinted wrapper around most of the article stays.
	n = fragment(t, `<div class="post-header-and-body"><p>`+strings.Repeat("Body text. ", 20)+`</p></div><p>Tail.</p>`)
	prune(n)
	if !strings.Contains(renderText(n), "Body text.") {
		t.Error("pruned the article's own wrapper")
	}
}

func TestSplitIdent(t *testing.T) {
	got := strings.Join(splitIdent("article__byline shareBar post-date2 XMLHttp"), ",")
	if want := "article,byline,share,bar,post,date,xmlhttp"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestChoose(t *testing.T) {
	para := func(s string, n int) string { return "<p>" + strings.Repeat(s+" ", n) + "</p>" }
	article := para("The moon has an ocean under its ice and plumes of vapour above it.", 8)
	menu := `<p>Home News Sport Weather Sign in Subscribe to our newsletter today for more</p>`
	more := para("A second section of the same long article continues the story here.", 20)
	listing := `<p>Share on Facebook and Twitter</p>` + para("Another post entirely.", 10) + `<p>Share on Facebook and Twitter</p>`

	tests := []struct {
		name, a, b, want string
	}{
		{"b inside a and shorter: b", article + menu, article, "b"},
		{"b inside a but under half of it: a", article + more, article, "a"},
		{"a inside b and shorter: a", article, article + menu, "a"},
		{"b more than twice a, a inside: b", article, article + more, "b"},
		{"b more than twice a but a listing: a", article, article + more + listing, "a"},
		{"disjoint: a", article, para("Something else entirely is written on this page.", 10), "a"},
		{"b empty: a", article, "", "a"},
	}
	for _, tt := range tests {
		a, b := fragment(t, tt.a), fragment(t, tt.b)
		want := a
		if tt.want == "b" {
			want = b
		}
		if got, _ := choose(a, b); got != want {
			t.Errorf("%s: did not choose %s", tt.name, tt.want)
		}
	}
	if got, _ := choose(fragment(t, `<p>Home Contact</p>`), fragment(t, ``)); got != nil {
		t.Error("a tiny fallback text with nothing from readability should be no content")
	}
}

func TestShingles(t *testing.T) {
	a, b := shingle("one two three four five"), shingle("one two three four six")
	if a.words != 5 || len(a.set) != 2 {
		t.Fatalf("%+v", a)
	}
	if got := a.coveredBy(b); got != 0.5 {
		t.Errorf("covered %v, want 0.5", got)
	}
	if got := shingle("two words").coveredBy(shingle("two words")); got != 1 {
		t.Errorf("short texts: %v", got)
	}
}

func TestFormatStated(t *testing.T) {
	tests := map[string]string{
		"2019-11-18T14:26:00-10:00":     "2019-11-18T14:26:00-10:00",
		"2019-11-18T14:26:00.000+0000":  "2019-11-18T14:26:00Z",
		"2019-11-18T14:26:00":           "2019-11-18",
		"2019-11-18":                    "2019-11-18",
		"Mon, 18 Nov 2019 14:26:00 GMT": "2019-11-18T14:26:00Z",
		"last tuesday":                  "",
	}
	for in, want := range tests {
		if got := formatStated(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func TestTrimSiteName(t *testing.T) {
	tests := []struct{ title, site, want string }{
		{"Moon water found | Daily Planet", "Daily Planet", "Moon water found"},
		{"Daily Planet - Moon water found", "Daily Planet", "Moon water found"},
		{"Moon water found - a report", "Daily Planet", "Moon water found - a report"},
		{"Moon water found", "", "Moon water found"},
	}
	for _, tt := range tests {
		if got := trimSiteName(tt.title, tt.site); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.title, got, tt.want)
		}
	}
}

func TestPrimaryTag(t *testing.T) {
	for in, want := range map[string]string{"en-US": "en", "pt_BR": "pt", "DE": "de", "fil": "fil", "x": "", "english": "", "": ""} {
		if got := primaryTag(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// squash drops what strings.Fields splits at, Unicode spaces included,
// and keeps invalid UTF-8 as it is.
func TestSquash(t *testing.T) {
	for _, s := range []string{"", "  ", " a b ", "Tides\nThe tide", "a\u00a0b\u2003c\u0085d", "\xff \xfe", "é\té"} {
		if got, want := squash(s), strings.Join(strings.Fields(s), ""); got != want {
			t.Errorf("%q: got %q, want %q", s, got, want)
		}
	}
}
