package htmlaudit

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// Limits and thresholds of AnchorText.
const (
	// MaxLinks is the most links AnchorText audits in a page.
	MaxLinks = 20_000
	// MaxLinksListed is the most links it lists.
	MaxLinksListed = 1_000
	// RepeatedAnchorMin is how many links with the same text to the same
	// URL make a repeated_anchor finding.
	RepeatedAnchorMin = 3
	// VariedAnchorsMin is how many different texts for links to one URL
	// make a varied_anchors finding.
	VariedAnchorsMin = 5
	// variedAnchorsKept is the most distinct texts kept per URL.
	variedAnchorsKept = 20
)

// AnchorTextReport is the answer of the anchor-text audit.
type AnchorTextReport struct {
	PageURL      string          `json:"page_url" doc:"The page's URL as given."`
	PageNofollow bool            `json:"page_nofollow" doc:"A <meta name=robots|googlebot> holds nofollow or none: no link of the page passes signals."`
	Counts       AnchorCounts    `json:"counts" doc:"Counts over every audited link, listed or not."`
	Links        []AnchorLink    `json:"links" doc:"Each audited link in page order, at most 1,000."`
	Findings     []AnchorFinding `json:"findings" doc:"Problems, per link first (empty, generic, internal nofollow) then per URL (repeated, varied); at most 500."`
	Truncated    bool            `json:"truncated" doc:"Links or findings were left out, or the page had more than 20,000 links or 200,000 elements."`
}

// AnchorCounts sums up the links of a page.
type AnchorCounts struct {
	Links      int `json:"links" doc:"Links audited: <a href> and <area href> with an http(s) or relative URL."`
	Internal   int `json:"internal" doc:"Links to the page's own host (relative ones included; a leading www. ignored)."`
	External   int `json:"external"`
	UniqueURLs int `json:"unique_urls" doc:"Distinct target URLs, fragments ignored."`
	Nofollow   int `json:"nofollow" doc:"Links whose rel holds nofollow, sponsored or ugc (each a nofollow hint to Google)."`
	Sponsored  int `json:"sponsored"`
	UGC        int `json:"ugc"`
	Generic    int `json:"generic" doc:"Links whose text is generic (see GenericAnchors)."`
	Empty      int `json:"empty" doc:"Links with no text, no image alt and no aria-label."`
	ImageLinks int `json:"image_links" doc:"Links named by an image's alt text."`
	TitleOnly  int `json:"title_only" doc:"Links named only by their title attribute."`
	Skipped    int `json:"skipped" doc:"Links not audited: javascript:, mailto:, tel: and other non-web schemes, same-page fragments (href=\"#...\") and unparsable URLs."`
}

// AnchorLink is one audited link.
type AnchorLink struct {
	URL      string `json:"url" doc:"The target, absolute when the page URL is known."`
	Text     string `json:"text" doc:"The anchor text: visible text, else image alt, else aria-label, else title."`
	Source   string `json:"source" enum:"text,img_alt,aria_label,title," doc:"Where the text came from; empty for an empty anchor."`
	Internal bool   `json:"internal"`
	Nofollow bool   `json:"nofollow"`
	Rel      string `json:"rel,omitempty"`
	Generic  bool   `json:"generic"`
}

// AnchorFinding is one anchor-text problem.
type AnchorFinding struct {
	auditkit.Finding
	Text    string   `json:"text,omitempty" doc:"The anchor text concerned."`
	Count   int      `json:"count,omitempty" doc:"repeated_anchor: how many links use the text; varied_anchors: how many different texts the URL gets (counted up to 20)."`
	Anchors []string `json:"anchors,omitempty" doc:"varied_anchors: the different texts, at most 20."`
}

