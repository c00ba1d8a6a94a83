package streamed

import (
	"bytes"
	"regexp"
	"strings"

	"golang.org/x/net/html"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// The bounds on a hostile page: instructions applied, and sibling steps
// taken finding the ends of fallbacks (each step is one node), so a page
// cannot make Complete's work more than linear in its size. (maxSteps is
// a variable so that a test can reach it with a small page.)
const maxInstructions = 10_000

var maxSteps = 1 << 20

// instruction matches one call of the runtime in an inline script:
// $RC/$RR("B:…","S:…") or $RS("S:…","P:…"); the ids are React's (a
// letter, a colon, a base-32 counter), which the pattern spells out so
// that nothing else in a script is taken for one.
var instruction = regexp.MustCompile(`\$R([CRS])\("([A-Z]:[0-9a-z]+)","([A-Z]:[0-9a-z]+)"`)

// Streams reports whether an unparsed page calls the streaming runtime
// ($RC, $RR or $RS): a quick scan that lets callers that do not build a
// tree otherwise (a tokenizer) build one only for such pages.
func Streams(page []byte) bool {
	return bytes.Contains(page, []byte("$RC(")) || bytes.Contains(page, []byte("$RR(")) || bytes.Contains(page, []byte("$RS("))
}

// Complete applies the page's streaming instructions to doc, in place,
// and reports how many it applied. A page that streams nothing is left
// as it is (one walk over the tree finds no instruction).
func Complete(doc *html.Node) int {
	ids := map[string]*html.Node{}
	var calls [][]string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if id := htmltag.Attr(c, "id"); len(id) > 2 && id[1] == ':' {
				if _, dup := ids[id]; !dup {
					ids[id] = c
				}
			}
			if c.Data == "script" && c.FirstChild != nil && c.FirstChild.Type == html.TextNode {
				if text := c.FirstChild.Data; strings.Contains(text, "$R") && len(calls) < maxInstructions {
					for _, m := range instruction.FindAllStringSubmatch(text, maxInstructions-len(calls)) {
						calls = append(calls, m[1:])
					}
				}
			}
			walk(c)
		}
	}
	walk(doc)
	if len(calls) == 0 {
		return 0
	}
	c := completer{ids: ids, steps: maxSteps}
	applied := 0
	for _, call := range calls {
		if c.apply(call[0], call[1], call[2]) {
			applied++
		}
	}
	return applied
}

// Pending reports whether n is a streamed part that is not in place: an
// element with a segment's id (S:…), which the renderer sends hidden for
// its runtime to move where it belongs. Complete moves those the page's
// instructions name; one left is a part whose instruction did not run
// (the page was saved without its scripts, or cut short): text the
// reader would see once the page had loaded, not text the page hides.
func Pending(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	id := htmltag.Attr(n, "id")
	return len(id) > 2 && strings.HasPrefix(id, "S:")
}

type completer struct {
	ids   map[string]*html.Node
	steps int // sibling steps left
}

// apply runs one instruction: op "C" or "R" completes boundary a with
// segment b; "S" moves segment a into placeholder b. An instruction whose
// elements are missing, already used, or not where React puts them does
// nothing.
func (c *completer) apply(op, a, b string) bool {
	if op == "S" {
		return c.segment(a, b)
	}
	return c.boundary(a, b)
}

// segment moves the children of the hidden segment sid to where the
// placeholder pid is, and removes both.
func (c *completer) segment(sid, pid string) bool {
	seg, ph := c.take(sid), c.take(pid)
	if seg == nil || ph == nil || ph.Parent == nil || contains(seg, ph) {
		return false
	}
	moveChildren(seg, ph.Parent, ph)
	ph.Parent.RemoveChild(ph)
	return true
}

// boundary replaces the fallback of boundary bid (the nodes between its
// <!--$?--> comment and the matching <!--/$-->, its template among them)
// with the children of segment sid.
func (c *completer) boundary(bid, sid string) bool {
	seg, tmpl := c.take(sid), c.take(bid)
	if seg == nil {
		return false
	}
	if tmpl == nil || tmpl.Parent == nil || contains(seg, tmpl) {
		// The browser drops a part whose boundary is gone.
		return false
	}
	start := tmpl.PrevSibling
	if start == nil || start.Type != html.CommentNode || !strings.HasPrefix(start.Data, "$") {
		return false
	}
	// Find the end of the fallback: the /$ comment at this boundary's
	// depth (nested boundaries open with $ comments of their own).
	var end *html.Node
	depth := 0
	for n := tmpl.NextSibling; n != nil; n = n.NextSibling {
		if c.steps--; c.steps < 0 {
			return false
		}
		if n.Type != html.CommentNode {
			continue
		}
		if n.Data == "/$" {
			if depth == 0 {
				end = n
				break
			}
			depth--
		} else if strings.HasPrefix(n.Data, "$") {
			depth++
		}
	}
	if end == nil {
		return false
	}
	parent := start.Parent
	for n := start.NextSibling; n != end; {
		next := n.NextSibling
		parent.RemoveChild(n)
		n = next
	}
	moveChildren(seg, parent, end)
	start.Data = "$"
	return true
}

// take returns the element with id once: a second instruction naming it
// finds nothing, as the browser's would after the first removed it. A
// segment is detached from where it was streamed.
func (c *completer) take(id string) *html.Node {
	n := c.ids[id]
	delete(c.ids, id)
	if n != nil && strings.HasPrefix(id, "S:") && n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
	return n
}

func moveChildren(from, parent, before *html.Node) {
	for ch := from.FirstChild; ch != nil; ch = from.FirstChild {
		from.RemoveChild(ch)
		parent.InsertBefore(ch, before)
	}
}

// contains reports whether n is root or inside it.
func contains(root, n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == root {
			return true
		}
	}
	return false
}
