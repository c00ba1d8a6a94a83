package htmltag

import (
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestHeadingLevel(t *testing.T) {
	t.Parallel()
	for a, want := range map[atom.Atom]int{atom.H1: 1, atom.H4: 4, atom.H6: 6, atom.P: 0, 0: 0} {
		if got := HeadingLevel(a); got != want || IsHeading(a) != (want > 0) {
			t.Errorf("%v: level %d, IsHeading %v; want %d", a, got, IsHeading(a), want)
		}
	}
}

func TestAttr(t *testing.T) {
	t.Parallel()
	n := &html.Node{Type: html.ElementNode, Attr: []html.Attribute{
		{Namespace: "xml", Key: "lang", Val: "fr"},
		{Key: "lang", Val: "en"},
		{Key: "lang", Val: "de"},
	}}
	if got := Attr(n, "lang"); got != "en" {
		t.Errorf("lang: %q, want the first without a namespace, en", got)
	}
	if got := Attr(n, "href"); got != "" {
		t.Errorf("missing: %q", got)
	}
}
