package content

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestDropInterfaceLines(t *testing.T) {
	doc, err := parseHTML(`<div>
<p>Share</p>
<p>The river rose two metres overnight and the bridge was closed.</p>
<div>Advertisement</div>
<ul><li>Reply with quote</li><li>Sandbags were handed out at the town hall.</li></ul>
<p><a href="/more">Read more »</a></p>
<dl><dt>Joined</dt><dd>Apr 12, 2024</dd></dl>
<p>Residents were asked to share their photos with the council.</p>
<h2>Comments</h2>
<p>Learn more about flood defences on the council's website.</p>
</div>`)
	if err != nil {
		t.Fatal(err)
	}
	dropInterfaceLines(doc)
	text := renderText(doc)
	for _, gone := range []string{"Share\n", "Advertisement", "Reply with quote", "Read more", "Joined", "Comments"} {
		if strings.Contains(text, gone) {
			t.Errorf("the label %q was kept:\n%s", gone, text)
		}
	}
	for _, kept := range []string{"The river rose", "Sandbags were handed out", "Apr 12, 2024",
		"asked to share their photos", "Learn more about flood defences"} {
		if !strings.Contains(text, kept) {
			t.Errorf("content %q was dropped:\n%s", kept, text)
		}
	}
}

// TestInterfaceLinesLeaveTheExtraction: end to end, in both modes, a
// post's toolbar inside the article's container is not in the text, nor
// in the Markdown.
func TestInterfaceLinesLeaveTheExtraction(t *testing.T) {
	page := `<!doctype html><html><head><title>Flood defences</title></head><body><article>
<h1>Flood defences hold as the river peaks</h1>
<p>The river rose two metres overnight, and the new flood walls held along the whole of the town's quay.</p>
<p>Engineers said the walls, finished in the spring, were built for a flood twice the size of this one.</p>
<div class="tools"><div>Share</div><div>Print</div></div>
<p>Residents on the low streets were asked to move their cars before the evening's high tide.</p>
<p>The council thanked the volunteers who filled and stacked four thousand sandbags by the bridge.</p>
</article></body></html>`
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		res, err := Extract(context.Background(), Input{HTML: page, Mode: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Text, "four thousand sandbags") || !strings.Contains(res.Text, "new flood walls") {
			t.Fatalf("%s: the article is missing:\n%s", mode, res.Text)
		}
		for _, label := range []string{"Share", "Print"} {
			for name, out := range map[string]string{"text": res.Text, "markdown": res.Markdown} {
				for line := range strings.SplitSeq(out, "\n") {
					if line == label {
						t.Errorf("%s: the label %q is a line of the %s:\n%s", mode, label, name, out)
					}
				}
			}
		}
	}
}

// TestLabelTextBounded: a block's text is read up to 64 nodes, so that
// a page of nested blocks holding only empty elements costs the walk its
// size, not its size times its depth.
func TestLabelTextBounded(t *testing.T) {
	doc, err := parseHTML("<div>" + strings.Repeat("<span></span>", 70) + "Share</div>")
	if err != nil {
		t.Fatal(err)
	}
	var div *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "div" {
			div = n
			break
		}
	}
	if text, ok := lineText(div, maxLabelBytes); ok {
		t.Errorf("labelText read past 64 nodes: %q", text)
	}
	small, err := parseHTML("<div><span></span><b>Share</b></div>")
	if err != nil {
		t.Fatal(err)
	}
	for n := range small.Descendants() {
		if n.Type == html.ElementNode && n.Data == "div" {
			if text, ok := lineText(n, maxLabelBytes); !ok || labelKey(text) != "share" {
				t.Errorf("labelText = %q, %v; want share", text, ok)
			}
		}
	}
}

// TestDropInterfaceLinesLoose: a label left as a line of its own between
// blocks, as text or a link (a card's "Learn more"), goes too; in a
// sentence it stays. So do a forum author's counters.
func TestDropInterfaceLinesLoose(t *testing.T) {
	doc, err := parseHTML(`<div>
<h3>Delivery</h3><p>Shop from home and get it delivered to your front door.</p>Learn more
<h3>Financing</h3><p>Finance your new sofa with our card.</p><a href="/finance">Shop now</a>
<p>The sofa comes in four colours. <a href="/colours">Learn more</a></p>
<div class="author"><div>Posts: 1,077</div><div>Join Date: Aug 2008</div><div>Posts: the ones we liked most</div></div>
</div>`)
	if err != nil {
		t.Fatal(err)
	}
	dropInterfaceLines(doc)
	text := renderText(doc)
	for line := range strings.SplitSeq(text, "\n") {
		if line == "Learn more" {
			t.Errorf("the lone label %q was kept:\n%s", line, text)
		}
	}
	for _, gone := range []string{"Shop now", "1,077", "Aug 2008"} {
		if strings.Contains(text, gone) {
			t.Errorf("the label %q was kept:\n%s", gone, text)
		}
	}
	for _, kept := range []string{"Delivery", "front door", "four colours. Learn more", "Posts: the ones we liked most"} {
		if !strings.Contains(text, kept) {
			t.Errorf("content %q was dropped:\n%s", kept, text)
		}
	}
}

func TestAuthorCounter(t *testing.T) {
	for key, want := range map[string]bool{
		"posts: 1,077": true, "join date: aug 2008": true, "reaction score: 2.5k": true, "threads: 23": true,
		"posts: many": false, "posts about cats: 3 of them here": false, "price: 1,077": false, "posts": false,
	} {
		if got := authorCounter(key); got != want {
			t.Errorf("authorCounter(%q) = %v, want %v", key, got, want)
		}
	}
}
