package content

import (
	"context"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/extract/pagetype"
)

func TestFindHero(t *testing.T) {
	intro := `<p>Ship internal tools in days, not months, with one platform for your whole team.</p>`
	for _, c := range []struct {
		name, markup, want string
	}{
		{"a hero section", `<section class="hero"><div><h1>Build faster</h1></div><div>` + intro +
			`<a href="/try">Try it</a> <p>Short line.</p></div></section><main><p>` + strings.Repeat("Feature text here. ", 30) + `</p></main>`,
			"Ship internal tools in days, not months, with one platform for your whole team."},
		{"a paragraph before the headline", intro + `<h1>Build faster</h1>`, ""},
		{"a logo for a headline", `<div><h1><img alt="Acme" src="/logo.png"></h1>` + intro + `</div>`, ""},
		{"a section too long", `<div><h1>Build faster</h1>` + intro + `<p>` + strings.Repeat("word ", 400) + `</p></div>`, ""},
		{"no headline", `<div><h2>Build faster</h2>` + intro + `</div>`, ""},
	} {
		h := findHero(fragment(t, c.markup))
		var got []string
		if h != nil {
			for _, p := range h.paras {
				got = append(got, nodeText(p))
			}
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestFindHeroBudget: a headline nested deep among many empty elements
// costs a bounded search (the parser nests 512 deep at most, but each
// level up would walk all of them again).
func TestFindHeroBudget(t *testing.T) {
	const depth = 400
	var b strings.Builder
	b.WriteString("<div><p>Ship internal tools in days, not months, with one platform for your whole team.</p>")
	for range depth {
		b.WriteString("<div>" + strings.Repeat("<i></i>", 200))
	}
	b.WriteString("<h1>Deep</h1>" + strings.Repeat("</div>", depth+1))
	doc, err := parseHTML(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if h := findHero(doc); h != nil {
		t.Errorf("found %d paragraphs past the budget", len(h.paras))
	}
}

func TestWithIntro(t *testing.T) {
	section := fragment(t, `<div><h1>Build faster</h1><p>Ship internal tools in days, not months, with one platform.</p>`+
		`<p>Connect any database or API and build on top of it in minutes.</p></div>`)
	h := findHero(section)
	if h == nil || len(h.paras) != 2 {
		t.Fatalf("hero: %+v", h)
	}
	res := &Result{Node: fragment(t, `<p>Features below, for every plan.</p><p>Connect any database or API and build on top of it in minutes.</p>`)}
	withIntro(res, h)
	if got, want := articleText(res.Node), "Ship internal tools in days, not months, with one platform.\n\n"+
		"Features below, for every plan.\n\nConnect any database or API and build on top of it in minutes."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// When the section holds the text's first line, it is the content's
	// own top: nothing is added.
	res = &Result{Node: fragment(t, `<p>Connect any database or API and build on top of it in minutes.</p>`)}
	withIntro(res, findHero(section))
	if got := articleText(res.Node); strings.Contains(got, "Ship internal tools") {
		t.Errorf("added to the section's own text: %q", got)
	}
}

// TestHeroIntroExtracted: a service page's pitch, in a hero section over
// the features, is in both modes' text and markdown (fast mode's
// readability drops it otherwise).
func TestHeroIntroExtracted(t *testing.T) {
	var features strings.Builder
	for _, f := range []string{"Drag-and-drop builder", "Role-based access", "Audit logs", "Self-hosting"} {
		features.WriteString(`<div class="feature-card"><h3>` + f + `</h3><p>` + f +
			` comes with every plan, set up in minutes by your team, with no extra cost and no code to write or maintain.</p></div>`)
	}
	page := `<html><head><title>Acme Tools: internal tools platform</title></head><body>
<header><nav><a href="/">Acme</a> <a href="/pricing">Pricing</a> <a href="/docs">Docs</a> <a href="/login">Log in</a></nav></header>
<main><section class="o-pageHeroBanner"><div class="container"><div class="columns"><div class="column">
<h1>Build internal tools faster</h1><div class="a-contentParagraphs">
<p>Acme turns your databases and APIs into admin panels, dashboards and approval flows your whole company can use.</p>
</div><a class="button" href="/signup">Start free trial</a></div></div></div></section>
<section class="features"><h2>Everything your team needs</h2>` + features.String() + `</section>
<section class="pricing"><h2>Pricing</h2><p>Start free with up to five users. Business plans start at $10 per user per month, billed yearly.</p>
<a href="/pricing">Compare plans</a></section></main>
<footer><p>© 2026 Acme Inc. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>`
	doc, err := parseHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	if kind := pagetype.Detect(doc, nil); kind.Type == pagetype.Article || kind.Type == pagetype.Forum {
		t.Fatalf("the page was taken for %s (%.2f): the test needs another type", kind.Type, kind.Confidence)
	}
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		r, err := Extract(context.Background(), Input{HTML: page, URL: "https://acme.example/", Mode: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		const pitch = "Acme turns your databases and APIs into admin panels"
		if !strings.Contains(r.Text, pitch) || !strings.Contains(r.Markdown, pitch) || !strings.Contains(r.Text, "Audit logs comes with") {
			t.Errorf("%s (%s): want the pitch and the features, got text %q\nmarkdown %q", mode, r.PageType, r.Text, r.Markdown)
		}
	}
}