// AnchorText audits every link's anchor text. It reads <a href> and
// <area href> (not in <template>, <noscript> or hidden elements) whose
// target is another page: links to a fragment of the same page
// (href="#...") and non-web schemes (javascript:, mailto:, tel:) are only
// counted as skipped. A link's text is its visible text, else the text
// alternative of an image in it (img alt, inline SVG <title>; an area's
// own alt), else its aria-label, else its title attribute (see
// auditkit.Name). Links resolve against pageURL and <base href>; a nil
// pageURL leaves relative links relative (and internal). It reports:
//
//   - empty_anchor (error): a link with no text, alt, aria-label or title.
//   - title_only_anchor (notice): a link named only by its title
//     attribute, which search engines weigh little.
//   - generic_anchor (warning): text on GenericAnchors ("click here",
//     "read more", "here", ...).
//   - nofollow_internal (notice): rel nofollow on a link to the page's
//     own site, which only holds back its own pages.
//   - repeated_anchor (warning): the same text (compared without case and
//     with white space collapsed) used RepeatedAnchorMin (3) or more times
//     for the same URL (fragment ignored).
//   - varied_anchors (notice): one URL linked with VariedAnchorsMin (5) or
//     more different texts, which blurs what the target is about.
//
// It also counts internal and external links and nofollow, sponsored and
// ugc ones.
func AnchorText(doc *html.Node, pageURL *url.URL) *AnchorTextReport {
	a := &anchorAudit{page: newPage(doc, pageURL), byURL: map[string]*urlAnchors{}}
	r := &a.report
	if pageURL != nil {
		r.PageURL = pageURL.String()
	}
	for _, d := range a.page.robotsDirectives() {
		r.PageNofollow = r.PageNofollow || d == "nofollow" || d == "none"
	}
	cut := auditkit.Walk(doc, MaxElements, func(n *html.Node) bool {
		if n.Namespace != "" || n.DataAtom == atom.Noscript || auditkit.Hidden(n) {
			return false
		}
		if (n.DataAtom == atom.A || n.DataAtom == atom.Area) && htmltag.HasAttr(n, "href") {
			if r.Counts.Links+r.Counts.Skipped >= MaxLinks {
				a.cut = true
				return false
			}
			a.link(n)
		}
		return true
	})
	a.perURL()
	r.Counts.UniqueURLs = len(a.byURL)
	r.Findings = a.findings.items()
	if r.Links == nil {
		r.Links = []AnchorLink{}
	}
	r.Truncated = cut || a.cut || a.findings.cut || a.page.head.cut
	return r
}

type anchorAudit struct {
	page     *page
	report   AnchorTextReport
	findings findings[AnchorFinding]
	byURL    map[string]*urlAnchors
	order    []string // the keys of byURL in page order
	cut      bool
}

// urlAnchors are the texts of the links to one URL.
type urlAnchors struct {
	texts  map[string]int // normalized text → uses
	first  []string       // distinct texts as written, in page order, at most variedAnchorsKept
	sample *html.Node     // the first link, for the snippet
}

func (a *anchorAudit) link(n *html.Node) {
	c := &a.report.Counts
	href := strings.TrimSpace(htmltag.Attr(n, "href"))
	u := a.page.resolve(href)
	if u == nil || strings.HasPrefix(href, "#") || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") {
		c.Skipped++
		return
	}
	text, source := auditkit.Name(n)
	if n.DataAtom == atom.Area {
		text, source = auditkit.CollapseSpace(htmltag.Attr(n, "alt")), auditkit.SourceImageAlt
		if text == "" {
			source = ""
		}
	}
	text = auditkit.Clip(text, 300)
	rel := strings.ToLower(auditkit.CollapseSpace(htmltag.Attr(n, "rel")))
	link := AnchorLink{
		URL: u.String(), Text: text, Source: source, Internal: a.page.internal(u), Rel: rel,
		Nofollow: hasToken(rel, "nofollow", "sponsored", "ugc"), Generic: text != "" && isGeneric(text),
	}
	c.Links++
	if link.Internal {
		c.Internal++
	} else {
		c.External++
	}
	count := func(b bool, n *int) {
		if b {
			*n++
		}
	}
	count(link.Nofollow, &c.Nofollow)
	count(hasToken(rel, "sponsored"), &c.Sponsored)
	count(hasToken(rel, "ugc"), &c.UGC)
	count(link.Generic, &c.Generic)
	count(source == "", &c.Empty)
	count(source == auditkit.SourceImageAlt, &c.ImageLinks)
	count(source == auditkit.SourceTitle, &c.TitleOnly)
	if len(a.report.Links) < MaxLinksListed {
		a.report.Links = append(a.report.Links, link)
	} else {
		a.cut = true
	}
	a.linkFindings(n, link)
	a.remember(n, u, text)
}

