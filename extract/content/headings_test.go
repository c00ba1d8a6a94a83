package content

import (
	"context"
	"strings"
	"testing"
)

func TestWithHeadings(t *testing.T) {
	para := func(s string) string { return s + " is a paragraph long enough to have a heading over it." }
	page := fragment(t, `<h1>The title</h1><h2>The standfirst of the post</h2><p>`+para("Intro")+`</p>`+
		`<h2>First section<div class="anchor"></div></h2><p>`+para("First")+`</p>`+
		`<h3>Held heading</h3><p>`+para("Second")+`</p>`+
		`<h2>Over a short one</h2><p>Too short.</p>`+
		`<h2>Over a list</h2><ul><li>`+para("Item")+`</li></ul>`)
	over := findHeadingsOver(page)
	res := &Result{Title: "The title", Description: "The standfirst of the post",
		Node: fragment(t, `<p>`+para("Intro")+`</p><p>`+para("First")+`</p><h3>Held heading</h3><p>`+para("Second")+`</p><p>`+para("First")+`</p>`)}
	withHeadings(res, over)
	want := para("Intro") + "\n\nFirst section\n\n" + para("First") + "\n\nHeld heading\n\n" + para("Second") + "\n\n" + para("First")
	if got := articleText(res.Node); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestHeadingsBudget: paragraphs nested in buttons in paragraphs, each
// under a heading, are rendered within a bounded budget.
func TestHeadingsBudget(t *testing.T) {
	var b strings.Builder
	for range 400 {
		b.WriteString("<h2>Heading</h2><p>Eight words and more in this nested paragraph here<button>")
	}
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if over := findHeadingsOver(doc); len(over) == 0 {
		t.Error("found no heading")
	}
}

// TestSubstackHeadingsKept: a post whose section headings hold
// permalink anchors keeps them in both modes (go-trafilatura drops a
// heading holding elements).
func TestSubstackHeadingsKept(t *testing.T) {
	var body strings.Builder
	for n, h := range []string{"The cloud is not the computer", "Software must survive reality", "Edge-first is not cloud-last"} {
		id := strings.ToLower(strings.ReplaceAll(h, " ", "-"))
		body.WriteString(`<h2 class="header-anchor-post">` + h + `<div class="pencraft header-anchor-parent"><div id="§` + id +
			`" class="pencraft header-anchor offset-top"></div><button aria-label="Link"><svg></svg></button></div></h2>`)
		for i := range 3 {
			body.WriteString(`<p>This matters because systems fail in ways their designers did not plan for, paragraph ` +
				string(rune('a'+i)) + ` of section ` + string(rune('1'+n)) + ` says, and the rest of this section explains how and why.</p>`)
		}
	}
	page := `<html><head><title>Notes on systems</title></head><body><div class="post"><h1 class="post-title">Notes on systems</h1>
<div class="available-content"><div class="body markup">` + body.String() + `</div></div></div></body></html>`
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		r, err := Extract(context.Background(), Input{HTML: page, URL: "https://notes.example/p/systems", Mode: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{"Software must survive reality", "Edge-first is not cloud-last"} {
			if !strings.Contains(r.Text, h+"\n\n") || !strings.Contains(r.Markdown, "## "+h) {
				t.Errorf("%s: lacks the heading %q: text %q\nmarkdown %q", mode, h, r.Text, r.Markdown)
			}
		}
	}
}
