package server_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/billing"
)

func TestSignup(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var out struct {
		User struct {
			Email, Plan string
			Limit       int64
		} `json:"user"`
		APIKey string `json:"api_key"`
	}
	e.want(e.call("POST", "/v1/auth/signup", "", map[string]string{"email": " Ada@Example.com ", "password": "correct horse"}), 200).json(t, &out)
	if out.User.Email != "ada@example.com" || out.User.Plan != "free" || out.User.Limit <= 0 {
		t.Fatalf("user = %+v", out.User)
	}
	if !regexp.MustCompile(`^osk_[0-9a-f]{48}$`).MatchString(out.APIKey) {
		t.Fatalf("api_key %q is not osk_ + 192 bits", out.APIKey)
	}
	if got := e.balance(out.APIKey); got != 1000 {
		t.Fatalf("new account balance = %d, want 1000", got)
	}

	dup := e.want(e.call("POST", "/v1/auth/signup", "", map[string]string{"email": "ADA@example.com", "password": "another password"}), 409)
	if !strings.Contains(dup.detail(t), "body.email") {
		t.Fatalf("duplicate detail %q does not name the field", dup.detail(t))
	}
}

func TestSignupRejectsBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"malformed JSON", `{"email": "a@b.co",`, 400, "body"},
		{"missing password", map[string]string{"email": "a@b.co"}, 422, "password"},
		{"short password", map[string]string{"email": "a@b.co", "password": "short"}, 422, "body.password"},
		{"not an e-mail", map[string]string{"email": "not-an-email", "password": "long enough"}, 422, "body.email"},
		{"unknown field", map[string]any{"email": "a@b.co", "password": "long enough", "admin": true}, 422, "admin"},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", "/v1/auth/signup", "", c.body), c.status)
		if !strings.Contains(r.detail(t), c.field) {
			t.Errorf("%s: detail %q does not name %q", c.name, r.detail(t), c.field)
		}
	}
	// Nothing was created: the address is still free.
	e.signup("a@b.co")
}

func TestLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dev := e.signup("grace@example.com")
	var out struct {
		APIKey string `json:"api_key"`
	}
	e.want(e.call("POST", "/v1/auth/login", "", map[string]string{"email": "Grace@example.com", "password": "correct horse battery"}), 200).json(t, &out)
	if out.APIKey == dev || !strings.HasPrefix(out.APIKey, "osk_") {
		t.Fatalf("login key %q", out.APIKey)
	}
	var keys struct {
		Keys []struct {
			Kind string `json:"kind"`
		} `json:"keys"`
	}
	e.want(e.call("GET", "/v1/keys", out.APIKey, nil), 200).json(t, &keys)
	kinds := []string{}
	for _, k := range keys.Keys {
		kinds = append(kinds, k.Kind)
	}
	if strings.Join(kinds, ",") != "developer,dashboard" {
		t.Fatalf("key kinds = %v, want developer then dashboard", kinds)
	}
	for _, bad := range []map[string]string{
		{"email": "grace@example.com", "password": "wrong password"},
		{"email": "nobody@example.com", "password": "correct horse battery"},
	} {
		r := e.want(e.call("POST", "/v1/auth/login", "", bad), 401)
		if r.detail(t) != "invalid e-mail or password" {
			t.Fatalf("login failure detail %q", r.detail(t))
		}
	}
}

func TestAuthenticationFailures(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("alan@example.com")
	revoked := e.signup("revoked@example.com")
	var me struct {
		Keys []struct {
			KeyID int64 `json:"key_id"`
		} `json:"keys"`
	}
	e.want(e.call("GET", "/v1/keys", revoked, nil), 200).json(t, &me)
	e.want(e.call("DELETE", "/v1/keys/"+itoa(me.Keys[0].KeyID), revoked, nil), 200)

	cases := map[string]string{
		"missing":      "",
		"wrong scheme": "Basic " + key,
		"malformed":    "Bearer osk_nothex",
		"unknown":      "Bearer osk_" + strings.Repeat("0", 48),
		"revoked":      "Bearer " + revoked,
	}
	for name, header := range cases {
		var r resp
		if header == "" {
			r = e.call("GET", "/v1/me", "", nil)
		} else {
			r = e.call("GET", "/v1/me", "", nil, "Authorization", header)
		}
		e.want(r, 401)
		if r.header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate header", name)
		}
		if r.detail(t) == "" {
			t.Errorf("%s: empty detail", name)
		}
	}
	if d := e.call("GET", "/v1/me", revoked, nil).detail(t); !strings.Contains(d, "revoked") {
		t.Fatalf("revoked key detail %q", d)
	}
	e.want(e.call("GET", "/v1/me", key, nil), 200)
}

