package auditkit_test

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// first returns the first element named tag in page.
func first(t *testing.T, page, tag string) *html.Node {
	t.Helper()
	doc, err := htmltag.Parse(page, "html")
	if err != nil {
		t.Fatal(err)
	}
	var found *html.Node
	auditkit.Walk(doc, 0, func(n *html.Node) bool {
		if found == nil && n.Data == tag {
			found = n
		}
		return found == nil
	})
	if found == nil {
		t.Fatalf("no <%s> in %s", tag, page)
	}
	return found
}

func TestName(t *testing.T) {
	t.Parallel()
	cases := []struct{ page, name, source string }{
		{`<a>Read <b>the</b>&nbsp;docs<br>now</a>`, "Read the docs now", auditkit.SourceText},
		{`<a>one<script>x()</script><style>a{}</style><span hidden>hid</span><span style="display: none">den</span></a>`, "one", auditkit.SourceText},
		{`<a><img alt=""><img alt=" Logo "></a>`, "Logo", auditkit.SourceImageAlt},
		{`<a><svg><title>Feed</title></svg></a>`, "Feed", auditkit.SourceImageAlt},
		{`<a aria-label="Search"><i></i></a>`, "Search", auditkit.SourceAriaLabel},
		{`<a title="Tip"></a>`, "Tip", auditkit.SourceTitle},
		{`<a><img src="x.png"></a>`, "", ""},
	}
	for _, c := range cases {
		name, source := auditkit.Name(first(t, c.page, "a"))
		if name != c.name || source != c.source {
			t.Errorf("%s: Name = %q, %q; want %q, %q", c.page, name, source, c.name, c.source)
		}
	}
}

func TestTextCap(t *testing.T) {
	t.Parallel()
	p := first(t, "<p>"+strings.Repeat("word ", 1000)+"</p>", "p")
	if got := auditkit.Text(p, 100); len(got) < 100 || len(got) > 105 {
		t.Errorf("Text capped at 100 bytes gave %d bytes", len(got))
	}
}

func TestWalkLimit(t *testing.T) {
	t.Parallel()
	doc, _ := htmltag.Parse(strings.Repeat("<p>x</p>", 50)+"<template><p>inert</p></template>", "html")
	seen := 0
	if cut := auditkit.Walk(doc, 10, func(*html.Node) bool { seen++; return true }); !cut || seen != 10 {
		t.Errorf("Walk with limit 10: cut %v after %d elements", cut, seen)
	}
	seen = 0
	// html, head, body, 50 p and the template, whose content is inert.
	if cut := auditkit.Walk(doc, 0, func(*html.Node) bool { seen++; return true }); cut || seen != 54 {
		t.Errorf("Walk without limit: cut %v after %d elements, want 54", cut, seen)
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	cases := map[string]int{
		"":                        0,
		"It's a well-known fact.": 4,
		"  spaces\tand\nlines  ":  3,
		"3.14 is pi":              4,
		"日本語のテキスト":                8,
		"Mixed 日本 text":           4,
		"Ünïcödé wörds, straße!":  3,
	}
	for s, want := range cases {
		if got := auditkit.Words(s); got != want {
			t.Errorf("Words(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestIsQuestion(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"What is mixed content":  true,
		"How to fix it":          true,
		"Pricing":                false,
		"Is it safe?":            true,
		"Our plans?":             true,
		"¿Dónde está?":           true,
		"Pourquoi le faire":      true,
		"Qu’est-ce que le SEO":   true,
		"Warum":                  true,
		"Features: what you get": false,
		"  Why bother?  ":        true,
		"":                       false,
		"Come visit us":          false,
		"プライバシーポリシーとは？": true,
	}
	for s, want := range cases {
		if got := auditkit.IsQuestion(s); got != want {
			t.Errorf("IsQuestion(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestClipAndStartTag(t *testing.T) {
	t.Parallel()
	if got := auditkit.Clip("héllo world", 5); got != "héll…" {
		t.Errorf("Clip = %q", got)
	}
	if got := auditkit.Clip("short", 5); got != "short" {
		t.Errorf("Clip = %q", got)
	}
	img := first(t, `<img src="a.png" alt='say "hi"' data-x="`+strings.Repeat("v", 500)+`">`, "img")
	got := auditkit.StartTag(img)
	if !strings.HasPrefix(got, `<img src="a.png" alt="say &#34;hi&#34;" data-x="vvv`) || len([]rune(got)) > auditkit.SnippetRunes {
		t.Errorf("StartTag = %q", got)
	}
}

func TestGrade(t *testing.T) {
	t.Parallel()
	for score, want := range map[int]string{100: "A", 90: "A", 89: "B", 80: "B", 79: "C", 70: "C", 69: "D", 60: "D", 59: "F", 0: "F"} {
		if got := auditkit.Grade(score); got != want {
			t.Errorf("Grade(%d) = %s, want %s", score, got, want)
		}
	}
}
