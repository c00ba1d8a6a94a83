package content

import (
	"context"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/wcxb"
)

// TestRestoreSpacesFromPage mends go-trafilatura-style output (the text
// around inline elements trimmed, links unwrapped) against the page it
// came from: the spaces the page had come back, and none it did not.
func TestRestoreSpacesFromPage(t *testing.T) {
	tests := []struct{ name, page, out, want string }{
		{"space before an opening bracket",
			`<ul><li><strong><a href="/k">Freebird60 Full Kit</a></strong> ($160): Compact layout</li></ul>`,
			`<ul><li><strong>Freebird60 Full Kit</strong>($160): Compact layout</li></ul>`,
			"Freebird60 Full Kit ($160): Compact layout"},
		{"space inside the element before",
			`<p>Costs between <b>$19,473 </b>and <b>$88,340</b>, depending on size.</p>`,
			`<p>Costs between<b>$19,473</b>and<b>$88,340</b>, depending on size.</p>`,
			"Costs between $19,473 and $88,340, depending on size."},
		{"no space the page did not have",
			`<p>You need to clone <code>Arc</code>s ahead of time, and <i>E</i>xpertise.</p>`,
			`<p>You need to clone<code>Arc</code>s ahead of time, and<i>E</i>xpertise.</p>`,
			"You need to clone Arcs ahead of time, and Expertise."},
		{"a short text joined to the next",
			`<p><strong>Freebird TKL</strong> ($249.99): <a href="/t">Tenkeyless</a> layout</p>`,
			`<p><strong>Freebird TKL</strong>($249.99): Tenkeyless layout</p>`,
			"Freebird TKL ($249.99): Tenkeyless layout"},
		{"text dropped between: a guess",
			`<table><tr><td><code>U+0000</code>–<code>U+007F</code></td></tr></table>`,
			`<table><tr><td><code>U+0000</code><code>U+007F</code></td></tr></table>`,
			"U+0000 U+007F"},
		{"a title styled as a block: a guess",
			`<ul><li><em class="title">GeForce Experience</em>The easiest way to optimize games.</li></ul>`,
			`<ul><li><em>GeForce Experience</em>The easiest way to optimize games.</li></ul>`,
			"GeForce Experience The easiest way to optimize games."},
		{"the same text reached both ways: a guess",
			`<p><b>Box</b>es sold out today.</p><p>Two <b>new</b> es sold out today.</p>`,
			`<p><b>Box</b>es sold out today.</p>`,
			"Box es sold out today."},
	}
	for _, tt := range tests {
		out := fragment(t, tt.out)
		restoreSpaces(out, &pageSpaces{page: fragment(t, tt.page)})
		if got := renderText(out); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestEdgeSpacesKept extracts real pages whose prices and code sit in
// inline elements (WCXB development pages: a buyer's guide, a forum
// thread): accurate mode, go-trafilatura's cut, keeps the page's spaces
// around them and adds none.
func TestEdgeSpacesKept(t *testing.T) {
	for _, c := range []struct {
		id   string
		want []string
	}{
		{"4799", []string{"Freebird60 Full Kit ($160): Compact", "Freebird TKL Full Kit ($249.99): Tenkeyless"}},
		{"0575", []string{"I'm cloning Arcs everywhere", "explicitly clone Arcs ahead"}},
	} {
		p := wcxb.LoadPage(t, c.id)
		r, err := Extract(context.Background(), Input{HTML: string(p.HTML), URL: p.URL, Mode: ModeAccurate}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range c.want {
			if !strings.Contains(r.Text, want) {
				t.Errorf("page %s: text lacks %q", c.id, want)
			}
		}
	}
}
