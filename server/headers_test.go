package server_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	traceparentRE = regexp.MustCompile(`^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$`)
	timingRE      = regexp.MustCompile(`(^|, )total;dur=[0-9.]+`)
)

// Every response carries the observability and rate-limit headers;
// authenticated ones also carry Cache-Control: no-store.
func TestEveryResponseCarriesTheHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("headers@example.com")
	target := page(t).URL
	cases := []struct {
		name     string
		method   string
		path     string
		key      string
		body     any
		status   int
		authed   bool
		credited bool
	}{
		{"charged scrape", "POST", "/v1/scrape", key, map[string]any{"url": target}, 200, true, true},
		{"free account call", "GET", "/v1/me", key, nil, 200, true, false},
		{"validation error", "POST", "/v1/scrape", key, map[string]any{"url": 5}, 422, true, true},
		{"not built", "POST", "/v1/intel/whois", key, map[string]any{}, 501, true, true},
		{"no key", "GET", "/v1/me", "", nil, 401, false, false},
		{"health", "GET", "/healthz", "", nil, 200, false, false},
		{"unknown route", "GET", "/v1/nothing-here", "", nil, 404, false, false},
	}
	for _, c := range cases {
		r := e.want(e.call(c.method, c.path, c.key, c.body), c.status)
		h := r.header
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(h.Get("X-Request-Id")) {
			t.Errorf("%s: x-request-id %q", c.name, h.Get("X-Request-Id"))
		}
		if !traceparentRE.MatchString(h.Get("Traceparent")) {
			t.Errorf("%s: traceparent %q", c.name, h.Get("Traceparent"))
		}
		if !timingRE.MatchString(h.Get("Server-Timing")) {
			t.Errorf("%s: server-timing %q", c.name, h.Get("Server-Timing"))
		}
		for _, name := range []string{"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
			if _, err := strconv.ParseInt(h.Get(name), 10, 64); err != nil {
				t.Errorf("%s: %s = %q", c.name, name, h.Get(name))
			}
		}
		if reset, _ := strconv.ParseInt(h.Get("X-Ratelimit-Reset"), 10, 64); reset < time.Now().Add(-time.Minute).Unix() {
			t.Errorf("%s: x-ratelimit-reset %d is not a unix time", c.name, reset)
		}
		if got := h.Get("Cache-Control") == "no-store"; got != c.authed {
			t.Errorf("%s: Cache-Control %q", c.name, h.Get("Cache-Control"))
		}
		for _, name := range []string{"X-Credits-Cost", "X-Credits-Charged", "X-Credits-Balance"} {
			if got := h.Get(name) != ""; got != c.credited {
				t.Errorf("%s: %s = %q", c.name, name, h.Get(name))
			}
		}
	}
}

func TestTraceparentContinuesTheCallersTrace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	in := "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	out := e.call("GET", "/healthz", "", nil, "traceparent", in).header.Get("Traceparent")
	if !strings.HasPrefix(out, "00-4bf92f3577b34da6a3ce929d0e0e4736-") || strings.Contains(out, "00f067aa0ba902b7") {
		t.Fatalf("traceparent %q should keep the trace id with a new span id", out)
	}
	fresh := e.call("GET", "/healthz", "", nil, "traceparent", "garbage").header.Get("Traceparent")
	if !traceparentRE.MatchString(fresh) || strings.Contains(fresh, "4bf92f35") {
		t.Fatalf("invalid incoming traceparent gave %q", fresh)
	}
}

func TestScrapeReportsTierHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("tier@example.com")
	r := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": page(t).URL}), 200)
	if r.header.Get("X-Tier-Used") != "direct" || r.header.Get("X-Cascade-Path") != "direct" {
		t.Fatalf("tier headers %q %q", r.header.Get("X-Tier-Used"), r.header.Get("X-Cascade-Path"))
	}
	var out struct {
		StatusCode int    `json:"status_code"`
		FinalURL   string `json:"final_url"`
		HTML       string `json:"html"`
		Markdown   string `json:"markdown"`
		TierUsed   string `json:"tier_used"`
	}
	r.json(t, &out)
	if out.StatusCode != 200 || !strings.Contains(out.HTML, "<h1>Hello</h1>") || !strings.Contains(out.Markdown, "# Hello") || out.TierUsed != "direct" {
		t.Fatalf("scrape result %+v", out)
	}
}

func TestSSRFGuardRefusesWithoutCharge(t *testing.T) {
	t.Parallel()
	e := newEnv(t, strictFetch())
	key := e.signup("ssrf@example.com")
	for _, u := range []string{page(t).URL, "http://169.254.169.254/latest/meta-data/", "http://[::1]/"} {
		r := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": u}), 403)
		if !strings.Contains(strings.ToLower(r.detail(t)), "refused") || r.header.Get("X-Credits-Charged") != "0" {
			t.Errorf("%s: detail %q charged %q", u, r.detail(t), r.header.Get("X-Credits-Charged"))
		}
	}
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withMaxBody(1024))
	key := e.signup("big@example.com")
	big := `{"url": "http://example.com/` + strings.Repeat("a", 2048) + `"}`
	r := e.want(e.call("POST", "/v1/scrape", key, big), 413)
	if !strings.Contains(r.detail(t), "1024 bytes") || r.header.Get("X-Credits-Charged") != "" && r.header.Get("X-Credits-Charged") != "0" {
		t.Fatalf("413 detail %q", r.detail(t))
	}
	if e.balance(key) != 1000 {
		t.Fatal("an oversized call was charged")
	}
}

func TestUnknownRoutesUseTheErrorModel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.want(e.call("GET", "/v1/nothing", "", nil), 404)
	if r.detail(t) != "no endpoint GET /v1/nothing" {
		t.Fatalf("404 detail %q", r.detail(t))
	}
	r = e.want(e.call("GET", "/v1/scrape", "", nil), 405)
	if r.header.Get("Allow") != "POST" || r.detail(t) == "" {
		t.Fatalf("405 Allow %q detail %q", r.header.Get("Allow"), r.detail(t))
	}
	r = e.want(e.call("PUT", "/v1/keys/3", "", nil), 405)
	if r.header.Get("Allow") != "PATCH, DELETE" {
		t.Fatalf("405 Allow %q", r.header.Get("Allow"))
	}
}
