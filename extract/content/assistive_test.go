package content

import (
	"strings"
	"testing"
)

func TestDropAssistiveOnly(t *testing.T) {
	for _, c := range []struct {
		name, markup, want string
	}{
		{"screen-reader text", `<p>Read the <a href="/r">report<span class="sr-only"> (opens in a new window)</span></a>.</p>`, "Read the report."},
		{"each framework's class", `<p>A<span class="visually-hidden">1</span><span class="screen-reader-text">2</span><span class="govuk-visually-hidden">3</span><span class="show-for-sr">4</span><span class="visuallyhidden">5</span>B</p>`, "AB"},
		{"focusable variant", `<p><a class="sr-only sr-only-focusable" href="#main">Go to content</a>Body</p>`, "Body"},
		{"skip link by class", `<p><a href="#main-content" class="SkipToMain-module_link">Zum Inhalt springen</a>Body</p>`, "Body"},
		{"skip link by text", `<p><a href="#content">Skip to content</a>Body</p>`, "Body"},
		{"skip link to another page", `<p><a href="/checkout">Skip to checkout</a></p>`, "Skip to checkout"},
		{"heading for screen readers", `<h2 class="sr-only">Posts</h2><p>Body</p>`, "Posts\n\nBody"},
		{"text standing in for a hidden price", `<p><del aria-hidden="true">$30</del> <span class="screen-reader-text">Original price was: $30.00.</span></p>`, "$30 Original price was: $30.00."},
		{"a class that only contains the word", `<p><span class="not-visually-hidden-yet">Shown</span></p>`, "Shown"},
	} {
		doc := fragment(t, c.markup)
		dropAssistiveOnly(doc, nil)
		if got := strings.TrimSpace(renderText(doc)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
