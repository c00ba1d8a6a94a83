package htmlaudit

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// The nine subresource kinds of MixedContent.
const (
	KindScript     = "script"     // <script src>, SVG <script href>
	KindStylesheet = "stylesheet" // <link rel=stylesheet href>, CSS @import
	KindImage      = "image"      // <img src|srcset>, <picture><source srcset>, <input type=image src>, <video poster>, SVG <image href>, background attribute, CSS url() outside @font-face
	KindFrame      = "frame"      // <iframe src>, <frame src>
	KindMedia      = "media"      // <audio src>, <video src>, <source src> in audio/video, <track src>
	KindObject     = "object"     // <object data>, <embed src>
	KindFont       = "font"       // url() inside @font-face in <style>
	KindForm       = "form"       // <form action>, <button|input formaction>
	KindLink       = "link"       // <link rel=preload|prefetch|modulepreload|icon|apple-touch-icon|mask-icon|manifest href>
)

// Classes of mixed content (W3C Mixed Content, section 3).
const (
	Blockable   = "blockable"
	Upgradeable = "upgradeable"
)

// What a current browser does with a mixed-content item.
const (
	BrowserBlocked  = "blocked"
	BrowserUpgraded = "upgraded"
	BrowserWarned   = "warned"
)

// MixedContentReport is the answer of the mixed-content audit.
type MixedContentReport struct {
	PageURL                 string             `json:"page_url" doc:"The page's URL as given."`
	Applicable              bool               `json:"applicable" doc:"False unless the page URL is https://: mixed content exists only on HTTPS pages."`
	Reason                  string             `json:"reason,omitempty" doc:"Why the audit does not apply, when it does not."`
	UpgradeInsecureRequests bool               `json:"upgrade_insecure_requests" doc:"The page's <meta http-equiv=Content-Security-Policy> holds upgrade-insecure-requests: browsers fetch every item over https:// instead (a CSP response header, which this audit cannot see, does the same)."`
	Total                   int                `json:"total" doc:"http:// subresources found, listed or not."`
	Blockable               int                `json:"blockable" doc:"Of total, active mixed content browsers block (scripts, styles, frames, fonts, srcset images, ...) plus insecure form targets."`
	Upgradeable             int                `json:"upgradeable" doc:"Of total, passive mixed content browsers rewrite to https:// (img src, CSS images, audio, video)."`
	ByKind                  MixedContentCounts `json:"by_kind" doc:"Total split by subresource kind."`
	Items                   []MixedContentItem `json:"items" doc:"Each http:// subresource in page order, at most 500."`
	Truncated               bool               `json:"truncated" doc:"Items were left out, or the page was longer than the audit reads (200,000 elements, 2 MiB of CSS)."`
}

// MixedContentCounts counts mixed content per kind.
type MixedContentCounts struct {
	Script     int `json:"script"`
	Stylesheet int `json:"stylesheet"`
	Image      int `json:"image"`
	Frame      int `json:"frame"`
	Media      int `json:"media"`
	Object     int `json:"object"`
	Font       int `json:"font"`
	Form       int `json:"form"`
	Link       int `json:"link"`
}

func (c *MixedContentCounts) add(kind string) {
	switch kind {
	case KindScript:
		c.Script++
	case KindStylesheet:
		c.Stylesheet++
	case KindImage:
		c.Image++
	case KindFrame:
		c.Frame++
	case KindMedia:
		c.Media++
	case KindObject:
		c.Object++
	case KindFont:
		c.Font++
	case KindForm:
		c.Form++
	case KindLink:
		c.Link++
	}
}