func TestMe(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("me@example.com")
	e.want(e.call("GET", "/v1/keys", key, nil), 200)
	e.want(e.call("GET", "/v1/nope", key, nil), 404)
	e.flushUsage()
	var me struct {
		User struct {
			Email string `json:"email"`
			Plan  string `json:"plan"`
			Limit int64  `json:"limit"`
		} `json:"user"`
		Usage struct {
			RequestsThisMonth int64   `json:"requests_this_month"`
			RequestsToday     int64   `json:"requests_today"`
			AvgResponseMS     float64 `json:"avg_response_ms"`
			SuccessRate       float64 `json:"success_rate"`
		} `json:"usage"`
		WebhookSecret string `json:"webhook_secret"`
	}
	e.want(e.call("GET", "/v1/me", key, nil), 200).json(t, &me)
	if me.User.Email != "me@example.com" || me.User.Plan != "free" || me.User.Limit != 5000 {
		t.Fatalf("user = %+v", me.User)
	}
	if me.Usage.RequestsThisMonth != 1 || me.Usage.RequestsToday != 1 || me.Usage.SuccessRate != 100 || me.Usage.AvgResponseMS < 0 {
		t.Fatalf("usage = %+v (one logged call: GET /v1/keys; unknown routes are not calls)", me.Usage)
	}
	if !regexp.MustCompile(`^whsec_[0-9a-f]{64}$`).MatchString(me.WebhookSecret) {
		t.Fatalf("webhook_secret %q", me.WebhookSecret)
	}

	var rotated struct {
		WebhookSecret string `json:"webhook_secret"`
	}
	e.want(e.call("POST", "/v1/me/webhook-secret/rotate", key, nil), 200).json(t, &rotated)
	e.want(e.call("GET", "/v1/me", key, nil), 200).json(t, &me)
	if rotated.WebhookSecret == "" || me.WebhookSecret != rotated.WebhookSecret {
		t.Fatalf("after rotation /v1/me shows %q, rotate returned %q", me.WebhookSecret, rotated.WebhookSecret)
	}
}

// Changing the password keeps the current session and developer keys and
// revokes the other dashboard keys (SPEC §5.6).
func TestChangePassword(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dev := e.signup("pw@example.com")
	login := func(pw string) (string, int) {
		var out struct {
			APIKey string `json:"api_key"`
		}
		r := e.call("POST", "/v1/auth/login", "", map[string]string{"email": "pw@example.com", "password": pw})
		if r.status == 200 {
			r.json(t, &out)
		}
		return out.APIKey, r.status
	}
	current, _ := login("correct horse battery")
	other, _ := login("correct horse battery")

	r := e.want(e.call("POST", "/v1/me/password", current, map[string]string{"current_password": "wrong", "new_password": "a brand new password"}), 403)
	if !strings.Contains(r.detail(t), "body.current_password") {
		t.Fatalf("detail %q", r.detail(t))
	}
	e.want(e.call("POST", "/v1/me/password", current, map[string]string{"current_password": "correct horse battery", "new_password": "short"}), 422)
	e.want(e.call("GET", "/v1/me", other, nil), 200) // nothing changed yet

	var out struct {
		RevokedSessions int `json:"revoked_sessions"`
	}
	e.want(e.call("POST", "/v1/me/password", current, map[string]string{"current_password": "correct horse battery", "new_password": "a brand new password"}), 200).json(t, &out)
	if out.RevokedSessions != 1 {
		t.Fatalf("revoked %d sessions, want 1", out.RevokedSessions)
	}
	e.want(e.call("GET", "/v1/me", current, nil), 200)
	e.want(e.call("GET", "/v1/me", dev, nil), 200)
	e.want(e.call("GET", "/v1/me", other, nil), 401)
	if _, status := login("correct horse battery"); status != 401 {
		t.Fatalf("old password still logs in: %d", status)
	}
	if _, status := login("a brand new password"); status != 200 {
		t.Fatalf("new password does not log in: %d", status)
	}
}

