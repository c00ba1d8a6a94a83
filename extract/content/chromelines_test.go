package content

import (
	"strings"
	"testing"

	"golang.org/x/net/html/atom"
)

func TestDropChromeLines(t *testing.T) {
	doc, err := parseHTML(`<html><body>
<header><nav><ul><li><a href="/platform">Platform Overview</a></li><li><a href="/pricing">Pricing</a></li>
<li><a href="/guides">Language Design</a></li><li><a href="/login">Sign In</a></li></ul></nav></header>
<main><article><header><p>Field notes</p></header>
<div class="hero"><p>Platform Overview</p><p>Sign In</p></div>
<h2>Pricing</h2>
<p><strong>Language Design</strong></p>
<h3><a href="#design">Language Design</a></h3>
<p>Field notes</p>
<p>We priced the plans by the hour, and the hour is what our customers asked for.</p>
</article></main>
<footer><p>We priced the plans by the hour, and the hour is what our customers asked for.</p></footer>
</body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	chrome, _ := chromeLabels(doc)
	for _, key := range []string{"platform overview", "pricing", "sign in"} {
		if !chrome[key] {
			t.Errorf("chromeLabels lacks %q: %v", key, chrome)
		}
	}
	if chrome["field notes"] {
		t.Error("an article's own <header> was read as the page's chrome")
	}
	main := doc
	for n := range doc.Descendants() {
		if n.DataAtom == atom.Main {
			main = n
		}
	}
	dropChromeLines(main, chrome)
	text := renderText(main)
	for _, gone := range []string{"Platform Overview", "Sign In"} {
		if strings.Contains(text, gone) {
			t.Errorf("the menu's %q was kept:\n%s", gone, text)
		}
	}
	for _, kept := range []string{"Pricing", "Language Design\n\nLanguage Design", "Field notes", "by the hour"} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q was dropped:\n%s", kept, text)
		}
	}
}

// A page that is a shell for its scripts, a header, an empty root and its
// footer, has no content: the extractors' fallback on the footer's links
// is not passed off as the page. A page whose footer repeats some of its
// lines keeps them.
func TestFooterIsNoContent(t *testing.T) {
	var links strings.Builder
	for _, group := range []string{"Help", "Multi-Language Sites", "Browse by Category", "Store Group"} {
		links.WriteString(`<div class="col"><dl><dt><h5>` + group + `</h5></dt><dd>`)
		for _, name := range []string{"Help Center", "Disputes & Reports", "Return and refund policy",
			"Report infringement", "Transparency Center", "Submit a report", "Recalls", "Return Policy"} {
			links.WriteString(`<a href="https://group.example/` + strings.ReplaceAll(name, " ", "-") + `">` + name + `</a>, `)
		}
		links.WriteString(`</dd></dl></div>`)
	}
	footer := `<footer><div class="site-footer">` + links.String() +
		`</div><div class="copy">© 2010-2025 Store.example. All rights reserved.</div></footer>`
	shell := `<html lang="en"><head><title>Mechanical Keyboard</title></head><body>
<div style="display:none"><h1>Store</h1></div><div id="header"></div><div id="root"></div>` + footer + `</body></html>`
	article := `<html lang="en"><head><title>Keyboards</title></head><body><main><article><h1>Keyboards</h1>
<p>A mechanical keyboard has a switch under every key, and the switch decides how the key feels.</p>
<p>Linear switches travel smoothly to the bottom; tactile ones bump halfway, where the key registers.</p>
<p>Read our Return Policy before you buy, and the Help Center when the keyboard arrives.</p>
</article></main>` + footer + `</body></html>`
	for _, m := range modes {
		if r := extractT(t, Input{HTML: shell, Mode: m}); !r.NoContent || r.Text != "" || r.Markdown != "" {
			t.Errorf("%s: the shell's footer was taken for its content: %q", m, r.Text)
		}
		r := extractT(t, Input{HTML: article, Mode: m})
		if r.NoContent || !strings.Contains(r.Text, "Linear switches") || !strings.Contains(r.Text, "Return Policy before") {
			t.Errorf("%s: the article was lost: %q", m, r.Text)
		}
	}
}