// linkFindings records the problems of one link.
func (a *anchorAudit) linkFindings(n *html.Node, link AnchorLink) {
	f := auditkit.Finding{Tag: n.Data, Attribute: "href", URL: link.URL, Snippet: auditkit.StartTag(n)}
	switch {
	case link.Source == "":
		f.Code, f.Severity = "empty_anchor", auditkit.Error
		f.Message = "link has no text, image alt, aria-label or title: search engines and screen readers cannot tell where it leads"
		a.findings.add(AnchorFinding{Finding: f})
	case link.Source == auditkit.SourceTitle:
		f.Code, f.Severity = "title_only_anchor", auditkit.Notice
		f.Message = "link is named only by its title attribute: add visible text or an image alt"
		a.findings.add(AnchorFinding{Finding: f, Text: link.Text})
	case link.Generic:
		f.Code, f.Severity = "generic_anchor", auditkit.Warning
		f.Message = "generic anchor text says nothing about the target: describe the page it leads to"
		a.findings.add(AnchorFinding{Finding: f, Text: link.Text})
	}
	if link.Internal && hasToken(link.Rel, "nofollow") {
		f.Code, f.Severity = "nofollow_internal", auditkit.Notice
		f.Message = "internal link marked nofollow: it holds back the site's own page; drop the nofollow unless intended"
		a.findings.add(AnchorFinding{Finding: f, Text: link.Text})
	}
}

// remember files a link's text (if any) under its URL, fragment removed.
func (a *anchorAudit) remember(n *html.Node, u *url.URL, text string) {
	key := *u
	key.Fragment, key.RawFragment = "", ""
	k := key.String()
	ua := a.byURL[k]
	if ua == nil {
		ua = &urlAnchors{texts: map[string]int{}, sample: n}
		a.byURL[k] = ua
		a.order = append(a.order, k)
	}
	if text == "" {
		return
	}
	norm := strings.ToLower(text)
	if _, seen := ua.texts[norm]; !seen {
		if len(ua.texts) >= variedAnchorsKept {
			return
		}
		ua.first = append(ua.first, text)
	}
	ua.texts[norm]++
}

// perURL records the repeated and varied anchors of each URL.
func (a *anchorAudit) perURL() {
	for _, k := range a.order {
		ua := a.byURL[k]
		base := auditkit.Finding{Tag: ua.sample.Data, Attribute: "href", URL: k, Snippet: auditkit.StartTag(ua.sample)}
		for _, text := range ua.first {
			if uses := ua.texts[strings.ToLower(text)]; uses >= RepeatedAnchorMin {
				f := base
				f.Code, f.Severity = "repeated_anchor", auditkit.Warning
				f.Message = "the same anchor text links to the same URL several times: keep one link, or vary the text"
				a.findings.add(AnchorFinding{Finding: f, Text: text, Count: uses})
			}
		}
		if len(ua.texts) >= VariedAnchorsMin {
			f := base
			f.Code, f.Severity = "varied_anchors", auditkit.Notice
			f.Message = "one URL is linked with many different anchor texts: settle on one or two that describe it"
			a.findings.add(AnchorFinding{Finding: f, Count: len(ua.texts), Anchors: slices.Clone(ua.first)})
		}
	}
}
