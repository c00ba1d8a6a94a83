package htmltag

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HeadingLevel is 1–6 for h1–h6, else 0.
func HeadingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// IsHeading reports whether a is h1–h6.
func IsHeading(a atom.Atom) bool { return HeadingLevel(a) > 0 }

// Attr is the value of n's first attribute named key with no namespace,
// or "".
func Attr(n *html.Node, key string) string {
	v, _ := LookupAttr(n.Attr, key)
	return v
}

// HasAttr reports whether n has an attribute named key with no namespace.
func HasAttr(n *html.Node, key string) bool {
	_, ok := LookupAttr(n.Attr, key)
	return ok
}

// IsJSONLD reports whether n is a <script type="application/ld+json">.
func IsJSONLD(n *html.Node) bool {
	return n.Type == html.ElementNode && n.DataAtom == atom.Script &&
		strings.EqualFold(strings.TrimSpace(Attr(n, "type")), "application/ld+json")
}

// LookupAttr returns the value of the first attribute in attrs named key
// with no namespace, and whether there is one. It takes a slice so that a
// tokenizer's attributes and a node's are read alike.
func LookupAttr(attrs []html.Attribute, key string) (string, bool) {
	for _, a := range attrs {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// ResolveURL makes ref (an href or src value) absolute against base. It
// returns ref trimmed when base is nil or ref is empty or not a URL.
func ResolveURL(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if base == nil || ref == "" {
		return ref
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return base.ResolveReference(u).String()
}

// RawText is the text of n's text-node children, as written: the
// content of a <style>, <script> or <title>.
func RawText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// HasToken reports whether a space-separated attribute value (rel,
// class) holds token, ASCII case-insensitively.
func HasToken(attr, token string) bool {
	for t := range strings.FieldsSeq(attr) {
		if strings.EqualFold(t, token) {
			return true
		}
	}
	return false
}
