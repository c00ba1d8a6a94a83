package fetch

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/markdown"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// Markdown converts a UTF-8 HTML page to CommonMark (see package
// extract/markdown). Relative links and image sources are made absolute
// against the page's <base href>, if any, resolved against pageURL. An
// empty pageURL leaves relative links as they are; a pageURL that is not
// an absolute URL is errs.KindInvalid.
func Markdown(page []byte, pageURL string) (string, error) {
	var base *url.URL
	if pageURL != "" {
		u, err := url.Parse(pageURL)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return "", errs.Invalid("page_url", "must be an absolute URL, got %q", pageURL)
		}
		base = u
	}
	return markdown.Convert(page, base), nil
}

// baseHref returns the href of the document's first <base> element.
func baseHref(n *html.Node) (string, bool) {
	if n.Type == html.ElementNode && n.DataAtom == atom.Base {
		if href := strings.TrimSpace(htmltag.Attr(n, "href")); href != "" {
			return href, true
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if href, ok := baseHref(c); ok {
			return href, true
		}
	}
	return "", false
}
