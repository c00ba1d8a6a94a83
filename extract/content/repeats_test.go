package content

import (
	"strings"
	"testing"
)

// A paragraph said twice is kept once, the first time; short lines,
// code and table rows may repeat.
func TestDropRepeatedBlocks(t *testing.T) {
	post := "Release Candidate 1 of version 4 is out, with bug fixes and stability improvements."
	doc, err := parseHTML(`<div>
<div class="post"><p>` + post + `</p><p>Free shipping</p></div>
<div class="reply"><div class="parent"><p>` + strings.ToUpper(post) + `</p></div>
<p>Nice. A lot of work being done here, and an impressive release as usual.</p><p>Free shipping</p>
<pre>print("a line of code, in each language's tab, said as often as it needs")</pre>
<pre>print("a line of code, in each language's tab, said as often as it needs")</pre>
<table><tr><th>Attribute name</th><th>Data type and the values that the attribute may take</th></tr></table>
<table><tr><th>Attribute name</th><th>Data type and the values that the attribute may take</th></tr></table>
</div></div>`)
	if err != nil {
		t.Fatal(err)
	}
	dropRepeatedBlocks(doc)
	text := renderText(doc)
	if n := strings.Count(strings.ToLower(text), strings.ToLower(post)); n != 1 || !strings.HasPrefix(text, post) {
		t.Errorf("the post is there %d times (want once, first):\n%s", n, text)
	}
	for kept, n := range map[string]int{"Free shipping": 2, "a line of code": 2, "Attribute name": 2, "Nice.": 1} {
		if got := strings.Count(text, kept); got != n {
			t.Errorf("%q is there %d times, want %d:\n%s", kept, got, n, text)
		}
	}
}

// A section rendered twice (a landing page's desktop and mobile copies)
// is kept once, short lines and all; a wrapper is not a copy of what it
// wraps, and the lines cards share stay in each card.
func TestDropRepeatedSections(t *testing.T) {
	stats := `<div class="stats"><p>3.6x</p><p>faster time to market</p><p>100M+</p><p>people collaborating on the canvas</p></div>`
	doc, err := parseHTML(`<div><div class="desktop"><div class="wrap">` + stats + `</div></div>
<div class="mobile">` + strings.ReplaceAll(stats, "canvas", "Canvas") + `</div>
<div class="card"><h3>Treadmill 22</h3><p>HSA / FSA eligible</p><p>Save $50-$200 on orders $1k+ with code MARCH26</p></div>
<div class="card"><h3>Treadmill 10</h3><p>HSA / FSA eligible</p><p>Save $50-$200 on orders $1k+ with code MARCH26</p></div>
</div>`)
	if err != nil {
		t.Fatal(err)
	}
	dropRepeatedBlocks(doc)
	text := renderText(doc)
	for kept, n := range map[string]int{"faster time to market": 1, "people collaborating": 1, "HSA / FSA eligible": 2, "MARCH26": 2, "Treadmill 10": 1} {
		if got := strings.Count(text, kept); got != n {
			t.Errorf("%q is there %d times, want %d:\n%s", kept, got, n, text)
		}
	}
}

// A paragraph in wrappers as deep as the parser allows, twice: each
// wrapper holds the text of the one inside, and none is a copy but the
// second nest.
func TestDropRepeatedBlocksDeep(t *testing.T) {
	const depth = 500
	nest := strings.Repeat("<div>", depth) + "<p>A paragraph long enough to count as a repeat when it is said again.</p>" + strings.Repeat("</div>", depth)
	doc, err := parseHTML("<div>" + nest + nest + "</div>")
	if err != nil {
		t.Fatal(err)
	}
	dropRepeatedBlocks(doc)
	if got := strings.Count(renderText(doc), "A paragraph long enough"); got != 1 {
		t.Errorf("the nested paragraph is there %d times, want once", got)
	}
}
