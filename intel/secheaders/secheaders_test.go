package secheaders_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/intel/secheaders"
)

func TestParseHSTS(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		value   string
		want    secheaders.HSTS
		problem string
	}{
		{"", secheaders.HSTS{}, secheaders.HSTSMissing},
		{"max-age=31536000; includeSubDomains; preload", secheaders.HSTS{Present: true, Valid: true, MaxAge: 31536000, IncludeSubDomains: true, Preload: true}, ""},
		{`MAX-AGE="63072000";INCLUDESUBDOMAINS`, secheaders.HSTS{Present: true, Valid: true, MaxAge: 63072000, IncludeSubDomains: true}, ""},
		{"max-age=31536000", secheaders.HSTS{Present: true, Valid: true, MaxAge: 31536000}, secheaders.HSTSNoSubdoms},
		{"max-age=86400; includeSubDomains", secheaders.HSTS{Present: true, Valid: true, MaxAge: 86400, IncludeSubDomains: true}, secheaders.HSTSShort},
		{"max-age=20000000; includeSubDomains", secheaders.HSTS{Present: true, Valid: true, MaxAge: 20000000, IncludeSubDomains: true}, secheaders.HSTSShort},
		{"max-age=0", secheaders.HSTS{Present: true, Valid: true}, secheaders.HSTSDisabled},
		{"max-age=99999999999999999999999", secheaders.HSTS{Present: true, Valid: true, MaxAge: 1<<63 - 1}, secheaders.HSTSNoSubdoms},
		{"includeSubDomains", secheaders.HSTS{Present: true, IncludeSubDomains: true, Error: "no max-age directive"}, secheaders.HSTSInvalid},
		{"max-age=1; max-age=2", secheaders.HSTS{Present: true, MaxAge: 1, Error: `directive "max-age" given twice`}, secheaders.HSTSInvalid},
		{"max-age=-5", secheaders.HSTS{Present: true, Error: `max-age "-5" is not a number of seconds`}, secheaders.HSTSInvalid},
		{"max-age=1y", secheaders.HSTS{Present: true, Error: `max-age "1y" is not a number of seconds`}, secheaders.HSTSInvalid},
		{strings.Repeat(";", 40) + "max-age=1", secheaders.HSTS{Present: true, Error: "more than 32 directives"}, secheaders.HSTSInvalid},
	} {
		got := secheaders.ParseHSTS(c.value)
		c.want.Raw = strings.TrimSpace(c.value)
		if got != c.want {
			t.Errorf("ParseHSTS(%q) = %+v, want %+v", c.value, got, c.want)
		}
		if _, _, problem, _ := secheaders.HSTSAdvice(got); problem != c.problem {
			t.Errorf("HSTSAdvice(%q) problem %q, want %q", c.value, problem, c.problem)
		}
	}
}

