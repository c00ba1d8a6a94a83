package pagedata

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/content"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/internal/htmltag"
)

// MaxHTMLBytes caps the HTML an audit reads, as the extractors do.
const MaxHTMLBytes = 10 << 20

// Page is a page's parse and extractions. Any field may be nil: the
// audit fills what it needs from the HTML. A caller who sets a field
// must have made it from the same HTML the audit is given: Doc with
// internal/htmltag.Parse (or html.Parse), Structured with
// structured.Extract or structured.FromNode, Content with
// content.Extract or content.FromNode. The audits only read them.
type Page struct {
	Doc        *html.Node
	Structured *structured.Result
	Content    *content.Result
}

// Loaded is a page ready to audit: every field the audit asked for is
// set, and URL is the page's URL (nil when not given).
type Loaded struct {
	Page
	URL *url.URL
}

// Need says what an audit needs beyond the parse and the structured data.
type Need struct {
	// Content asks for the article (content.FromNode, the costly step:
	// about ten milliseconds on a typical page in accurate mode).
	Content bool
	// Mode is the extraction mode; "" is content's default (accurate).
	Mode content.Mode
}

// Load checks the audit's input and completes the page: htmlText must
// not be blank unless given holds the parsed page (Doc), rawURL
// may be empty or must be an absolute http(s) URL. Bad input is
// errs.KindInvalid on the field "html" or "url"; a page over MaxHTMLBytes
// errs.KindTooLarge.
func Load(ctx context.Context, htmlText, rawURL string, given *Page, need Need) (*Loaded, error) {
	l := &Loaded{}
	if given != nil {
		l.Page = *given
	}
	u, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	l.URL = u
	if l.Doc == nil {
		if strings.TrimSpace(htmlText) == "" {
			return nil, errs.Invalid("html", "must not be empty")
		}
		if len(htmlText) > MaxHTMLBytes {
			return nil, &errs.Error{Kind: errs.KindTooLarge, Field: "html",
				Message: fmt.Sprintf("is %d bytes, over the limit of %d", len(htmlText), MaxHTMLBytes)}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Parsed as extract/content parses before extracting, so that
		// content.FromNode sees what content.Extract would.
		if l.Doc, err = htmltag.ParseText(htmlText, "html"); err != nil {
			return nil, err
		}
	}
	if l.Structured == nil {
		l.Structured = structured.FromNode(l.Doc, u, nil)
	}
	if need.Content && l.Content == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if l.Content, err = content.FromNode(l.Doc, u, &content.Options{Mode: need.Mode}); err != nil {
			return nil, err
		}
	}
	return l, ctx.Err()
}

// ParseURL reads an audit's optional page URL: "" is nil, anything else
// must be an absolute http(s) URL (errs.KindInvalid on "url").
func ParseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errs.Invalid("url", "must be an absolute http or https URL, got %q", raw)
	}
	return u, nil
}

// Body is the page's <body> element, or doc itself when it has none.
func Body(doc *html.Node) *html.Node {
	var find func(n *html.Node, depth int) *html.Node
	find = func(n *html.Node, depth int) *html.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Body {
				return c
			}
			if depth < 2 && c.Type == html.ElementNode {
				if b := find(c, depth+1); b != nil {
					return b
				}
			}
		}
		return nil
	}
	if b := find(doc, 0); b != nil {
		return b
	}
	return doc
}
