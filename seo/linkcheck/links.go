package linkcheck

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Bounds of Collect.
const (
	// MaxElements is the most elements read in a page.
	MaxElements = 200_000
	// MaxCollected is the most distinct links Collect keeps.
	MaxCollected = 5_000
	// textRunes caps a link's text.
	textRunes = 100
)

// The kinds of link Collect finds (FoundLink.Kind): the element and
// attribute the URL came from.
const (
	KindAnchor = "a"      // <a href>
	KindArea   = "area"   // <area href>
	KindImage  = "img"    // <img src>
	KindScript = "script" // <script src>
	KindLink   = "link"   // <link href>
)

// FoundLink is one distinct link of a page.
type FoundLink struct {
	URL         string `json:"url" doc:"Absolute, against the page's final URL and <base href>; fragment removed."`
	Kind        string `json:"kind" enum:"a,area,img,script,link" doc:"The element of its first occurrence."`
	Text        string `json:"text,omitempty" doc:"The first occurrence's anchor text (or alt text, aria-label or title), at most 100 characters."`
	Internal    bool   `json:"internal" doc:"Same host and port as the page (a leading www. ignored)."`
	Occurrences int    `json:"occurrences" doc:"How many times the page links it."`
}

// Skipped counts the hrefs that are not checked.
type Skipped struct {
	Mailto      int `json:"mailto"`
	Tel         int `json:"tel"`
	JavaScript  int `json:"javascript"`
	Fragment    int `json:"fragment" doc:"Same-page fragments (href=\"#...\")."`
	OtherScheme int `json:"other_scheme" doc:"data:, ftp:, sms: and other schemes that are not http(s)."`
	Invalid     int `json:"invalid" doc:"Empty or unparsable hrefs."`
}

// Collect returns the distinct links of doc in page order: <a href> and
// <area href>, and with resources also <img src>, <script src> and
// <link href> (except rel=preconnect and rel=dns-prefetch, which name
// origins, not resources). URLs are made absolute against pageURL and the
// document's <base href> (DocumentBase) and their fragment is dropped;
// mailto:, tel:, javascript:, other non-http(s) schemes, same-page
// fragments and unparsable values are counted in skipped instead. At most
// MaxElements elements are read and MaxCollected links kept; truncated
// says when either cap cut the list.
func Collect(doc *html.Node, pageURL *url.URL, resources bool) (links []FoundLink, skipped Skipped, truncated bool) {
	base := DocumentBase(doc, pageURL)
	index := map[string]int{}
	truncated = auditkit.Walk(doc, MaxElements, func(n *html.Node) bool {
		if n.Namespace != "" {
			return false
		}
		kind, attr := linkAttr(n, resources)
		if kind == "" {
			return true
		}
		raw, ok := htmltag.LookupAttr(n.Attr, attr)
		if !ok {
			return true
		}
		u := resolve(base, raw, &skipped)
		if u == "" {
			return true
		}
		if i, seen := index[u]; seen {
			links[i].Occurrences++
			return true
		}
		if len(links) == MaxCollected {
			truncated = true
			return true
		}
		index[u] = len(links)
		links = append(links, FoundLink{URL: u, Kind: kind, Text: linkText(n, kind), Internal: SameSite(pageURL, u), Occurrences: 1})
		return true
	})
	return links, skipped, truncated
}

// linkAttr names the kind of link n is and the attribute holding its URL,
// or "" when n is not a link Collect reads.
func linkAttr(n *html.Node, resources bool) (kind, attr string) {
	switch n.DataAtom {
	case atom.A:
		return KindAnchor, "href"
	case atom.Area:
		return KindArea, "href"
	}
	if !resources {
		return "", ""
	}
	switch n.DataAtom {
	case atom.Img:
		return KindImage, "src"
	case atom.Script:
		return KindScript, "src"
	case atom.Link:
		for _, rel := range strings.Fields(strings.ToLower(htmltag.Attr(n, "rel"))) {
			if rel == "preconnect" || rel == "dns-prefetch" {
				return "", ""
			}
		}
		return KindLink, "href"
	}
	return "", ""
}

func linkText(n *html.Node, kind string) string {
	var text string
	switch kind {
	case KindAnchor:
		text, _ = auditkit.Name(n)
	case KindArea, KindImage:
		text = auditkit.CollapseSpace(htmltag.Attr(n, "alt"))
	}
	return auditkit.Clip(text, textRunes)
}

// resolve makes raw absolute against base without its fragment, or
// counts it in skipped and returns "".
func resolve(base *url.URL, raw string, skipped *Skipped) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		skipped.Invalid++
		return ""
	}
	if strings.HasPrefix(raw, "#") {
		skipped.Fragment++
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		skipped.Invalid++
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "", "http", "https":
	case "mailto":
		skipped.Mailto++
		return ""
	case "tel":
		skipped.Tel++
		return ""
	case "javascript":
		skipped.JavaScript++
		return ""
	default:
		skipped.OtherScheme++
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if !u.IsAbs() || u.Host == "" {
		skipped.Invalid++
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// DocumentBase is the URL relative references in doc resolve against:
// pageURL with the first <base href> applied (when it gives an absolute
// http(s) URL), or pageURL.
func DocumentBase(doc *html.Node, pageURL *url.URL) *url.URL {
	var base *url.URL
	auditkit.Walk(doc, MaxElements, func(n *html.Node) bool {
		if base != nil || n.Namespace != "" {
			return false
		}
		if n.DataAtom == atom.Base {
			if href, ok := htmltag.LookupAttr(n.Attr, "href"); ok {
				base = pageURL // the first <base href> decides, even when bad
				if u, err := url.Parse(strings.TrimSpace(href)); err == nil {
					if pageURL != nil {
						u = pageURL.ResolveReference(u)
					}
					if u.Scheme == "http" || u.Scheme == "https" {
						base = u
					}
				}
			}
		}
		return base == nil
	})
	if base == nil {
		return pageURL
	}
	return base
}

// SameSite reports whether link (absolute) is on page's site: the same
// host and port, case and a leading "www." ignored, default ports
// implied. A nil page or a bad link is never the same site.
func SameSite(page *url.URL, link string) bool {
	u, err := url.Parse(link)
	if page == nil || err != nil {
		return false
	}
	return siteKey(page) == siteKey(u)
}

func siteKey(u *url.URL) string {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	port := u.Port()
	if port == "" || (port == "80" && u.Scheme == "http") || (port == "443" && u.Scheme == "https") {
		return host
	}
	return host + ":" + port
}
