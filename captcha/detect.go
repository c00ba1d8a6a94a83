package captcha

import (
	"bytes"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// The widget families a script or an element can belong to.
const (
	familyRecaptcha  = "reCAPTCHA"
	familyHCaptcha   = "hCaptcha"
	familyTurnstile  = "Turnstile"
	familyEnterprise = "reCAPTCHA Enterprise"
)

// Detect finds the captcha widgets in an HTML page, visible widgets
// (reCAPTCHA v2, hCaptcha, Turnstile) first in document order, then
// reCAPTCHA v3. It reads:
//
//   - reCAPTCHA v2: an element of class g-recaptcha with data-sitekey
//     (invisible when data-size="invisible"), or grecaptcha.render(...,
//     {sitekey: ...}) in an inline script;
//   - reCAPTCHA v3: the render=<sitekey> parameter of the api.js script, a
//     grecaptcha.execute('<sitekey>', {action: '...'}) call in an inline
//     script, or a g-recaptcha element with data-action (v3's button
//     binding);
//   - hCaptcha: an element of class h-captcha with data-sitekey, or
//     hcaptcha.render(...);
//   - Turnstile: an element of class cf-turnstile with data-sitekey (and
//     data-action), or turnstile.render(...).
//
// Another element with data-sitekey is taken for the widget whose script
// the page loads, else recognised by its key's shape. reCAPTCHA Enterprise
// (enterprise.js) is not detected. Widgets a script adds after load are
// seen only in a rendered page.
func Detect(html []byte) []Widget { return detect(html).widgets }

// found is what a page holds: its widgets and the families whose script
// it loads.
type found struct {
	widgets []Widget
	loaded  []string
	v3Keys  []string // from api.js?render=<key>
}

var (
	executeCall = regexp.MustCompile(`grecaptcha\.execute\(\s*['"]([A-Za-z0-9_.-]{8,256})['"]`)
	renderCall  = regexp.MustCompile(`\b(grecaptcha|hcaptcha|turnstile)\.render\s*\(`)
	sitekeyOpt  = regexp.MustCompile(`['"]?sitekey['"]?\s*:\s*['"]([A-Za-z0-9_.-]{8,256})['"]`)
	actionOpt   = regexp.MustCompile(`['"]?action['"]?\s*:\s*['"]([A-Za-z0-9_/.:-]{1,128})['"]`)
	invisibleOp = regexp.MustCompile(`['"]?size['"]?\s*:\s*['"]invisible['"]`)
	uuidKey     = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// callWindow is how far past a call's opening parenthesis its options are
// looked for.
const callWindow = 600

func detect(html []byte) *found {
	f := &found{}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
	if err != nil {
		return f
	}
	var inline []string
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		if src, ok := s.Attr("src"); ok {
			f.script(src)
			return
		}
		inline = append(inline, s.Text())
	})
	doc.Find("[data-sitekey]").Each(func(_ int, s *goquery.Selection) { f.element(s) })
	for _, js := range inline {
		f.inline(js)
	}
	for _, key := range f.v3Keys {
		f.add(Widget{Type: string(TypeRecaptchaV3), SiteKey: key})
	}
	slices.SortStableFunc(f.widgets, func(a, b Widget) int {
		return rank(a) - rank(b)
	})
	return f
}

func rank(w Widget) int {
	if w.Type == string(TypeRecaptchaV3) {
		return 1
	}
	return 0
}

// script notes a widget script and reCAPTCHA v3's render=<sitekey>.
func (f *found) script(src string) {
	u, err := url.Parse(strings.TrimSpace(src))
	if err != nil {
		return
	}
	host, path := strings.ToLower(u.Hostname()), strings.ToLower(u.Path)
	switch {
	case strings.HasSuffix(path, "/recaptcha/enterprise.js"):
		f.load(familyEnterprise)
	case strings.HasSuffix(path, "/recaptcha/api.js"):
		f.load(familyRecaptcha)
		key := u.Query().Get("render")
		if key != "" && key != "explicit" && key != "onload" && checkSiteKey("", key) == nil && !slices.Contains(f.v3Keys, key) {
			f.v3Keys = append(f.v3Keys, key)
		}
	case (host == "hcaptcha.com" || strings.HasSuffix(host, ".hcaptcha.com")) && strings.HasSuffix(path, "/api.js"):
		f.load(familyHCaptcha)
	case host == "challenges.cloudflare.com" && strings.HasPrefix(path, "/turnstile/"):
		f.load(familyTurnstile)
	}
}

func (f *found) load(family string) {
	if !slices.Contains(f.loaded, family) {
		f.loaded = append(f.loaded, family)
	}
}