// MixedContentItem is one http:// subresource. Its code is "mixed_" plus
// its kind (mixed_script, mixed_image, ...); severity is error when
// browsers block it, warning when they upgrade it (it breaks if the host
// has no HTTPS) or warn before a form is sent, notice when the page's own
// upgrade-insecure-requests policy upgrades it.
type MixedContentItem struct {
	auditkit.Finding
	Kind     string `json:"kind" enum:"script,stylesheet,image,frame,media,object,font,form,link" doc:"Subresource kind."`
	Class    string `json:"class" enum:"blockable,upgradeable" doc:"W3C Mixed Content category: blockable (formerly active) or upgradeable (formerly passive, optionally-blockable)."`
	Active   bool   `json:"active" doc:"True for blockable (active) content."`
	Browser  string `json:"browser" enum:"blocked,upgraded,warned" doc:"What current browsers do with it."`
	Noscript bool   `json:"noscript,omitempty" doc:"The element sits in <noscript>: only fetched with scripting off."`
}

// MixedContent lists every http:// subresource of an HTTPS page, each
// classified by kind and by the W3C Mixed Content category, with counts.
// pageURL is where the page was fetched; a page that is not https:// (or
// a nil pageURL) answers Applicable false. References resolve against
// pageURL and the page's <base href>.
//
// The nine kinds, and where each is found (HTML elements, and SVG
// where noted):
//
//   - script: <script src>, SVG <script href|xlink:href>.
//   - stylesheet: <link rel=stylesheet href>, @import in <style>.
//   - image: <img src> and <img srcset>, <source srcset> in <picture>,
//     <input type=image src>, <video poster>, SVG <image href|xlink:href>,
//     the legacy background attribute, and CSS url() outside @font-face
//     in <style> elements and style attributes.
//   - frame: <iframe src>, <frame src>.
//   - media: <audio src>, <video src>, <source src> in <audio>/<video>,
//     <track src>.
//   - object: <object data>, <embed src>.
//   - font: url() inside @font-face rules of <style> elements (a style
//     attribute cannot hold an at-rule).
//   - form: <form action>, <button formaction>, <input formaction>.
//   - link: <link href> with rel preload, modulepreload, prefetch, icon,
//     shortcut icon, apple-touch-icon(-precomposed), mask-icon or manifest.
//
// Class follows W3C Mixed Content Level 2: upgradeable are image
// requests whose initiator is not an image set (an <img> with srcset or in
// <picture> is blockable), CSS images, icons and image preloads, and audio
// and video (a <track> is blockable); an element with a crossorigin
// attribute, or a URL whose host is an IP address, is never upgraded, so
// blockable. Everything else is blockable. A form target is not a
// subresource: browsers warn before sending it, and it is counted as
// blockable (active: the user's data goes out in clear).
//
// Not mixed content, so not listed: http://localhost, *.localhost and
// loopback addresses (potentially trustworthy URLs), data:, blob: and
// https:// URLs, links to other pages, and URLs that only scripts fetch
// (data-src and the like). Elements inside <template> are inert and
// skipped; those in <noscript> are listed with noscript true.
func MixedContent(doc *html.Node, pageURL *url.URL) *MixedContentReport {
	r := &MixedContentReport{Items: []MixedContentItem{}}
	if pageURL != nil {
		r.PageURL = pageURL.String()
	}
	switch {
	case pageURL == nil || !pageURL.IsAbs():
		r.Reason = "the page URL is unknown: mixed content applies only to pages served over https://"
		return r
	case pageURL.Scheme != "https":
		r.Reason = "the page is served over " + pageURL.Scheme + "://, not https://: mixed content applies only to HTTPS pages"
		return r
	}
	r.Applicable = true
	m := &mixedAudit{page: newPage(doc, pageURL), report: r, cssBudget: maxCSSBytes}
	for _, c := range m.page.metaHTTPEquiv("content-security-policy") {
		if hasCSPDirective(c, "upgrade-insecure-requests") {
			r.UpgradeInsecureRequests = true
		}
	}
	cut := auditkit.Walk(doc, MaxElements, m.element)
	r.Items = m.items.items()
	r.Truncated = cut || m.items.cut || m.cssCut || m.page.head.cut
	return r
}

// mixedAudit is one run of MixedContent.
type mixedAudit struct {
	page      *page
	report    *MixedContentReport
	items     findings[MixedContentItem]
	cssBudget int
	cssCut    bool
}