// Internal bypass plans quote 0 and are never charged.
func TestBypassPlanIsFree(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withPlan(billing.Plan{Bypass: true, RequestsPerMinute: 100}))
	key := e.signup("staff@example.com")
	var est struct {
		Cost int64 `json:"cost"`
	}
	e.want(e.call("POST", "/v1/me/cost-estimate", key, map[string]any{"endpoint": "/v1/aeo/page-audit"}), 200).json(t, &est)
	r := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": page(t).URL}), 200)
	if est.Cost != 0 || r.header.Get("X-Credits-Cost") != "0" || r.header.Get("X-Credits-Charged") != "0" {
		t.Fatalf("bypass plan: estimate %d, cost %q, charged %q", est.Cost, r.header.Get("X-Credits-Cost"), r.header.Get("X-Credits-Charged"))
	}
}

// Figures in /v1/me are for people: two decimals, not float noise.
func TestMeUsageRounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("rounded@example.com")
	e.want(e.call("GET", "/v1/keys", key, nil), 200)
	e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": "ftp://x"}), 422)
	e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": "ftp://y"}), 422)
	e.flushUsage()
	body := string(e.want(e.call("GET", "/v1/me", key, nil), 200).body)
	if !strings.Contains(body, `"success_rate":33.33}`) {
		t.Fatalf("success_rate not rounded to 33.33: %s", body)
	}
	avg := regexp.MustCompile(`"avg_response_ms":([0-9.]+)`).FindStringSubmatch(body)
	if avg == nil || strings.Contains(avg[1], ".") && len(avg[1])-strings.Index(avg[1], ".")-1 > 2 {
		t.Fatalf("avg_response_ms has more than two decimals: %s", body)
	}
}

// After five failed logins an e-mail is locked out with a growing delay:
// 429 with Retry-After, even for the right password, until it passes.
func TestFailedLoginsAreThrottled(t *testing.T) {
	t.Parallel()
	clk := &clock{}
	e := newEnv(t, withClock(clk))
	e.signup("throttled@example.com")
	login := func(pw string) resp {
		return e.call("POST", "/v1/auth/login", "", map[string]string{"email": "throttled@example.com", "password": pw})
	}
	for range 5 {
		e.want(login("wrong password"), 401)
	}
	e.want(login("wrong password"), 401) // the sixth failure starts a 1 s lockout
	r := e.want(login("correct horse battery"), 429)
	if r.header.Get("Retry-After") != "1" || !strings.Contains(r.detail(t), "too many failed logins") {
		t.Fatalf("retry-after %q, detail %q", r.header.Get("Retry-After"), r.detail(t))
	}
	clk.advance(time.Second)
	e.want(login("wrong password"), 401) // the seventh: 2 s
	if r := e.want(login("correct horse battery"), 429); r.header.Get("Retry-After") != "2" {
		t.Fatalf("second lockout retry-after %q", r.header.Get("Retry-After"))
	}
	clk.advance(2 * time.Second)
	e.want(login("correct horse battery"), 200)
	e.want(login("wrong password"), 401) // the count started over
	// An unknown e-mail is throttled alike: the answer tells nothing.
	for range 6 {
		e.want(e.call("POST", "/v1/auth/login", "", map[string]string{"email": "nobody@example.com", "password": "x"}), 401)
	}
	e.want(e.call("POST", "/v1/auth/login", "", map[string]string{"email": "nobody@example.com", "password": "x"}), 429)
}
