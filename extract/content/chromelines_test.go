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
	chrome := chromeLabels(doc)
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
