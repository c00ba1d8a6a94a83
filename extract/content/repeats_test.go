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
