package captcha_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/captcha/captchatest"
	"github.com/webinfra/webinfra/errs"
)

const (
	recaptchaScript = `<script src="https://www.google.com/recaptcha/api.js" async defer></script>`
	hcaptchaScript  = `<script src="https://js.hcaptcha.com/1/api.js" async defer></script>`
	turnstileScript = `<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>`
)

func page(head, body string) string {
	return "<!DOCTYPE html><html><head><title>Sign in</title>" + head + "</head><body><form method=post>" +
		"<input name=email>" + body + "<button>Sign in</button></form></body></html>"
}

// detectCases are pages and the widgets Detect must find in them.
var detectCases = []struct {
	name string
	html string
	want []captcha.Widget
}{
	{"recaptcha v2 checkbox", page(recaptchaScript, `<div class="g-recaptcha" data-sitekey="`+recaptchaKey+`"></div>`),
		[]captcha.Widget{{Type: "recaptcha_v2", SiteKey: recaptchaKey}}},
	{"recaptcha v2 invisible", page(recaptchaScript, `<button class="btn g-recaptcha" data-sitekey="`+recaptchaKey+`" data-callback="onSubmit" data-size="invisible">Go</button>`),
		[]captcha.Widget{{Type: "recaptcha_v2", SiteKey: recaptchaKey, Invisible: true}}},
	{"recaptcha v2 explicit render", page(`<script src="https://www.recaptcha.net/recaptcha/api.js?onload=cb&render=explicit"></script>`,
		`<div id="rc"></div><script>var cb = function() { grecaptcha.render('rc', {'sitekey' : '`+recaptchaKey+`', 'callback': function(t) { done(t); }, size: "invisible"}); };</script>`),
		[]captcha.Widget{{Type: "recaptcha_v2", SiteKey: recaptchaKey, Invisible: true}}},
	{"recaptcha v3 render and execute", page(`<script src="https://www.google.com/recaptcha/api.js?render=`+recaptchaKey+`"></script>`,
		`<script>grecaptcha.ready(function() { grecaptcha.execute('`+recaptchaKey+`', {action: 'submit'}).then(function(token) { send(token); }); });</script>`),
		[]captcha.Widget{{Type: "recaptcha_v3", SiteKey: recaptchaKey, Action: "submit"}}},
	{"recaptcha v3 render only", page(`<script src="https://www.google.com/recaptcha/api.js?render=`+recaptchaKey+`&hl=en"></script>`, ""),
		[]captcha.Widget{{Type: "recaptcha_v3", SiteKey: recaptchaKey}}},
	{"recaptcha v3 execute only", page("", `<script>grecaptcha.execute("`+recaptchaKey+`", { action: "homepage/view" })</script>`),
		[]captcha.Widget{{Type: "recaptcha_v3", SiteKey: recaptchaKey, Action: "homepage/view"}}},
	{"recaptcha v3 button binding", page(recaptchaScript, `<button class="g-recaptcha" data-sitekey="`+recaptchaKey+`" data-callback="onSubmit" data-action="signup">Go</button>`),
		[]captcha.Widget{{Type: "recaptcha_v3", SiteKey: recaptchaKey, Action: "signup"}}},
	{"hcaptcha", page(hcaptchaScript, `<div class="h-captcha" data-sitekey="`+hcaptchaKey+`"></div>`),
		[]captcha.Widget{{Type: "hcaptcha", SiteKey: hcaptchaKey}}},
	{"hcaptcha invisible render", page(hcaptchaScript, `<script>hcaptcha.render("box", { sitekey: "`+hcaptchaKey+`", size: "invisible" })</script>`),
		[]captcha.Widget{{Type: "hcaptcha", SiteKey: hcaptchaKey, Invisible: true}}},
	{"turnstile", page(turnstileScript, `<div class="cf-turnstile" data-sitekey="`+turnstileKey+`" data-action="login" data-theme="light"></div>`),
		[]captcha.Widget{{Type: "turnstile", SiteKey: turnstileKey, Action: "login"}}},
	{"turnstile render", page(`<script src="https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit"></script>`,
		`<script>window.onloadTurnstileCallback = function () { turnstile.render('#example-container', { sitekey: '`+turnstileKey+`', action: 'signup-form', callback: function(token) { ok(token); } }); };</script>`),
		[]captcha.Widget{{Type: "turnstile", SiteKey: turnstileKey, Action: "signup-form"}}},
	{"element without class, by the script loaded", page(hcaptchaScript, `<div id="captcha" data-sitekey="`+hcaptchaKey+`"></div>`),
		[]captcha.Widget{{Type: "hcaptcha", SiteKey: hcaptchaKey}}},
	{"element without class, by the key's shape", page("", `<div data-sitekey="`+turnstileKey+`"></div>`),
		[]captcha.Widget{{Type: "turnstile", SiteKey: turnstileKey}}},
	{"several, visible first", page(`<script src="https://www.google.com/recaptcha/api.js?render=6LcV3PIbAAAAAJs_eEHvoOl75_83eXSqpPSRFJ_u"></script>`+hcaptchaScript,
		`<div class="h-captcha" data-sitekey="`+hcaptchaKey+`"></div><div class="cf-turnstile" data-sitekey="`+turnstileKey+`"></div>`),
		[]captcha.Widget{{Type: "hcaptcha", SiteKey: hcaptchaKey}, {Type: "turnstile", SiteKey: turnstileKey},
			{Type: "recaptcha_v3", SiteKey: "6LcV3PIbAAAAAJs_eEHvoOl75_83eXSqpPSRFJ_u"}}},
	{"same widget twice", page(recaptchaScript, `<div class="g-recaptcha" data-sitekey="`+recaptchaKey+`"></div><div class="g-recaptcha" data-sitekey="`+recaptchaKey+`"></div>`),
		[]captcha.Widget{{Type: "recaptcha_v2", SiteKey: recaptchaKey}}},
	{"none", page("", `<img src="/logo.png" alt="">`), nil},
	{"script without sitekey", page(turnstileScript, `<div id="ts"></div>`), nil},
	{"enterprise is not detected", page(`<script src="https://www.google.com/recaptcha/enterprise.js?render=`+recaptchaKey+`"></script>`,
		`<script>grecaptcha.enterprise.execute('`+recaptchaKey+`', {action: 'login'})</script>`), nil},
	{"bad sitekey ignored", page(recaptchaScript, `<div class="g-recaptcha" data-sitekey="{{ site_key }}"></div>`), nil},
}

