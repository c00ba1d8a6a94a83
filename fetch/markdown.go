package fetch

import (
	"bytes"
	"net/url"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
)

// Markdown converts a UTF-8 HTML page to CommonMark. Relative links and
// image sources are made absolute against the page's <base href>, if any,
// resolved against pageURL. An empty pageURL leaves relative links as they
// are; a pageURL that is not an absolute URL is errs.KindInvalid.
func Markdown(page []byte, pageURL string) (string, error) {
	var base *url.URL
	if pageURL != "" {
		u, err := url.Parse(pageURL)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return "", errs.Invalid("page_url", "must be an absolute URL, got %q", pageURL)
		}
		base = u
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return "", errs.Wrap(errs.KindInvalid, err, "parsing HTML")
	}
	if base != nil {
		if href, ok := baseHref(doc); ok {
			if ref, err := url.Parse(href); err == nil {
				base = base.ResolveReference(ref)
			}
		}
	}
	return convertMarkdown(doc, base)
}

// convertMarkdown converts a parsed page, links made absolute against base
// (nil: left as they are). The converter edits the tree as it goes, so
// callers pass a tree they no longer need.
func convertMarkdown(doc *html.Node, base *url.URL) (string, error) {
	var opts []converter.ConvertOptionFunc
	if base != nil {
		opts = append(opts, converter.WithDomain(base.String()))
	}
	md, err := htmltomarkdown.ConvertNode(doc, opts...)
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "converting HTML to Markdown")
	}
	return strings.TrimSpace(string(md)), nil
}

// baseHref returns the href of the document's first <base> element.
func baseHref(n *html.Node) (string, bool) {
	if n.Type == html.ElementNode && n.DataAtom == atom.Base {
		for _, a := range n.Attr {
			if a.Namespace == "" && a.Key == "href" && strings.TrimSpace(a.Val) != "" {
				return strings.TrimSpace(a.Val), true
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if href, ok := baseHref(c); ok {
			return href, true
		}
	}
	return "", false
}
