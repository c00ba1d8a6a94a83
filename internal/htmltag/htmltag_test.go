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

func TestIsJSONLD(t *testing.T) {
	t.Parallel()
	script := func(typ string) *html.Node {
		n := &html.Node{Type: html.ElementNode, DataAtom: atom.Script, Data: "script"}
		if typ != "" {
			n.Attr = []html.Attribute{{Key: "type", Val: typ}}
		}
		return n
	}
	for _, c := range []struct {
		n    *html.Node
		want bool
	}{
		{script("application/ld+json"), true},
		{script(" Application/LD+JSON "), true},
		{script("application/json"), false},
		{script(""), false},
		{&html.Node{Type: html.ElementNode, DataAtom: atom.Div, Data: "div",
			Attr: []html.Attribute{{Key: "type", Val: "application/ld+json"}}}, false},
	} {
		if got := IsJSONLD(c.n); got != c.want {
			t.Errorf("%s %v: %v, want %v", c.n.Data, c.n.Attr, got, c.want)
		}
	}
}
