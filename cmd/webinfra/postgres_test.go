package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/pgtest"
	"github.com/webinfra/webinfra/internal/redistest"
)

// writeKeyFile writes a secret-key file (64 hex characters, mode 0600).
func writeKeyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "secret.key")
	if err := os.WriteFile(path, []byte(strings.Repeat("ab", 32)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A bad or unreachable database fails at start with one line naming the
// flag, and leaves nothing behind: no data directory, no browser.
func TestServeRefusesABadDatabase(t *testing.T) {
	t.Parallel()
	key := writeKeyFile(t)
	for name, url := range map[string]string{
		"unreachable": "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=2",
		"malformed":   "postgres://%zz",
	} {
		dir := filepath.Join(t.TempDir(), "data")
		var stderr strings.Builder
		err := run(context.Background(), []string{"serve", "--data-dir", dir, "--database-url", url, "--secret-key-file", key}, io.Discard, &stderr)
		if err == nil || !strings.HasPrefix(err.Error(), "--database-url: ") || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s: %v", name, err)
		}
		if _, statErr := os.Stat(dir); !os.IsNotExist(statErr) {
			t.Errorf("%s: the data directory was created", name)
		}
	}
}

// The README walk-through on PostgreSQL: sign up and make a charged call.
func TestServeOnPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	base, stop := serveInProcess(t, "--database-url", url, "--secret-key-file", writeKeyFile(t))
	p := &process{base: base}
	key := p.signup(t, "pg@example.com")
	status, body := p.post(t, "/v1/keys", key, `{"label":"ci"}`)
	if status != 200 || !strings.Contains(string(body), `"api_key"`) {
		t.Fatalf("POST /v1/keys on PostgreSQL: %d %s", status, body)
	}
	var me struct {
		Credits int64 `json:"credits"`
	}
	p.get(t, "/v1/me", key, &me)
	if me.Credits != 1000 {
		t.Fatalf("credits %d", me.Credits)
	}
	stop()
}

// A bad or unreachable Redis fails at start with one line naming the flag.
func TestServeRefusesABadRedis(t *testing.T) {
	t.Parallel()
	for name, url := range map[string]string{"unreachable": "redis://127.0.0.1:1/0?dial_timeout=1s", "malformed": "http://x"} {
		err := run(context.Background(), []string{"serve", "--data-dir", filepath.Join(t.TempDir(), "d"), "--redis-url", url}, io.Discard, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), "--redis-url: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// With Redis, /healthz reports the shared limiter as working.
func TestServeWithRedisHealth(t *testing.T) {
	t.Parallel()
	base, _ := serveInProcess(t, "--redis-url", redistest.URL(t))
	res, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var h struct {
		Status      string `json:"status"`
		RateLimiter string `json:"rate_limiter"`
	}
	json.NewDecoder(res.Body).Decode(&h)
	if h.Status != "ok" || h.RateLimiter != "ok" || res.Header.Get("X-Ratelimit-Limit") == "" {
		t.Fatalf("healthz %+v, headers %v", h, res.Header)
	}
}