// element reads a widget element: anything with data-sitekey.
func (f *found) element(s *goquery.Selection) {
	key := strings.TrimSpace(s.AttrOr("data-sitekey", ""))
	if checkSiteKey("", key) != nil {
		return
	}
	action := strings.TrimSpace(s.AttrOr("data-action", ""))
	if checkAction("", action) != nil {
		action = ""
	}
	invisible := strings.EqualFold(strings.TrimSpace(s.AttrOr("data-size", "")), "invisible")
	var family string
	switch {
	case s.HasClass("g-recaptcha"):
		family = familyRecaptcha
	case s.HasClass("h-captcha"):
		family = familyHCaptcha
	case s.HasClass("cf-turnstile"):
		family = familyTurnstile
	default:
		family = f.familyOf(key)
	}
	switch family {
	case familyRecaptcha:
		if action != "" || slices.Contains(f.v3Keys, key) {
			f.add(Widget{Type: string(TypeRecaptchaV3), SiteKey: key, Action: action})
			return
		}
		f.add(Widget{Type: string(TypeRecaptchaV2), SiteKey: key, Invisible: invisible})
	case familyHCaptcha:
		f.add(Widget{Type: string(TypeHCaptcha), SiteKey: key, Invisible: invisible})
	case familyTurnstile:
		f.add(Widget{Type: string(TypeTurnstile), SiteKey: key, Action: action})
	}
}

// familyOf guesses the family of an element without a widget class: the
// one widget script the page loads, else the key's shape (Turnstile's
// 0x4..., hCaptcha's UUIDs, reCAPTCHA's 40 characters from 6L).
func (f *found) familyOf(key string) string {
	var families []string
	for _, l := range f.loaded {
		if l != familyEnterprise {
			families = append(families, l)
		}
	}
	switch {
	case len(families) == 1:
		return families[0]
	case strings.HasPrefix(key, "0x"):
		return familyTurnstile
	case uuidKey.MatchString(strings.ToLower(key)):
		return familyHCaptcha
	case len(key) == 40 && strings.HasPrefix(key, "6L"):
		return familyRecaptcha
	}
	return ""
}

// inline reads the widget calls of an inline script.
func (f *found) inline(js string) {
	for _, m := range executeCall.FindAllStringSubmatchIndex(js, -1) {
		key := js[m[2]:m[3]]
		w := Widget{Type: string(TypeRecaptchaV3), SiteKey: key}
		if a := actionOpt.FindStringSubmatch(window(js, m[1], 300, true)); a != nil {
			w.Action = a[1]
		}
		f.add(w)
	}
	for _, m := range renderCall.FindAllStringSubmatchIndex(js, -1) {
		opts := window(js, m[1], callWindow, false)
		k := sitekeyOpt.FindStringSubmatch(opts)
		if k == nil {
			continue
		}
		w := Widget{SiteKey: k[1], Invisible: invisibleOp.MatchString(opts)}
		switch js[m[2]:m[3]] {
		case "grecaptcha":
			w.Type = string(TypeRecaptchaV2)
			if slices.Contains(f.v3Keys, w.SiteKey) {
				w.Type, w.Invisible = string(TypeRecaptchaV3), false
			}
		case "hcaptcha":
			w.Type = string(TypeHCaptcha)
		case "turnstile":
			w.Type, w.Invisible = string(TypeTurnstile), false
			if a := actionOpt.FindStringSubmatch(opts); a != nil {
				w.Action = a[1]
			}
		}
		f.add(w)
	}
}

// window is up to n bytes of s from i, cut before the next widget call
// and, with paren, at the first closing parenthesis (the end of a call
// whose options hold no function).
func window(s string, i, n int, paren bool) string {
	s = s[i:min(len(s), i+n)]
	for _, stop := range []string{".render(", ".execute("} {
		if j := strings.Index(s, stop); j >= 0 {
			s = s[:j]
		}
	}
	if j := strings.Index(s, ")"); paren && j >= 0 {
		s = s[:j]
	}
	return s
}

// add records a widget once per type and sitekey; a later sighting fills
// an action the first lacked.
func (f *found) add(w Widget) {
	for i := range f.widgets {
		o := &f.widgets[i]
		if o.Type == w.Type && o.SiteKey == w.SiteKey {
			if o.Action == "" {
				o.Action = w.Action
			}
			o.Invisible = o.Invisible || w.Invisible
			return
		}
	}
	f.widgets = append(f.widgets, w)
}

// noWidgetMessage explains a page without a usable widget.
func (f *found) noWidgetMessage() string {
	msg := "no captcha widget found on the page (looked for reCAPTCHA v2 and v3, hCaptcha and Turnstile in its HTML)"
	var scripts []string
	for _, l := range f.loaded {
		if l == familyEnterprise {
			msg += "; it uses reCAPTCHA Enterprise, which is not supported"
			continue
		}
		scripts = append(scripts, l)
	}
	if len(scripts) > 0 {
		msg += "; it loads the " + strings.Join(scripts, " and ") +
			" script but its HTML names no sitekey (a script may set it): find the sitekey and use POST /v1/captcha/solve"
	}
	return msg
}
