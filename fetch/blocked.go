package fetch

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/webinfra/webinfra/internal/htmltag"
)

// How much of a body block detection reads: walls put their markers in
// the first few kilobytes.
const blockSniffBytes = 256 << 10

// shellTextThreshold is the visible text (non-space characters) under
// which an HTML page that loads scripts is taken for a JavaScript shell.
const shellTextThreshold = 100

// wallStatuses are the statuses bot walls answer with. Body markers count
// only with one of them, so an article quoting "Just a moment..." is not
// taken for a challenge.
var wallStatuses = map[int]bool{http.StatusForbidden: true, http.StatusTooManyRequests: true, http.StatusServiceUnavailable: true}

// bodyMarker is a bot wall recognised by its page: every needle (lower
// case) must occur.
type bodyMarker struct {
	needles []string
	name    string
}

var bodyMarkers = []bodyMarker{
	{[]string{"just a moment..."}, `Cloudflare challenge ("Just a moment...")`},
	{[]string{"attention required! | cloudflare"}, `Cloudflare block page ("Attention Required!")`},
	{[]string{"cf-chl"}, "Cloudflare challenge (cf-chl)"},
	{[]string{"cf_chl_opt"}, "Cloudflare challenge (cf_chl_opt)"},
	{[]string{"/cdn-cgi/challenge-platform/"}, "Cloudflare challenge platform"},
	{[]string{"captcha-delivery.com"}, "DataDome captcha"},
	{[]string{"datadome"}, "DataDome"},
	{[]string{"px-captcha"}, "PerimeterX captcha (px-captcha)"},
	{[]string{"perimeterx"}, "PerimeterX"},
	{[]string{"_incapsula_resource"}, "Imperva Incapsula"},
	{[]string{"incapsula incident id"}, "Imperva Incapsula"},
	{[]string{"access denied", "reference #"}, `Akamai "Access Denied" reference page`},
	{[]string{"access denied", "errors.edgesuite.net"}, `Akamai "Access Denied" reference page`},
	{[]string{"please verify you are a human"}, `human verification ("Please verify you are a human")`},
	{[]string{"h-captcha"}, "hCaptcha challenge"},
	{[]string{"hcaptcha.com/1/api.js"}, "hCaptcha challenge"},
	{[]string{"g-recaptcha"}, "reCAPTCHA challenge"},
	{[]string{"www.google.com/recaptcha/"}, "reCAPTCHA challenge"},
	{[]string{"recaptcha/api.js"}, "reCAPTCHA challenge"},
}

// blockedBy returns the bot wall that answered instead of the page, or ""
// when the response looks like the page. A Cloudflare "cf-mitigated:
// challenge" header counts at any status; every other marker only with a
// 403, 429 or 503.
func blockedBy(res *Response) string {
	if strings.EqualFold(res.Header.Get("Cf-Mitigated"), "challenge") {
		return "Cloudflare challenge (cf-mitigated: challenge)"
	}
	if !wallStatuses[res.StatusCode] {
		return ""
	}
	if res.Header.Get("X-Datadome") != "" || res.Header.Get("X-Dd-B") != "" {
		return "DataDome (x-datadome header)"
	}
	body := res.Body
	if len(body) > blockSniffBytes {
		body = body[:blockSniffBytes]
	}
	lower := bytes.ToLower(body)
	for _, m := range bodyMarkers {
		if containsAll(lower, m.needles) {
			return m.name
		}
	}
	return ""
}

func containsAll(haystack []byte, needles []string) bool {
	for _, n := range needles {
		if !bytes.Contains(haystack, []byte(n)) {
			return false
		}
	}
	return true
}

// shellReason says why a successful HTML page still needs a browser: it
// is a JavaScript shell (next to no visible text, but scripts or an empty
// mount point), or it lacks the wait_for selector. "" means it does not.
func shellReason(res *Response, waitFor selector) string {
	if res.StatusCode < 200 || res.StatusCode > 299 || !isHTMLType(res.ContentType) {
		return ""
	}
	doc, err := html.Parse(bytes.NewReader(res.Body))
	if err != nil {
		return ""
	}
	if s := scanShell(doc); s.text < shellTextThreshold && (s.scripts > 0 || s.mount) {
		return fmt.Sprintf("a JavaScript shell (%d characters of text)", s.text)
	}
	if waitFor.sel != nil && waitFor.sel.MatchFirst(doc) == nil {
		return fmt.Sprintf("wait_for %q is not in the page's HTML", waitFor.raw)
	}
	return ""
}

// shellStats is what scanShell learns about a page.
type shellStats struct {
	text    int  // visible non-space characters
	scripts int  // executable scripts
	mount   bool // a typical framework mount point (id root, __next, app, ...)
}

// mountIDs are the ids client-side frameworks render into.
var mountIDs = map[string]bool{"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true, "svelte": true, "main-app": true}

func scanShell(doc *html.Node) shellStats {
	var s shellStats
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			for _, r := range n.Data {
				if !unicode.IsSpace(r) {
					s.text++
				}
			}
		case html.ElementNode:
			if n.DataAtom == atom.Script {
				if isExecutableScript(n) {
					s.scripts++
				}
				return
			}
			if id := htmltag.Attr(n, "id"); id != "" && mountIDs[id] {
				s.mount = true
			}
			if skipForText(n) {
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return s
}

// isExecutableScript is true for a <script> with code or a src, unless its
// type says it holds data (JSON, templates).
func isExecutableScript(n *html.Node) bool {
	switch t := strings.ToLower(strings.TrimSpace(htmltag.Attr(n, "type"))); t {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript":
	default:
		return false
	}
	return htmltag.Attr(n, "src") != "" || (n.FirstChild != nil && strings.TrimSpace(n.FirstChild.Data) != "")
}

// skipForText is true for elements whose content is not visible text.
func skipForText(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head, atom.Svg,
		atom.Iframe, atom.Object, atom.Canvas:
		return true
	}
	return false
}

func isHTMLType(mediaType string) bool {
	return mediaType == "text/html" || mediaType == "application/xhtml+xml"
}
