package snippetformat

import (
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/htmltag"
)

const long = "Grey herons stand still in the shallow water of the marsh for a long time, waiting for fish and frogs to come close enough to strike."

func TestDetect(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, page string
		counts     map[string]int
		predict    string
	}{
		{"paragraphs", `<h2>Why are herons back?</h2><p>` + long + `</p><p>` + long + `</p>`,
			map[string]int{Paragraph: 2}, Paragraph},
		{"a how-to list", `<h2>How to watch herons</h2><ol><li>Come at dawn</li><li>Keep to the boardwalk</li><li>Bring binoculars</li></ol><p>` + long + `</p><p>` + long + `</p>`,
			map[string]int{List: 1, Paragraph: 2}, List},
		{"a comparison table", `<h2>Grey heron vs great egret</h2><table><tr><th>Bird</th><th>Length</th></tr><tr><td>Grey heron</td><td>95 cm</td></tr></table>`,
			map[string]int{Table: 1}, Table},
		{"a definition paragraph", `<h2>What is a heron?</h2><p>A heron is a long-legged wading bird of the family Ardeidae that hunts fish in shallow water.</p>`,
			map[string]int{Definition: 1}, Definition},
		{"a dl", `<dl><dt>Heronry</dt><dd>A place where herons nest together.</dd></dl>`,
			map[string]int{Definition: 1}, Definition},
		{"menus and chrome are skipped", `<nav><ul><li><a href="/">Home</a></li><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></nav><ul><li><a href="/x">X</a></li><li><a href="/y">Y</a></li><li><a href="/z">Z</a></li></ul><footer><p>` + long + `</p></footer><p hidden>` + long + `</p>`,
			map[string]int{}, "none"},
		{"a layout table without header", `<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>`,
			map[string]int{}, "none"},
	}
	for _, c := range cases {
		doc, err := htmltag.Parse("<html><body>"+c.page+"</body></html>", "html")
		if err != nil {
			t.Fatal(err)
		}
		r := Detect(doc)
		for _, f := range Formats {
			if r.Counts[f] != c.counts[f] {
				t.Errorf("%s: %s count %d, want %d", c.name, f, r.Counts[f], c.counts[f])
			}
		}
		if r.Prediction.Format != c.predict {
			t.Errorf("%s: predicted %s (%+v), want %s", c.name, r.Prediction.Format, r.Prediction, c.predict)
		}
		for f, examples := range r.Examples {
			if len(examples) > maxExamples || len(examples) == 0 || strings.TrimSpace(examples[0].Text) == "" {
				t.Errorf("%s: %s examples %+v", c.name, f, examples)
			}
		}
	}
}
