package fetch

import (
	"net/http"
	"strings"
	"testing"
)

func TestBlockedBy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		header http.Header
		body   string
		want   string // fragment of the wall's name; "" = not blocked
	}{
		{"cloudflare just a moment", 403, nil, challenge, "Just a moment"},
		{"cloudflare attention required", 403, nil, `<title>Attention Required! | Cloudflare</title>`, "Attention Required"},
		{"cloudflare cf-chl token", 503, nil, `<form id="challenge-form" action="/?__cf_chl_f_tk=x"><input name="cf-chl-bypass">`, "cf-chl"},
		{"cf-mitigated header at 200", 200, http.Header{"Cf-Mitigated": {"challenge"}}, "<p>hi</p>", "cf-mitigated"},
		{"datadome page", 403, nil, `<script src="https://ct.captcha-delivery.com/c.js"></script>`, "DataDome"},
		{"datadome header", 403, http.Header{"X-Datadome": {"protected"}}, "", "DataDome"},
		{"perimeterx", 403, nil, `<div id="px-captcha"></div>`, "PerimeterX"},
		{"akamai reference page", 403, nil, `<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>You don't have permission to access this server.<P>Reference #18.1c2d3e4f</BODY></HTML>`, "Akamai"},
		{"incapsula", 403, nil, `<iframe src="/_Incapsula_Resource?SWUDNSAI=31"></iframe>`, "Incapsula"},
		{"hcaptcha", 429, nil, `<form><div class="h-captcha" data-sitekey="x"></div></form>`, "hCaptcha"},
		{"recaptcha", 429, nil, `<script src="https://www.google.com/recaptcha/api.js"></script><div class="g-recaptcha"></div>`, "reCAPTCHA"},
		{"verify human", 403, nil, `<h1>Please verify you are a human</h1>`, "verify you are a human"},
		{"marker at 200 is content", 200, nil, `<p>Cloudflare pages say "Just a moment..." while they check you.</p>`, ""},
		{"bare 403", 403, nil, `<h1>Forbidden</h1>`, ""},
		{"access denied without reference", 403, nil, `<h1>Access denied</h1><p>Log in first.</p>`, ""},
		{"429 rate limit without wall", 429, nil, `{"error":"slow down"}`, ""},
		{"404 with captcha words", 404, nil, `<div class="g-recaptcha"></div>`, ""},
	}
	for _, tt := range tests {
		h := tt.header
		if h == nil {
			h = http.Header{}
		}
		got := blockedBy(&Response{StatusCode: tt.status, Header: h, Body: []byte(tt.body), ContentType: "text/html"})
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: blockedBy = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestShellReason(t *testing.T) {
	t.Parallel()
	long := "<p>" + strings.Repeat("Real words on a real page. ", 10) + "</p>"
	tests := []struct {
		name    string
		status  int
		ctype   string
		body    string
		waitFor string
		want    string // fragment; "" = needs no browser
	}{
		{"react shell", 200, "text/html", jsShell, "", "JavaScript shell"},
		{"next shell", 200, "text/html", `<div id="__next"></div><script src="/_next/static/chunks/main.js"></script>`, "", "JavaScript shell"},
		{"mount point without scripts", 200, "text/html", `<body><div id="app"></div></body>`, "", "JavaScript shell"},
		{"inline bootstrap only", 200, "text/html", `<body><script>window.boot()</script><p>Loading…</p></body>`, "", "JavaScript shell"},
		{"short static page", 200, "text/html", `<p>Short page, no scripts.</p>`, "", ""},
		{"json data script is not code", 200, "text/html", `<script type="application/ld+json">{"@type":"Thing"}</script><p>Tiny.</p>`, "", ""},
		{"server-rendered app", 200, "text/html", `<div id="root">` + long + `</div><script src="/app.js"></script>`, "", ""},
		{"shell with error status", 500, "text/html", jsShell, "", ""},
		{"not html", 200, "application/json", `{"root":""}`, "", ""},
		{"wait_for missing", 200, "text/html", long, "#prices", `wait_for "#prices"`},
		{"wait_for present", 200, "text/html", long + `<table id="prices"></table>`, "#prices", ""},
	}
	for _, tt := range tests {
		sel, err := compileWaitFor(tt.waitFor)
		if err != nil {
			t.Fatal(err)
		}
		got := shellReason(&Response{StatusCode: tt.status, ContentType: tt.ctype, Body: []byte(tt.body)}, sel)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: shellReason = %q, want %q", tt.name, got, tt.want)
		}
	}
}