// check grades one header set and returns the check with the given id.
func check(t *testing.T, url, id string, kv ...string) secheaders.Check {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	for _, c := range secheaders.Grade(secheaders.Page{URL: url, Status: 200, Header: h}).Checks {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %q", id)
	return secheaders.Check{}
}

func TestChecks(t *testing.T) {
	t.Parallel()
	const https = "https://example.com/"
	for _, c := range []struct {
		name, url, id string
		headers       []string
		result        string
		points        int
	}{
		{"hsts over http", "http://example.com/", "hsts", []string{"Strict-Transport-Security", "max-age=1"}, secheaders.Info, 0},
		{"hsts first field wins", https, "hsts", []string{"Strict-Transport-Security", "max-age=31536000; includeSubDomains; preload", "Strict-Transport-Security", "max-age=0"}, secheaders.Pass, 5},
		{"csp nonce neutralises unsafe-inline", https, "csp", []string{"Content-Security-Policy", "script-src 'nonce-abc' 'unsafe-inline' 'strict-dynamic'; object-src 'none'"}, secheaders.Pass, 5},
		{"csp unsafe-inline", https, "csp", []string{"Content-Security-Policy", "default-src 'self' 'unsafe-inline'"}, secheaders.Fail, -20},
		{"csp unsafe-eval only", https, "csp", []string{"Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-eval'"}, secheaders.Warn, -10},
		{"csp wildcard scheme", https, "csp", []string{"Content-Security-Policy", "script-src https: 'self'"}, secheaders.Fail, -20},
		{"csp without script control", https, "csp", []string{"Content-Security-Policy", "upgrade-insecure-requests; frame-ancestors 'self'"}, secheaders.Fail, -20},
		{"csp strictest of two policies", https, "csp", []string{"Content-Security-Policy", "script-src *, default-src 'none'; script-src 'self'"}, secheaders.Pass, 10},
		{"csp empty", https, "csp", []string{"Content-Security-Policy", " "}, secheaders.Fail, -25},
		{"xcto other value", https, "x_content_type_options", []string{"X-Content-Type-Options", "sniff"}, secheaders.Fail, -5},
		{"xfo conflicting", https, "clickjacking", []string{"X-Frame-Options", "DENY", "X-Frame-Options", "SAMEORIGIN"}, secheaders.Fail, -20},
		{"xfo lower case", https, "clickjacking", []string{"X-Frame-Options", "sameorigin"}, secheaders.Pass, 0},
		{"frame-ancestors beats xfo", https, "clickjacking", []string{"X-Frame-Options", "ALLOW-FROM https://a.example", "Content-Security-Policy", "frame-ancestors 'self'"}, secheaders.Pass, 5},
		{"referrer fallback list", https, "referrer_policy", []string{"Referrer-Policy", "no-referrer, strict-origin-when-cross-origin"}, secheaders.Pass, 5},
		{"referrer unknown", https, "referrer_policy", []string{"Referrer-Policy", "never"}, secheaders.Fail, -5},
		{"referrer origin", https, "referrer_policy", []string{"Referrer-Policy", "origin"}, secheaders.Pass, 0},
		{"feature-policy only", https, "permissions_policy", []string{"Feature-Policy", "camera 'none'"}, secheaders.Warn, 0},
		{"corp cross-origin", https, "corp", []string{"Cross-Origin-Resource-Policy", "cross-origin"}, secheaders.Info, 0},
		{"coep credentialless", https, "coep", []string{"Cross-Origin-Embedder-Policy", "credentialless"}, secheaders.Pass, 0},
		{"coop with report-to", https, "coop", []string{"Cross-Origin-Opener-Policy", `same-origin; report-to="coop"`}, secheaders.Pass, 0},
		{"xss 1", https, "x_xss_protection", []string{"X-XSS-Protection", "1; mode=block"}, secheaders.Warn, 0},
		{"server product only", https, "server", []string{"Server", "cloudflare"}, secheaders.Pass, 0},
		{"server version", https, "server", []string{"Server", "nginx/1.25.3"}, secheaders.Warn, -5},
		{"cors null", https, "cors", []string{"Access-Control-Allow-Origin", "null"}, secheaders.Fail, -10},
		{"cors star", https, "cors", []string{"Access-Control-Allow-Origin", "*"}, secheaders.Info, 0},
		{"cookie session without httponly", https, "cookies", []string{"Set-Cookie", "sid=1; Secure; SameSite=Lax"}, secheaders.Fail, -10},
		{"cookie csrf may be read by scripts", https, "cookies", []string{"Set-Cookie", "csrftoken=1; Secure; SameSite=Strict"}, secheaders.Pass, 5},
		{"cookie without samesite", https, "cookies", []string{"Set-Cookie", "theme=dark; Secure"}, secheaders.Warn, 0},
		{"cookie malformed", https, "cookies", []string{"Set-Cookie", "=novalue"}, secheaders.Fail, -10},
		{"cookies over http", "http://example.com/", "cookies", []string{"Set-Cookie", "theme=dark; SameSite=Lax"}, secheaders.Warn, 0},
	} {
		got := check(t, c.url, c.id, c.headers...)
		if got.Result != c.result || got.Points != c.points {
			t.Errorf("%s: %s %d (%s), want %s %d", c.name, got.Result, got.Points, got.Reason, c.result, c.points)
		}
		if got.Reason == "" {
			t.Errorf("%s: no reason", c.name)
		}
	}
}

func TestScoreAndBounds(t *testing.T) {
	t.Parallel()
	// No headers at all: every penalty applies, no bonus.
	empty := secheaders.Grade(secheaders.Page{URL: "https://example.com/"})
	if empty.Score != 30 || empty.Grade != "D" || len(empty.Checks) != 16 || empty.Cookies == nil {
		t.Errorf("empty: score %d grade %s, %d checks", empty.Score, empty.Grade, len(empty.Checks))
	}
	// A long hostile value is cut, and many cookies are bounded.
	h := http.Header{"Content-Security-Policy": {strings.Repeat("a", 10_000)}}
	for range 80 {
		h.Add("Set-Cookie", "session=1")
	}
	rep := secheaders.Grade(secheaders.Page{URL: "https://example.com/", Header: h})
	for _, c := range rep.Checks {
		if len(c.Value) > 2100 || len(c.Reason) > 2000 {
			t.Errorf("%s: value %d bytes, reason %d bytes", c.ID, len(c.Value), len(c.Reason))
		}
	}
	if len(rep.Cookies) != 50 {
		t.Errorf("%d cookies reported, want 50", len(rep.Cookies))
	}
}
