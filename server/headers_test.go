package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/webinfra/webinfra/billing"
)

var (
	traceparentRE = regexp.MustCompile(`^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$`)
	timingRE      = regexp.MustCompile(`(^|, )total;dur=[0-9.]+`)
)

// Every response carries the observability and rate-limit headers and
// X-Content-Type-Options: nosniff; every answer of an API operation (health
// aside) carries Cache-Control: no-store: account data, or a raw key.
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
		noStore  bool
		credited bool
	}{
		{"charged scrape", "POST", "/v1/scrape", key, map[string]any{"url": target}, 200, true, true},
		{"free account call", "GET", "/v1/me", key, nil, 200, true, false},
		{"validation error", "POST", "/v1/scrape", key, map[string]any{"url": 5}, 422, true, true},
		{"unavailable (no browser)", "POST", "/v1/editor/runs", key, map[string]any{"url": target, "steps": []map[string]any{{"action": "assert_text", "text": "Hello"}}}, 503, true, true},
		{"no key", "GET", "/v1/me", "", nil, 401, true, false},
		{"sign-up (a raw key)", "POST", "/v1/auth/signup", "", map[string]any{"email": "headers-2@example.com", "password": "a long password"}, 200, true, false},
		{"login (a raw key)", "POST", "/v1/auth/login", "", map[string]any{"email": "headers@example.com", "password": "correct horse battery"}, 200, true, false},
		{"health", "GET", "/healthz", "", nil, 200, false, false},
		{"home page", "GET", "/", "", nil, 200, false, false},
		{"OpenAPI document", "GET", "/openapi.json", "", nil, 200, false, false},
		{"unknown route", "GET", "/v1/nothing-here", "", nil, 404, false, false},
		{"wrong method", "DELETE", "/v1/scrape", "", nil, 405, false, false},
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
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", c.name, h.Get("X-Content-Type-Options"))
		}
		if got := h.Get("Cache-Control") == "no-store"; got != c.noStore {
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

// Two Authorization headers are ambiguous (which one is the caller?): 400,
// before any key is looked up.
func TestTwoAuthorizationHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("two-auth@example.com")
	req, _ := http.NewRequest("GET", e.ts.URL+"/v1/me", nil)
	req.Header.Add("Authorization", "Bearer "+key)
	req.Header.Add("Authorization", "Bearer osk_"+strings.Repeat("0", 48))
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 400 || !strings.Contains(string(body), "Authorization") {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
}

// Anonymous buckets are per address for IPv4 and per /64 for IPv6: one
// host cannot get a fresh bucket from each of its 2^64 addresses.
func TestAnonymousBucketsByIPv6Prefix(t *testing.T) {
	t.Parallel()
	e := newEnv(t, frozenClock())
	call := func(remote string) int {
		req := httptest.NewRequest("GET", "/v1/nothing-here", nil)
		req.RemoteAddr = remote
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		return rec.Code
	}
	limit := billing.DefaultConfig().AnonymousRequestsPerMinute
	for i := range limit {
		if got := call(fmt.Sprintf("[2001:db8:1:2::%x]:4000", i+1)); got != 404 {
			t.Fatalf("call %d: status %d", i, got)
		}
	}
	if got := call("[2001:db8:1:2:ffff::1]:4000"); got != 429 {
		t.Fatalf("another address of the same /64: status %d, want 429", got)
	}
	if got := call("[2001:db8:1:3::1]:4000"); got != 404 {
		t.Fatalf("another /64: status %d, want its own bucket", got)
	}
}

// Validation errors locate a missing field at the field, and never echo a
// submitted value: a password (or token, or header value) must not come
// back in an answer, a log or a stored idempotent reply.
func TestValidationErrorsNameTheFieldAndEchoNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("validation@example.com")
	r := e.want(e.call("POST", "/v1/scrape", key, map[string]any{}), 422)
	if !strings.Contains(string(r.body), `"location":"body.url"`) || !strings.Contains(r.detail(t), "body.url: is required") {
		t.Fatalf("missing url: %s", r.body)
	}
	secrets := []struct {
		path, key string
		body      map[string]any
		secret    string
	}{
		{"/v1/auth/signup", "", map[string]any{"email": "v2@example.com", "password": "S3cret!"}, "S3cret!"},
		{"/v1/me/password", key, map[string]any{"current_password": 12345678, "new_password": "Sh0rt!"}, "Sh0rt!"},
		{"/v1/scrape", key, map[string]any{"url": page(t).URL, "headers": map[string]any{"Authorization": 42, "Cookie": "session=hunter2-" + strings.Repeat("x", 9000)}}, "hunter2"},
	}
	for _, s := range secrets {
		r := e.call("POST", s.path, s.key, s.body)
		if r.status < 400 || strings.Contains(string(r.body), s.secret) || strings.Contains(string(r.body), `"value"`) {
			t.Errorf("%s: status %d echoes the submitted value: %s", s.path, r.status, r.body)
		}
	}
}

// When the shared rate limiter loses Redis, calls still go through (each
// process limits on its own) and /healthz says degraded.
func TestHealthReportsALostRedis(t *testing.T) {
	t.Parallel()
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	defer client.Close()
	e := newEnv(t, func(c *envConfig) { c.server.Limiter = billing.NewRedisLimiter(client, "t:", nil) })
	var h struct {
		Status      string `json:"status"`
		RateLimiter string `json:"rate_limiter"`
	}
	e.want(e.call("GET", "/healthz", "", nil), 200).json(t, &h)
	e.want(e.call("GET", "/nope", "", nil), 404) // a limited call: the limiter finds Redis gone
	e.want(e.call("GET", "/healthz", "", nil), 200).json(t, &h)
	if h.Status != "degraded" || !strings.Contains(h.RateLimiter, "Redis unreachable") {
		t.Fatalf("healthz %+v", h)
	}
}