// request is one subresource reference an element makes.
type request struct {
	kind     string
	dest     string // the fetch destination: image, audio, video, track, script, style, font, ...
	imageset bool   // an image chosen from srcset or <picture>: never upgraded
	attr     string
	ref      string
	snippet  string // "" means the element's start tag
}

func (m *mixedAudit) element(n *html.Node) bool {
	switch n.Namespace {
	case "svg":
		m.svgElement(n)
		return true
	case "":
	default:
		return false
	}
	for _, rq := range elementRequests(n) {
		m.check(n, rq)
	}
	if n.DataAtom == atom.Style {
		m.css(n, auditkit.RawText(n), "")
		return false
	}
	if style, ok := htmltag.LookupAttr(n.Attr, "style"); ok && strings.Contains(strings.ToLower(style), "url(") {
		m.css(n, style, "style")
	}
	return n.DataAtom != atom.Script && n.DataAtom != atom.Textarea
}

func (m *mixedAudit) svgElement(n *html.Node) {
	kind, dest := "", ""
	switch n.Data {
	case "script":
		kind, dest = KindScript, "script"
	case "image":
		kind, dest = KindImage, "image"
	default:
		return
	}
	for _, a := range n.Attr {
		if a.Key == "href" && (a.Namespace == "" || a.Namespace == "xlink") {
			m.check(n, request{kind: kind, dest: dest, attr: "href", ref: a.Val})
		}
	}
}

// check resolves a reference and records it when it is mixed content.
func (m *mixedAudit) check(n *html.Node, rq request) {
	u := m.page.resolve(rq.ref)
	if u == nil || u.Scheme != "http" || trustworthyHost(u.Hostname()) {
		return
	}
	class := Blockable
	if (rq.dest == "image" && !rq.imageset || rq.dest == "audio" || rq.dest == "video") &&
		!htmltag.HasAttr(n, "crossorigin") && net.ParseIP(u.Hostname()) == nil {
		class = Upgradeable
	}
	browser, severity := BrowserBlocked, auditkit.Error
	switch {
	case m.report.UpgradeInsecureRequests:
		browser, severity = BrowserUpgraded, auditkit.Notice
	case rq.kind == KindForm:
		browser, severity = BrowserWarned, auditkit.Warning
	case class == Upgradeable:
		browser, severity = BrowserUpgraded, auditkit.Warning
	}
	r := m.report
	r.Total++
	r.ByKind.add(rq.kind)
	if class == Blockable {
		r.Blockable++
	} else {
		r.Upgradeable++
	}
	snippet := rq.snippet
	if snippet == "" {
		snippet = auditkit.StartTag(n)
	}
	m.items.add(MixedContentItem{
		Finding: auditkit.Finding{
			Code: "mixed_" + rq.kind, Severity: severity, Message: m.message(rq.kind, browser),
			Tag: n.Data, Attribute: rq.attr, URL: u.String(), Snippet: snippet,
		},
		Kind: rq.kind, Class: class, Active: class == Blockable, Browser: browser, Noscript: inNoscript(n),
	})
}

func (m *mixedAudit) message(kind, browser string) string {
	switch {
	case m.report.UpgradeInsecureRequests:
		return kind + " written as http://: the page's upgrade-insecure-requests policy makes browsers fetch it over https://; write https:// in the page"
	case browser == BrowserWarned:
		return "form sends its data over http:// from an HTTPS page: browsers warn before submitting; point it at https://"
	case browser == BrowserUpgraded:
		return kind + " requested over http://: browsers rewrite it to https:// and drop it if that fails; write https:// in the page"
	}
	return kind + " requested over http:// from an HTTPS page: browsers block it; serve it over https://"
}

