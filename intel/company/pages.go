package company

import (
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// Contact-page limits.
const (
	maxContactPages = 12
	maxPerKind      = 3
	maxAnchorText   = 60
)

// The last path segment (extension dropped, lower case) of each kind of
// company page, in the languages sites use most; and link texts.
var (
	pageSlugs = map[string]string{
		"contact": "contact", "contact-us": "contact", "contactus": "contact", "kontakt": "contact",
		"contacto": "contact", "contato": "contact", "contatti": "contact", "nous-contacter": "contact", "get-in-touch": "contact",
		"about": "about", "about-us": "about", "aboutus": "about", "company": "about", "who-we-are": "about", "our-story": "about",
		"ueber-uns": "about", "uber-uns": "about", "über-uns": "about", "a-propos": "about", "qui-sommes-nous": "about",
		"quienes-somos": "about", "chi-siamo": "about", "sobre-nos": "about", "over-ons": "about", "om-oss": "about",
		"imprint": "imprint", "impressum": "imprint", "legal-notice": "imprint", "mentions-legales": "imprint",
		"aviso-legal": "imprint", "colofon": "imprint", "note-legali": "imprint",
		"careers": "careers", "career": "careers", "jobs": "careers", "join-us": "careers", "work-with-us": "careers",
		"karriere": "careers", "stellenangebote": "careers", "empleo": "careers", "carrieres": "careers", "vacatures": "careers",
	}
	pageTexts = map[string]string{
		"contact": "contact", "contact us": "contact", "kontakt": "contact", "contacto": "contact", "get in touch": "contact",
		"about": "about", "about us": "about", "our story": "about", "who we are": "about", "über uns": "about", "à propos": "about",
		"imprint": "imprint", "impressum": "imprint", "legal notice": "imprint", "mentions légales": "imprint",
		"careers": "careers", "jobs": "careers", "join us": "careers", "we're hiring": "careers", "work with us": "careers", "karriere": "careers",
	}
	// Hosts of applicant-tracking systems, where careers pages often live.
	jobBoards = []string{"greenhouse.io", "lever.co", "workable.com", "ashbyhq.com", "recruitee.com", "personio.de",
		"personio.com", "smartrecruiters.com", "myworkdayjobs.com", "teamtailor.com", "bamboohr.com"}
)

// companyPage reports whether the page itself is a contact, about,
// imprint or careers page, by its last path segment.
func (v *pageView) companyPage() bool {
	if v.base == nil {
		return false
	}
	slug := strings.ToLower(path.Base(strings.TrimSuffix(v.base.Path, "/")))
	_, ok := pageSlugs[strings.TrimSuffix(slug, path.Ext(slug))]
	return ok
}

// contactPages finds the page's links to the site's contact, about,
// imprint and careers pages (careers also on job boards).
func contactPages(doc *html.Node, page *pageView) []ContactPage {
	out := []ContactPage{}
	perKind := map[string]int{}
	seen := map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if len(out) >= maxContactPages {
			return
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			if cp, ok := contactPage(n, page); ok && !seen[strings.TrimSuffix(cp.URL, "/")] && perKind[cp.Kind] < maxPerKind {
				seen[strings.TrimSuffix(cp.URL, "/")] = true
				perKind[cp.Kind]++
				out = append(out, cp)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// contactPage reads one link.
func contactPage(a *html.Node, page *pageView) (ContactPage, bool) {
	href := page.abs(htmltag.Attr(a, "href"))
	u, err := url.Parse(href)
	if href == "" || err != nil {
		return ContactPage{}, false
	}
	u.Fragment, u.RawFragment = "", ""
	text := strings.Join(strings.Fields(linkText(a)), " ")
	kind := pageTexts[strings.TrimRight(strings.ToLower(text), " .:!»›→")]
	slug := strings.ToLower(path.Base(strings.TrimSuffix(u.Path, "/")))
	if k, ok := pageSlugs[strings.TrimSuffix(slug, path.Ext(slug))]; ok {
		kind = k
	}
	switch {
	case kind == "":
		return ContactPage{}, false
	case page.onSite(u.String()):
	case kind == "careers" && onJobBoard(u.Hostname()):
	default:
		return ContactPage{}, false
	}
	return ContactPage{Kind: kind, URL: u.String(), Text: cutText(text, maxAnchorText)}, true
}

// cutText is s cut to n bytes, not through a character.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

func onJobBoard(host string) bool {
	host = strings.ToLower(host)
	for _, b := range jobBoards {
		if host == b || strings.HasSuffix(host, "."+b) {
			return true
		}
	}
	return false
}

// linkText is a link's text, at most a few hundred bytes of it.
func linkText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if b.Len() > 4*maxAnchorText {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
