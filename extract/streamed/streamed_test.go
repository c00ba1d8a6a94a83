package streamed

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func parse(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><body>" + s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func render(t *testing.T, doc *html.Node) string {
	t.Helper()
	var body *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "body" {
			body = n
			break
		}
	}
	var b strings.Builder
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "script" {
			continue
		}
		if err := html.Render(&b, c); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestComplete(t *testing.T) {
	cases := []struct {
		name, page, want string
		applied          int
	}{{
		name: "a boundary's fallback is replaced by its part",
		page: `<main><h1>Title</h1><!--$?--><template id="B:0"></template><div>Loading paragraph...</div><!--/$--><footer>f</footer></main>` +
			`<div hidden id="S:0"><p>The article's text.</p></div><script>$RC("B:0","S:0")</script>`,
		want:    `<main><h1>Title</h1><!--$--><p>The article&#39;s text.</p><!--/$--><footer>f</footer></main>`,
		applied: 1,
	}, {
		name: "a segment fills its placeholder, then its boundary completes",
		page: `<!--$?--><template id="B:0"></template><i>wait</i><!--/$-->` +
			`<div hidden id="S:0"><p>one</p><template id="P:1"></template><p>three</p></div>` +
			`<div hidden id="S:1"><p>two</p></div>` +
			`<script>$RS("S:1","P:1")</script><script>$RC("B:0","S:0")</script>`,
		want:    `<!--$--><p>one</p><p>two</p><p>three</p><!--/$-->`,
		applied: 2,
	}, {
		name: "nested boundaries inside a fallback are removed with it",
		page: `<!--$?--><template id="B:0"></template><div><!--$--><span>inner</span><!--/$--></div><!--$--><b>x</b><!--/$--><!--/$--><p>after</p>` +
			`<div hidden id="S:0"><p>done</p></div><script>$RR("B:0","S:0",[])</script>`,
		want:    `<!--$--><p>done</p><!--/$--><p>after</p>`,
		applied: 1,
	}, {
		name: "a part whose boundary is missing stays hidden",
		page: `<p>shell</p><div hidden id="S:0"><p>orphan</p></div><script>$RC("B:9","S:0")</script>`,
		want: `<p>shell</p>`,
	}, {
		name: "a page without instructions is untouched",
		page: `<p>a</p><div hidden id="S:0"><p>b</p></div>`,
		want: `<p>a</p><div hidden="" id="S:0"><p>b</p></div>`,
	}, {
		name: "an instruction naming an element twice applies once",
		page: `<!--$?--><template id="B:0"></template>x<!--/$--><div hidden id="S:0"><p>y</p></div>` +
			`<script>$RC("B:0","S:0");$RC("B:0","S:0")</script>`,
		want:    `<!--$--><p>y</p><!--/$-->`,
		applied: 1,
	}, {
		name: "a segment that holds its own placeholder is refused",
		page: `<div hidden id="S:1"><template id="P:1"></template></div><script>$RS("S:1","P:1")</script>`,
		want: ``,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := parse(t, c.page)
			if n := Complete(doc); n != c.applied {
				t.Errorf("applied %d instructions, want %d", n, c.applied)
			}
			if got := render(t, doc); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestCompleteNeverClosed: a boundary whose fallback never closes, named
// by many instructions, is walked once and not completed.
func TestCompleteNeverClosed(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!--$?--><template id="B:0"></template>`)
	b.WriteString(strings.Repeat("<i>x</i>", 200_000)) // no closing <!--/$-->
	b.WriteString(`<div hidden id="S:0">part</div><script>`)
	for range 20_000 {
		b.WriteString(`$RC("B:0","S:0");`)
	}
	b.WriteString(`</script>`)
	doc := parse(t, b.String())
	if n := Complete(doc); n != 0 {
		t.Errorf("applied %d instructions to a boundary that never closes", n)
	}
}

// TestCompleteStepBound: once maxSteps sibling steps are spent finding
// the ends of fallbacks, no further boundary completes (each walk here
// costs 101 steps: 100 filler nodes and the closing comment).
func TestCompleteStepBound(t *testing.T) {
	saved := maxSteps
	maxSteps = 1000
	defer func() { maxSteps = saved }()
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, `<div><!--$?--><template id="B:%d"></template>%s<!--/$--></div>`, i, strings.Repeat("<i>x</i>", 100))
	}
	for i := range 20 {
		fmt.Fprintf(&b, `<div hidden id="S:%d"><p>part %d</p></div><script>$RC("B:%d","S:%d")</script>`, i, i, i, i)
	}
	if n := Complete(parse(t, b.String())); n != 9 {
		t.Errorf("applied %d instructions, want 9 (1000 steps / 101 a boundary)", n)
	}
}

func TestPending(t *testing.T) {
	doc := parse(t, `<!--$?--><template id="B:0"></template><p>Loading</p><!--/$-->`+
		`<div hidden id="S:0"><p>First part</p></div>`+
		`<div hidden id="S:1"><p>A part no instruction names</p></div>`+
		`<div hidden id="P:2"></div><div id="Sx">Not a segment</div>`+
		`<script>$RC("B:0","S:0")</script>`)
	Complete(doc)
	var pending []string
	for n := range doc.Descendants() {
		if Pending(n) {
			pending = append(pending, strings.TrimSpace(n.FirstChild.FirstChild.Data))
		}
	}
	if fmt.Sprint(pending) != "[A part no instruction names]" {
		t.Errorf("pending parts = %q, want only the part no instruction moved", pending)
	}
}
