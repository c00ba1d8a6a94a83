package content

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/wcxb"
)

// An introduction of two paragraphs that readability's container left
// out is put back before its article; a call to action between the two
// stays out, and so does text b already has.
func TestWithLeadingProse(t *testing.T) {
	body := `<h2>Why invest in data analysis?</h2>
<p>Organizations already sit on a goldmine of data, and analyzing it helps them decide what to build next.</p>
<p>It is particularly helpful when performance is slow and users leave before they see any value at all.</p>`
	a := fragment(t, `<div><div>
<p>Your business is generating more data than ever, but it will not give you an edge in dashboards no one checks.</p>
<p>So how do you turn all that raw data into actionable and practical insights? By staying on top of the trends.</p>
<p><a href="/trial">Try it now</a></p>`+body+`</div></div>`)
	b := fragment(t, body)
	if !withLeadingProse(b, renderText(b), a) {
		t.Fatal("the introduction was not taken")
	}
	text := renderText(b)
	if !strings.HasPrefix(text, "Your business is generating") || !strings.Contains(text, "trends.\n\nWhy invest") {
		t.Errorf("the introduction is not where it belongs:\n%s", text)
	}
	if strings.Contains(text, "Try it now") || strings.Count(text, "goldmine") != 1 {
		t.Errorf("more than the introduction came:\n%s", text)
	}
}

// A single paragraph before the body is as often the standfirst, which
// stays out; so does a first block that holds the body itself (a whole
// page in one block), and lines that are no sentences.
func TestWithLeadingProseLeavesOut(t *testing.T) {
	body := `<p>The body's first paragraph is long enough to count, and it says what the article is about in full.</p>`
	for name, lead := range map[string]string{
		"standfirst": `<p>NFL assaults have led to lawsuits before, but a prosecutor would find a charge hard to prove.</p>`,
		"headlines": `<p>Post Malone, Ariana Grande and Billie Eilish Lead the Nominations: See the Full List</p>
<p>Jonas Brothers Added to the American Music Awards Performance Lineup This November</p>`,
		"one block": `<p>Guides</p><div><p>Your business is generating more data than ever, and no dashboard shows it.</p>
<p>So how do you turn all that raw data into insights? By staying on top of the newest trends.</p>` + body + `</div>`,
		"menu": `<ul><li>Combo Power Tool Sets</li><li>Tool Bundles</li><li>Cordless Drills</li><li>Circular Saws</li></ul>
<ul><li>Impact Wrenches</li><li>Impact Drivers</li><li>Miter Saws</li><li>Reciprocating Saws</li></ul>`,
	} {
		a := fragment(t, `<div>`+lead+body+`</div>`)
		b := fragment(t, body)
		if withLeadingProse(b, renderText(b), a) {
			t.Errorf("%s: taken:\n%s", name, renderText(b))
		}
	}
}

// WCXB 0299: the article's introduction sits in a block of its own above
// the body, which readability's article leaves out.
func TestLeadingProseKept(t *testing.T) {
	p := wcxb.LoadPage(t, "0299")
	r, err := Extract(context.Background(), Input{HTML: string(p.HTML), URL: p.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Text, "Your SaaS business is generating more data than ever.") {
		t.Errorf("the introduction is missing:\n%s", r.Text[:min(len(r.Text), 600)])
	}
	if strings.Contains(r.Text, "Try Userpilot Now") {
		t.Errorf("the call to action came too:\n%s", r.Text[:min(len(r.Text), 600)])
	}
}

// A surplus of thousands of blocks is no introduction, and is not looked
// for block by block in the whole article: the search stops at
// leadMaxBlocks.
func TestWithLeadingProseBounded(t *testing.T) {
	body := `<p>The body's first paragraph is long enough to count, and it says what the article is about in full.</p>`
	var lead strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&lead, "<p>Paragraph %d of a surplus that goes on and on, longer than any introduction is.</p>", i)
	}
	a := fragment(t, `<div>`+lead.String()+body+`</div>`)
	b := fragment(t, body)
	if withLeadingProse(b, renderText(b), a) {
		t.Error("took thousands of blocks for an introduction")
	}
}