// elementRequests lists the subresources an HTML element asks for.
func elementRequests(n *html.Node) []request {
	var out []request
	add := func(kind, dest, attr string) {
		if v, ok := htmltag.LookupAttr(n.Attr, attr); ok {
			out = append(out, request{kind: kind, dest: dest, attr: attr, ref: v})
		}
	}
	addSrcset := func() {
		for _, ref := range srcsetURLs(htmltag.Attr(n, "srcset")) {
			out = append(out, request{kind: KindImage, dest: "image", imageset: true, attr: "srcset", ref: ref})
		}
	}
	parent := parentAtom(n)
	switch n.DataAtom {
	case atom.Script:
		add(KindScript, "script", "src")
	case atom.Link:
		out = linkRequest(n)
	case atom.Img:
		imageset := htmltag.HasAttr(n, "srcset") || parent == atom.Picture
		if v, ok := htmltag.LookupAttr(n.Attr, "src"); ok {
			out = append(out, request{kind: KindImage, dest: "image", imageset: imageset, attr: "src", ref: v})
		}
		addSrcset()
	case atom.Source:
		switch parent {
		case atom.Picture:
			addSrcset()
		case atom.Audio:
			add(KindMedia, "audio", "src")
		case atom.Video:
			add(KindMedia, "video", "src")
		}
	case atom.Video:
		add(KindMedia, "video", "src")
		add(KindImage, "image", "poster")
	case atom.Audio:
		add(KindMedia, "audio", "src")
	case atom.Track:
		add(KindMedia, "track", "src")
	case atom.Iframe, atom.Frame:
		add(KindFrame, "iframe", "src")
	case atom.Object:
		add(KindObject, "object", "data")
	case atom.Embed:
		add(KindObject, "embed", "src")
	case atom.Input:
		if strings.EqualFold(htmltag.Attr(n, "type"), "image") {
			add(KindImage, "image", "src")
		}
		add(KindForm, "form", "formaction")
	case atom.Button:
		add(KindForm, "form", "formaction")
	case atom.Form:
		add(KindForm, "form", "action")
	}
	if n.DataAtom != atom.Link {
		add(KindImage, "image", "background")
	}
	return out
}

// linkRequest is the subresource a <link> element fetches, if any.
func linkRequest(n *html.Node) []request {
	href, ok := htmltag.LookupAttr(n.Attr, "href")
	if !ok {
		return nil
	}
	rel := htmltag.Attr(n, "rel")
	switch {
	case hasToken(rel, "stylesheet"):
		return []request{{kind: KindStylesheet, dest: "style", attr: "href", ref: href}}
	case hasToken(rel, "icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon"):
		return []request{{kind: KindLink, dest: "image", attr: "href", ref: href}}
	case hasToken(rel, "manifest"):
		return []request{{kind: KindLink, dest: "manifest", attr: "href", ref: href}}
	case hasToken(rel, "preload", "modulepreload", "prefetch"):
		dest := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "as")))
		if hasToken(rel, "modulepreload") || dest == "" {
			dest = "script"
		}
		return []request{{kind: KindLink, dest: dest, attr: "href", ref: href}}
	}
	return nil
}

// trustworthyHost reports whether http:// to host is still a potentially
// trustworthy URL (W3C Secure Contexts): localhost, *.localhost and
// loopback addresses.
func trustworthyHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func parentAtom(n *html.Node) atom.Atom {
	if n.Parent == nil || n.Parent.Type != html.ElementNode || n.Parent.Namespace != "" {
		return 0
	}
	return n.Parent.DataAtom
}

func inNoscript(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == atom.Noscript && p.Namespace == "" {
			return true
		}
	}
	return false
}

// metaHTTPEquiv returns the content of every <meta http-equiv=name>.
func (p *page) metaHTTPEquiv(name string) []string {
	var out []string
	for _, m := range p.head.metas {
		if strings.EqualFold(strings.TrimSpace(htmltag.Attr(m, "http-equiv")), name) {
			out = append(out, htmltag.Attr(m, "content"))
		}
	}
	return out
}

// hasCSPDirective reports whether a Content-Security-Policy value holds
// the named directive.
func hasCSPDirective(policy, name string) bool {
	for _, d := range strings.Split(policy, ";") {
		if f := strings.Fields(d); len(f) > 0 && strings.EqualFold(f[0], name) {
			return true
		}
	}
	return false
}
