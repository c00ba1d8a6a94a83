package content

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

func TestWithCompanions(t *testing.T) {
	para := func(s string) string { return s + " is a paragraph long enough to have companions beside it." }
	page := fragment(t, `<h1>The title</h1><h2>The standfirst of the post</h2><p>`+para("Intro")+`</p>`+
		`<h2>First section<div class="anchor"></div></h2><p>`+para("First")+`</p>`+
		`<h3>Held heading</h3><p>`+para("Second")+`</p><ul><li>A list item of words</li><li>Another one</li></ul>`+
		`<h2>Over a short one</h2><p>Too short.</p><ul><li>Under a short paragraph</li></ul>`+
		`<p>`+para("Links")+`</p><ul><li><a href="/a">A linked item</a></li><li><a href="/b">Another linked item</a></li></ul>`+
		`<p>`+para("Held list")+`</p><ol><li>Already in the text</li></ol>`+
		`<p>`+para("Gallery")+`</p><ul><li><figure><img src="a.jpg"><figcaption>A caption of several words</figcaption></figure></li></ul>`)
	found := findCompanions(page)
	res := &Result{Title: "The title", Description: "The standfirst of the post",
		Node: fragment(t, `<p>`+para("Intro")+`</p><p>`+para("First")+`</p><h3>Held heading</h3><p>`+para("Second")+`</p>`+
			`<p>`+para("Links")+`</p><p>`+para("Held list")+`</p><p>Already in the text</p><p>`+para("Gallery")+`</p>`+
			`<p>`+para("First")+`</p>`)}
	withCompanions(res, found)
	want := para("Intro") + "\n\nFirst section\n\n" + para("First") + "\n\nHeld heading\n\n" + para("Second") +
		"\n\n- A list item of words\n- Another one\n\n" + para("Links") + "\n\n" + para("Held list") +
		"\n\nAlready in the text\n\n" + para("Gallery") + "\n\n" + para("First")
	if got := articleText(res.Node); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestCompanionsBudget: paragraphs nested in objects in paragraphs
// (an <object> does not close the paragraph around it), each under a
// heading and over many empty elements, would have each paragraph render
// all those below it: the search stops at its budget.
func TestCompanionsBudget(t *testing.T) {
	const levels = 200
	var b strings.Builder
	for i := range levels {
		b.WriteString("<h2>Heading</h2><p>Paragraph " + strconv.Itoa(i) + " has eight words and more in it<object>" +
			strings.Repeat("<i></i>", 500))
	}
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for range findCompanions(doc) {
		found++
	}
	if found == 0 || found >= levels {
		t.Errorf("found %d of %d paragraphs; want some, and the search stopped at its budget", found, levels)
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
