package server_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

type keyView struct {
	Key struct {
		KeyID      int64      `json:"key_id"`
		Scope      string     `json:"scope"`
		LastUsedAt *time.Time `json:"last_used_at"`
	} `json:"key"`
	APIKey string `json:"api_key"`
}

// A key of scope api calls capabilities and reads the account, but cannot
// manage keys, secrets or the password: 403 naming the scope.
func TestKeyScopes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	full := e.signup("scopes@example.com")
	var api, other keyView
	e.want(e.call("POST", "/v1/keys", full, map[string]any{"label": "ci"}), 200).json(t, &api)
	e.want(e.call("POST", "/v1/keys", full, map[string]any{"label": "other"}), 200).json(t, &other)
	if api.Key.Scope != "api" {
		t.Fatalf("a minted key's default scope is %q, want api", api.Key.Scope)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/me"}, {"GET", "/v1/keys"}, {"GET", "/v1/me/usage"}, {"GET", "/v1/me/credits"}, {"GET", "/v1/me/jobs"},
	} {
		e.want(e.call(c.method, c.path, api.APIKey, nil), 200)
	}
	e.want(e.call("POST", "/v1/scrape", api.APIKey, map[string]any{"url": page(t).URL}), 200)
	refused := []struct {
		method, path string
		body         any
	}{
		{"PATCH", "/v1/keys/" + itoa(api.Key.KeyID), map[string]any{"daily_cap_credits": 0}},
		{"POST", "/v1/keys", map[string]any{"label": "mine"}},
		{"POST", "/v1/keys", map[string]any{"scope": "full"}},
		{"DELETE", "/v1/keys/" + itoa(other.Key.KeyID), nil},
		{"POST", "/v1/keys/" + itoa(other.Key.KeyID) + "/rotate", nil},
		{"POST", "/v1/me/webhook-secret/rotate", nil},
		{"POST", "/v1/me/password", map[string]any{"current_password": "correct horse battery", "new_password": "another long one"}},
		{"POST", "/v1/orgs", map[string]any{"name": "mine"}},
	}
	for _, r := range refused {
		got := e.want(e.call(r.method, r.path, api.APIKey, r.body), 403)
		if d := got.detail(t); !strings.Contains(d, "needs a key with scope full; this key has scope api") {
			t.Errorf("%s %s: %q", r.method, r.path, d)
		}
	}
	// A full key mints a full key; rotation keeps the scope.
	var minted, rotated keyView
	e.want(e.call("POST", "/v1/keys", full, map[string]any{"scope": "full"}), 200).json(t, &minted)
	e.want(e.call("POST", "/v1/keys/"+itoa(minted.Key.KeyID)+"/rotate", full, nil), 200).json(t, &rotated)
	if minted.Key.Scope != "full" || rotated.Key.Scope != "full" {
		t.Fatalf("minted %q, rotated %q", minted.Key.Scope, rotated.Key.Scope)
	}
	e.want(e.call("PATCH", "/v1/keys/"+itoa(api.Key.KeyID), rotated.APIKey, map[string]any{"daily_cap_credits": 5}), 200)
	e.want(e.call("POST", "/v1/keys", full, map[string]any{"scope": "admin"}), 422)
}

// The OpenAPI document says which scope each operation needs.
func TestOpenAPIRequiredScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	doc := e.srv.OpenAPI()
	for _, c := range []struct{ path, method, scope string }{
		{"/v1/scrape", "POST", "api"}, {"/v1/me", "GET", "api"}, {"/v1/keys", "GET", "api"},
		{"/v1/keys", "POST", "full"}, {"/v1/me/webhook-secret/rotate", "POST", "full"},
	} {
		op := doc.Paths[c.path].Get
		if c.method == "POST" {
			op = doc.Paths[c.path].Post
		}
		if got := op.Extensions["x-required-scope"]; fmt.Sprint(got) != c.scope {
			t.Errorf("%s %s: x-required-scope %v, want %s", c.method, c.path, got, c.scope)
		}
	}
}

// Dashboard keys (browser sessions) stop working after 30 days without
// use; a key's use is recorded at most once a minute.
func TestDashboardKeysExpireWhenIdle(t *testing.T) {
	t.Parallel()
	clk := &clock{}
	e := newEnv(t, withClock(clk))
	e.signup("idle@example.com")
	var login struct {
		APIKey string `json:"api_key"`
	}
	e.want(e.call("POST", "/v1/auth/login", "", map[string]string{"email": "idle@example.com", "password": "correct horse battery"}), 200).json(t, &login)
	lastUsed := func() time.Time {
		var list struct {
			Keys []struct {
				Kind       string     `json:"kind"`
				LastUsedAt *time.Time `json:"last_used_at"`
			} `json:"keys"`
		}
		e.want(e.call("GET", "/v1/keys", login.APIKey, nil), 200).json(t, &list)
		for _, k := range list.Keys {
			if k.Kind == "dashboard" && k.LastUsedAt != nil {
				return *k.LastUsedAt
			}
		}
		return time.Time{}
	}
	first := lastUsed()
	if !first.Equal(clk.now()) {
		t.Fatalf("last used %s, want %s", first, clk.now())
	}
	clk.advance(30 * time.Second)
	if got := lastUsed(); !got.Equal(first) {
		t.Fatalf("a use 30 s later was written: %s", got)
	}
	clk.advance(20 * 24 * time.Hour)
	e.want(e.call("GET", "/v1/me", login.APIKey, nil), 200) // used on day 20: the clock restarts
	clk.advance(20 * 24 * time.Hour)
	e.want(e.call("GET", "/v1/me", login.APIKey, nil), 200)
	clk.advance(31 * 24 * time.Hour)
	r := e.want(e.call("GET", "/v1/me", login.APIKey, nil), 401)
	if d := r.detail(t); !strings.Contains(d, "expired after 30 days without use") {
		t.Fatalf("detail %q", d)
	}
}