func TestDetect(t *testing.T) {
	t.Parallel()
	for _, tc := range detectCases {
		if got := captcha.Detect([]byte(tc.html)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// pages serves the detect cases by name, plus a redirect and a JSON
// document, and counts the requests.
func pages(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	mux := http.NewServeMux()
	for _, tc := range detectCases {
		html := tc.html
		mux.HandleFunc("/"+strings.ReplaceAll(tc.name, " ", "-"), func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(html))
		})
	}
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hcaptcha?from=go", http.StatusFound)
	})
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"sitekey":"` + recaptchaKey + `"}`))
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestAutoSolvesEachWidget fetches loopback pages, detects the widget and
// solves it for the page's final URL.
func TestAutoSolvesEachWidget(t *testing.T) {
	t.Parallel()
	site, _ := pages(t)
	cases := []struct {
		path     string
		dialect  captchatest.Dialect
		want     captcha.Widget
		wantTask map[string]any
		finalURL string
		others   int
	}{
		{"/recaptcha-v2-checkbox", captchatest.TwoCaptcha, captcha.Widget{Type: "recaptcha_v2", SiteKey: recaptchaKey},
			map[string]any{"type": "RecaptchaV2TaskProxyless", "websiteKey": recaptchaKey, "isInvisible": false}, "", 0},
		{"/recaptcha-v2-invisible", captchatest.CapSolver, captcha.Widget{Type: "recaptcha_v2", SiteKey: recaptchaKey, Invisible: true},
			map[string]any{"type": "ReCaptchaV2TaskProxyLess", "websiteKey": recaptchaKey, "isInvisible": true}, "", 0},
		{"/recaptcha-v3-render-and-execute", captchatest.TwoCaptcha, captcha.Widget{Type: "recaptcha_v3", SiteKey: recaptchaKey, Action: "submit"},
			map[string]any{"type": "RecaptchaV3TaskProxyless", "websiteKey": recaptchaKey, "minScore": 0.3, "pageAction": "submit"}, "", 0},
		{"/hcaptcha", captchatest.TwoCaptcha, captcha.Widget{Type: "hcaptcha", SiteKey: hcaptchaKey},
			map[string]any{"type": "HCaptchaTaskProxyless", "websiteKey": hcaptchaKey, "isInvisible": false}, "", 0},
		{"/turnstile", captchatest.CapSolver, captcha.Widget{Type: "turnstile", SiteKey: turnstileKey, Action: "login"},
			map[string]any{"type": "AntiTurnstileTaskProxyLess", "websiteKey": turnstileKey, "metadata": map[string]any{"action": "login"}}, "", 0},
		{"/go", captchatest.TwoCaptcha, captcha.Widget{Type: "hcaptcha", SiteKey: hcaptchaKey},
			map[string]any{"type": "HCaptchaTaskProxyless", "websiteKey": hcaptchaKey, "isInvisible": false}, "/hcaptcha?from=go", 0},
		// CapSolver has no hCaptcha task: the next widget it can take.
		{"/several,-visible-first", captchatest.CapSolver, captcha.Widget{Type: "turnstile", SiteKey: turnstileKey},
			map[string]any{"type": "AntiTurnstileTaskProxyLess", "websiteKey": turnstileKey}, "", 2},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			srv := fakes(t, tc.dialect, captchatest.Config{Pending: 1})
			c, _ := newClient(t, optionsFor(srv, tc.dialect))
			res, err := c.Auto(context.Background(), captcha.AutoRequest{URL: site.URL + tc.path})
			if err != nil {
				t.Fatal(err)
			}
			final := site.URL + tc.path
			if tc.finalURL != "" {
				final = site.URL + tc.finalURL
			}
			if res.Detected != tc.want || res.PageURL != final || len(res.Others) != tc.others {
				t.Errorf("detected %+v on %s with %d others, want %+v on %s", res.Detected, res.PageURL, len(res.Others), tc.want, final)
			}
			tc.wantTask["websiteURL"] = final
			if got := plain(t, srv.Tasks()[0]); !reflect.DeepEqual(got, tc.wantTask) {
				t.Errorf("task sent %v, want %v", got, tc.wantTask)
			}
			if res.Solution == nil || res.Solution.Token != captchatest.DefaultToken || res.Solution.Type != tc.want.Type {
				t.Errorf("solution %+v", res.Solution)
			}
		})
	}
}

// TestAutoRefuses: pages without a widget, and calls no solver could
// answer (refused before the page is fetched).
func TestAutoRefuses(t *testing.T) {
	t.Parallel()
	site, hits := pages(t)
	two := fakes(t, captchatest.TwoCaptcha, captchatest.Config{})
	ocr := captcha.OCRFunc(func(context.Context, []byte) (string, error) { return "x", nil })
	withTwo, _ := newClient(t, captcha.Options{TwoCaptchaKey: two.Key(), TwoCaptchaURL: two.URL, OCR: ocr})
	localOnly, _ := newClient(t, captcha.Options{OCR: ocr})
	guarded, err := captcha.New(nil, &captcha.Options{TwoCaptchaKey: two.Key(), TwoCaptchaURL: two.URL})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		c       *captcha.Client
		req     captcha.AutoRequest
		kind    errs.Kind
		field   string
		says    string
		noFetch bool
	}{
		{"no widget", withTwo, captcha.AutoRequest{URL: site.URL + "/none"}, errs.KindInvalid, "url", "no captcha widget found on the page", false},
		{"script without sitekey", withTwo, captcha.AutoRequest{URL: site.URL + "/script-without-sitekey"}, errs.KindInvalid, "url", "loads the Turnstile script", false},
		{"enterprise", withTwo, captcha.AutoRequest{URL: site.URL + "/enterprise-is-not-detected"}, errs.KindInvalid, "url", "reCAPTCHA Enterprise", false},
		{"not HTML", withTwo, captcha.AutoRequest{URL: site.URL + "/api"}, errs.KindInvalid, "url", "application/json", false},
		{"no URL", withTwo, captcha.AutoRequest{}, errs.KindInvalid, "url", "required", true},
		{"local solves no widget", withTwo, captcha.AutoRequest{URL: site.URL + "/hcaptcha", Provider: "local"}, errs.KindInvalid, "provider", "only images", true},
		{"unknown provider", withTwo, captcha.AutoRequest{URL: site.URL + "/hcaptcha", Provider: "deathbycaptcha"}, errs.KindInvalid, "provider", "unknown provider", true},
		{"provider not configured", withTwo, captcha.AutoRequest{URL: site.URL + "/hcaptcha", Provider: "capsolver"}, errs.KindUnavailable, "", "--capsolver-key", true},
		{"no widget solver", localOnly, captcha.AutoRequest{URL: site.URL + "/hcaptcha"}, errs.KindUnavailable, "", "--twocaptcha-key (WEBINFRA_TWOCAPTCHA_KEY) or --capsolver-key (WEBINFRA_CAPSOLVER_KEY)", true},
		{"SSRF guard", guarded, captcha.AutoRequest{URL: site.URL + "/hcaptcha"}, errs.KindForbidden, "", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := hits.Load()
			_, err := tc.c.Auto(context.Background(), tc.req)
			wantKind(t, err, tc.kind)
			if errs.FieldOf(err) != tc.field || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("%q (field %q), want field %q saying %q", err, errs.FieldOf(err), tc.field, tc.says)
			}
			if fetched := hits.Load() != before; tc.noFetch && fetched {
				t.Error("the page was fetched")
			}
		})
	}
	if n := len(two.Requests()); n != 0 {
		t.Errorf("%d requests reached the provider", n)
	}
}
