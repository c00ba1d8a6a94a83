package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/password"
	"github.com/webinfra/webinfra/internal/pgtest"
	"github.com/webinfra/webinfra/internal/redistest"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/postgres"
	"github.com/webinfra/webinfra/store/sqlite"
)

// internalServer runs the reference server on a fresh SQLite file with
// extra operations (which only in-package tests can declare), signs up one
// account and returns the base URL and its key.
func internalServer(tb testing.TB, cfg billing.Config, extra ...Operation) (url, key string) {
	return internalServerOn(tb, "sqlite", cfg, extra...)
}

// internalServerOn is internalServer on a backend: "sqlite" (the embedded
// default) or "postgres+redis" (the scale-out one: the store on
// PostgreSQL, the rate limiter on Redis; skipped without them).
func internalServerOn(tb testing.TB, backend string, cfg billing.Config, extra ...Operation) (url, key string) {
	tb.Helper()
	ctx := context.Background()
	var st store.Store
	var limiter billing.RateLimiter
	var err error
	if backend == "postgres+redis" {
		client, prefix := redistest.Client(tb)
		limiter = billing.NewRedisLimiter(client, prefix, nil)
		st, err = postgres.Open(ctx, pgtest.URL(tb))
	} else {
		st, err = sqlite.Open(ctx, filepath.Join(tb.TempDir(), "webinfra.db"))
	}
	if err != nil {
		tb.Fatal(err)
	}
	return startInternal(tb, st, nil, &Options{Billing: cfg, Limiter: limiter}, extra...)
}

// startInternal serves st through f (nil: the default fetcher) with o,
// fast password hashing and no log, signs up one account and returns the
// base URL and its key.
func startInternal(tb testing.TB, st store.Store, f *fetch.Fetcher, o *Options, extra ...Operation) (url, key string) {
	tb.Helper()
	ctx := context.Background()
	o.Password, o.Logger = password.Params{MemoryKiB: 64, Time: 1, Threads: 1}, slog.New(slog.DiscardHandler)
	srv, err := newServer(st, f, o, extra...)
	if err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	tb.Cleanup(func() { ts.Close(); srv.Close(ctx); st.Close() })
	res, err := http.Post(ts.URL+"/v1/auth/signup", "application/json", bytes.NewBufferString(`{"email":"internal@example.com","password":"a long password"}`))
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	var out SignupResponse
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || out.APIKey == "" {
		tb.Fatalf("sign-up failed: status %d, %v", res.StatusCode, err)
	}
	return ts.URL, out.APIKey
}

func TestCSVTextEscapesEveryTrigger(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@a": "'@a", "\ta": "'\ta", "\ra": "'\ra",
		"": "", "https://example.com/a=b": "https://example.com/a=b", "/v1/scrape": "/v1/scrape", "direct": "direct",
	} {
		if got := csvText(in); got != want {
			t.Errorf("csvText(%q) = %q, want %q", in, got, want)
		}
	}
}
