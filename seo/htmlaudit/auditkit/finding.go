package auditkit

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Severities of a Finding, worst first.
const (
	// Error: the page is broken for users or search engines (a blocked
	// script, a noindex, an empty link).
	Error = "error"
	// Warning: likely to cost ranking, snippets or user trust.
	Warning = "warning"
	// Notice: worth a look; often intentional.
	Notice = "notice"
)

// Finding is one problem an audit reports, with what is needed to act on
// it. Code is stable (snake_case) and safe to switch on; Message is for
// people and may change.
type Finding struct {
	Code      string `json:"code" doc:"Stable snake_case identifier of the kind of problem."`
	Severity  string `json:"severity" enum:"error,warning,notice" doc:"error, warning or notice."`
	Message   string `json:"message" doc:"What is wrong and what to do, for people."`
	Tag       string `json:"tag,omitempty" doc:"The element's tag name, lower case."`
	Attribute string `json:"attribute,omitempty" doc:"The attribute that holds the offending value."`
	URL       string `json:"url,omitempty" doc:"The URL concerned, absolute when it could be resolved."`
	Snippet   string `json:"snippet,omitempty" doc:"A short excerpt: the element's start tag, text or CSS."`
}

// Grade is the letter of a 0-100 score: A from 90, B from 80, C from 70,
// D from 60, F below.
func Grade(score int) string {
	switch {
	case score >= 90:
		return "A"
	case score >= 80:
		return "B"
	case score >= 70:
		return "C"
	case score >= 60:
		return "D"
	}
	return "F"
}

// Clamp limits a score to 0-100.
func Clamp(score int) int { return max(0, min(100, score)) }

// Clip cuts s to at most n runes, ending it with "…" when cut.
func Clip(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			return strings.TrimRight(s[:i], " ") + "…"
		}
		count++
	}
	return s
}

// SnippetRunes is the longest snippet a Finding carries.
const SnippetRunes = 200

// attrValueRunes caps one attribute value inside a start-tag snippet.
const attrValueRunes = 120

// StartTag renders n's start tag as a snippet, attribute values clipped,
// the whole at most SnippetRunes runes: `<img src="http://a/b.png" alt="x">`.
func StartTag(n *html.Node) string {
	if n == nil || n.Type != html.ElementNode {
		return ""
	}
	var b strings.Builder
	b.WriteByte('<')
	b.WriteString(n.Data)
	for _, a := range n.Attr {
		b.WriteByte(' ')
		if a.Namespace != "" {
			b.WriteString(a.Namespace)
			b.WriteByte(':')
		}
		b.WriteString(a.Key)
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(Clip(CollapseSpace(a.Val), attrValueRunes)))
		b.WriteByte('"')
		if b.Len() > 4*SnippetRunes {
			break
		}
	}
	b.WriteByte('>')
	return Clip(b.String(), SnippetRunes)
}
