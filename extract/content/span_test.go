package content

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestFilledSpan(t *testing.T) {
	para := func(s string) string { return s + " is a sentence of feature text on a marketing page." }
	page := fragment(t, `<header><a href="/">Home</a><p>`+para("Header")+`</p></header>`+
		`<h1>The product</h1><p>`+para("First")+`</p>`+
		`<div class="quote"><p>`+para("A testimonial")+`</p><p>Jane Doe, CTO</p></div>`+
		`<div class="cta"><a href="/start">Get started</a></div>`+
		`<table><tr><th>Year</th><th>Physics</th></tr><tr><td><a href="/wiki/1901">1901</a></td><td><a href="/wiki/R">Wilhelm Röntgen</a></td></tr></table>`+
		`<form><label>Email</label><p>`+para("Form")+`</p></form>`+
		`<div style="margin: 0; display:none !important"><p>`+para("A notice no one sees")+`</p></div>`+
		`<p>`+para("Last")+`</p>`+
		`<p>`+para("After")+`</p><footer><p>`+para("Footer")+`</p></footer>`)
	extracted := fragment(t, `<p>`+para("First")+`</p><p>`+para("Last")+`</p>`)
	span := filledSpan(page, []*html.Node{extracted})
	if span == nil {
		t.Fatal("no span")
	}
	// A table's cell of one link is data, not a button.
	want := para("First") + "\n\n" + para("A testimonial") + "\n\nJane Doe, CTO\n\n" +
		"| Year | Physics |\n| 1901 | Wilhelm Röntgen |\n\n" + para("Last")
	if got := articleText(span); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}

	// An extraction the page does not hold (most of it) has no span: the
	// copy would lose it.
	other := fragment(t, `<p>`+para("First")+`</p><p>`+strings.Repeat("Text from the page's JSON-LD only. ", 10)+`</p>`)
	if span := filledSpan(page, []*html.Node{other}); span != nil {
		t.Errorf("span of an extraction mostly not in the page: %q", articleText(span))
	}
}
