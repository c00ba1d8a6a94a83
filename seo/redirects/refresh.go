package redirects

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
	"github.com/webinfra/webinfra/seo/linkcheck"
)

// Where a refresh was declared (Refresh.Source).
const (
	SourceMeta   = "meta"   // <meta http-equiv="refresh" content="...">
	SourceHeader = "header" // a Refresh response header
)

// Refresh is a declarative refresh: after DelaySeconds the browser loads
// URL, or reloads the page when URL is empty.
type Refresh struct {
	Source       string `json:"source" enum:"meta,header"`
	Content      string `json:"content" doc:"The declaration as written (clipped to 200 characters)."`
	DelaySeconds int    `json:"delay_seconds" doc:"Whole seconds; a fraction is ignored, as browsers do."`
	URL          string `json:"url,omitempty" doc:"The target, absolute; empty for a reload of the page itself."`
}

// MetaRefresh returns the first <meta http-equiv="refresh"> of doc that
// parses (the one browsers act on), its URL absolute against pageURL and
// the document's <base href>, or nil.
func MetaRefresh(doc *html.Node, pageURL *url.URL) *Refresh {
	var found *Refresh
	auditkit.Walk(doc, linkcheck.MaxElements, func(n *html.Node) bool {
		if found != nil || n.Namespace != "" {
			return false
		}
		if n.DataAtom == atom.Meta && strings.EqualFold(strings.TrimSpace(htmltag.Attr(n, "http-equiv")), "refresh") {
			found = ParseRefresh(htmltag.Attr(n, "content"), nil)
		}
		return found == nil
	})
	if found == nil {
		return nil
	}
	found.Source = SourceMeta
	if found.URL != "" {
		found.URL = htmltag.ResolveURL(linkcheck.DocumentBase(doc, pageURL), found.URL)
	}
	return found
}

// ParseRefresh parses a refresh declaration as HTML's shared declarative
// refresh steps do: a non-negative number of seconds, then optionally ";"
// or ",", an optional "url=" (any case), and the URL, optionally quoted;
// "5", "0; url=/next", "0;URL='/next'" and "3, /next" all parse. The URL
// is made absolute against base when base is not nil. It returns nil when
// content is not a refresh (no leading number).
func ParseRefresh(content string, base *url.URL) *Refresh {
	s := strings.TrimLeft(content, " \t\n\f\r")
	digits := 0
	for digits < len(s) && isDigit(s[digits]) {
		digits++
	}
	if digits == 0 && !strings.HasPrefix(s, ".") {
		return nil
	}
	delay := 0
	if digits > 0 {
		n, err := strconv.ParseInt(s[:digits], 10, 32)
		if err != nil {
			n = math.MaxInt32
		}
		delay = int(n)
	}
	i := digits
	for i < len(s) && (isDigit(s[i]) || s[i] == '.') { // a fraction is ignored
		i++
	}
	r := &Refresh{Content: auditkit.Clip(strings.TrimSpace(content), auditkit.SnippetRunes), DelaySeconds: delay}
	rest := strings.TrimLeft(s[i:], " \t\n\f\r")
	if rest != "" && rest[0] != ';' && rest[0] != ',' {
		return r // junk after the number: a reload
	}
	if rest != "" {
		rest = strings.TrimLeft(rest[1:], " \t\n\f\r")
	}
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "url") {
		after := strings.TrimLeft(rest[3:], " \t\n\f\r")
		if strings.HasPrefix(after, "=") {
			rest = strings.TrimLeft(after[1:], " \t\n\f\r")
		}
	}
	if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
		q := rest[0]
		rest = rest[1:]
		if j := strings.IndexByte(rest, q); j >= 0 {
			rest = rest[:j]
		}
	}
	rest = strings.TrimSpace(rest)
	if rest != "" {
		r.URL = htmltag.ResolveURL(base, rest)
	}
	return r
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
