package server_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
	"github.com/webinfra/webinfra/intel"
	"github.com/webinfra/webinfra/internal/password"
	"github.com/webinfra/webinfra/internal/pgtest"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/server/dashboard"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/postgres"
	"github.com/webinfra/webinfra/store/secretbox"
	"github.com/webinfra/webinfra/store/sqlite"
)

// env is one server on a fresh SQLite file behind a real httptest server.
type env struct {
	t      testing.TB
	srv    *server.Server
	ts     *httptest.Server
	st     store.Store
	client *http.Client
	q      *jobs.Queue // nil without withQueue
}

// envConfig is what envOptions adjust before the server is built.
type envConfig struct {
	server   *server.Options
	fetch    *fetch.Options
	queue    *jobs.Options // nil: no job queue
	postgres bool          // the store and queue on PostgreSQL (onDriver)
	intel    *intel.Config // the intelligence sources (withIntel); nil: defaults
	mount    []func(*server.Server)
}

// withDashboard mounts the dashboard (server/dashboard) on the server.
func withDashboard() envOption {
	return func(c *envConfig) {
		c.mount = append(c.mount, func(s *server.Server) { dashboard.Mount(s, nil) })
	}
}

// withIntel points the intelligence endpoints at the sources cfg names
// (loopback peers).
func withIntel(cfg intel.Config) envOption {
	return func(c *envConfig) { c.intel = &cfg }
}

// drivers are the store drivers the tests of shared state run on.
var drivers = []string{"sqlite", "postgres"}

// onDriver puts the store and the job queue on the named driver:
// "postgres" needs WEBINFRA_TEST_POSTGRES_URL (the test skips without it).
func onDriver(name string) envOption {
	return func(c *envConfig) { c.postgres = name == "postgres" }
}

// forEachDriver runs test once per store driver, as subtests.
func forEachDriver(t *testing.T, test func(t *testing.T, driver envOption)) {
	for _, d := range drivers {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			test(t, onDriver(d))
		})
	}
}

type envOption func(*envConfig)

// withPlan replaces the default (free) plan.
func withPlan(p billing.Plan) envOption {
	return func(c *envConfig) {
		p.Name = c.server.Billing.DefaultPlan
		c.server.Billing.Plans[p.Name] = p
	}
}

func withMaxBody(n int64) envOption {
	return func(c *envConfig) { c.server.MaxBodyBytes = n }
}

// withRealBrowser gives the server's fetcher a render tier on a real
// headless Chromium, or skips the test when none is installed (fails it
// under CI=true).
func withRealBrowser(t *testing.T) envOption {
	t.Helper()
	if _, err := render.FindBrowser(""); err != nil {
		testenv.Missing(t, "no Chromium installed (apt-get install chromium); .ci/run installs it")
	}
	pool, err := render.New(&render.Options{Contexts: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	return func(c *envConfig) { c.fetch.Renderer = pool }
}

// frozenClock stops time, so token buckets never refill during a test.
func frozenClock() envOption {
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	return func(c *envConfig) { c.server.Now = func() time.Time { return at } }
}

// clock is a settable time source for tests of TTLs and windows.
type clock struct{ at atomic.Int64 }

func (c *clock) now() time.Time          { return time.Unix(0, c.at.Load()).UTC() }
func (c *clock) advance(d time.Duration) { c.at.Add(int64(d)) }
func withClock(c *clock) envOption {
	c.at.Store(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC).UnixNano())
	return func(cfg *envConfig) { cfg.server.Now = c.now }
}

// withQueue runs a job queue (River on its own SQLite file) whose
// webhooks trust roots (a TLS receiver's certificate) and whose retries wait
// no real time: sleeps return at once and failed attempts are retried
// immediately. The default plan's rate limit is raised: job tests poll.
func withQueue(roots ...*x509.Certificate) envOption {
	return func(c *envConfig) {
		withPlan(billing.Plan{Credits: 1000, RequestsPerMinute: 100000})(c)
		pool := x509.NewCertPool()
		for _, r := range roots {
			pool.AddCert(r)
		}
		c.fetch.RootCAs = pool
		c.queue = &jobs.Options{
			PollInterval: 20 * time.Millisecond,
			Sleep:        func(context.Context, time.Duration) error { return nil },
			RetryDelay:   func(int) time.Duration { return 0 },
		}
	}
}

// strictFetch keeps the SSRF guard on.
func strictFetch() envOption {
	return func(c *envConfig) { c.fetch.AllowPrivateNetworks = false }
}

func newEnv(t testing.TB, opts ...envOption) *env {
	t.Helper()
	ctx := context.Background()
	cfg := &envConfig{
		server: &server.Options{
			Billing:    billing.DefaultConfig(),
			Password:   password.Params{MemoryKiB: 64, Time: 1, Threads: 1}, // fast hashing in tests
			UsageFlush: time.Hour,                                           // tests flush explicitly
		},
		fetch: &fetch.Options{AllowPrivateNetworks: true},
	}
	for _, o := range opts {
		o(cfg)
	}
	st, openQueue := openTestStore(t, cfg.postgres)
	f, err := fetch.New(cfg.fetch)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.intel != nil {
		sources, err := intel.New(f, cfg.intel)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sources.Close() })
		cfg.server.Intel = sources
	}
	var q *jobs.Queue
	if cfg.queue != nil {
		qo := *cfg.queue
		if cfg.server.Secrets == nil {
			cfg.server.Secrets = secretbox.Ephemeral()
		}
		qo.Runners, qo.WebhookClient, qo.CheckWebhookTarget = server.JobRunners(f, cfg.server.Secrets), f.Client(), f.CheckTarget
		qo.Logger = slog.New(slog.DiscardHandler)
		if q, err = openQueue(&qo); err != nil {
			t.Fatal(err)
		}
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		cfg.server.Queue = q
	}
	srv, err := server.New(st, f, cfg.server)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range cfg.mount {
		m(srv)
	}
	ts := httptest.NewServer(srv)
	tr := ts.Client().Transport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 128
	e := &env{t: t, srv: srv, ts: ts, st: st, client: &http.Client{Transport: tr}, q: q}
	t.Cleanup(func() {
		ts.Close()
		if q != nil {
			q.Stop(ctx)
		}
		srv.Close(ctx)
		st.Close()
	})
	return e
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("response body %q: %v", r.body, err)
	}
}

func (r resp) detail(t *testing.T) string {
	t.Helper()
	var p struct {
		Detail string `json:"detail"`
	}
	r.json(t, &p)
	return p.Detail
}

// call sends a request; body may be nil, a string (sent raw) or a value
// (sent as JSON). headers come in name, value pairs.
func (e *env) call(method, path, key string, body any, headers ...string) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp{status: res.StatusCode, header: res.Header, body: data}
}

func (e *env) want(r resp, status int) resp {
	e.t.Helper()
	if r.status != status {
		e.t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	return r
}

// signup creates an account and returns its developer key.
func (e *env) signup(email string) string {
	e.t.Helper()
	var out struct {
		APIKey string `json:"api_key"`
	}
	e.want(e.call("POST", "/v1/auth/signup", "", map[string]string{"email": email, "password": "correct horse battery"}), 200).json(e.t, &out)
	return out.APIKey
}

func (e *env) balance(key string) int64 {
	e.t.Helper()
	var out struct {
		Balance int64 `json:"balance"`
	}
	e.want(e.call("GET", "/v1/me/credits", key, nil), 200).json(e.t, &out)
	return out.Balance
}

func (e *env) flushUsage() {
	e.t.Helper()
	if err := e.srv.FlushUsage(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// page serves a small HTML page on loopback, the target of scrape calls.
func page(t testing.TB) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><head><title>Hello</title></head><body><h1>Hello</h1><p>A <a href="/next">link</a>.</p></body></html>`)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// refusedURL is a loopback URL where nothing listens.
func refusedURL(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(http.NotFoundHandler())
	u := ts.URL
	ts.Close()
	return u
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func newHTTPServer(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// openTestStore opens a fresh store, SQLite or PostgreSQL, and the way to
// open a job queue on it.
func openTestStore(t testing.TB, postgresDriver bool) (store.Store, func(*jobs.Options) (*jobs.Queue, error)) {
	t.Helper()
	ctx := context.Background()
	if postgresDriver {
		st, err := postgres.Open(ctx, pgtest.URL(t))
		if err != nil {
			t.Fatal(err)
		}
		return st, func(o *jobs.Options) (*jobs.Queue, error) { return jobs.OpenPostgres(ctx, st.Pool(), st, o) }
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	return st, func(o *jobs.Options) (*jobs.Queue, error) {
		return jobs.OpenSQLite(ctx, filepath.Join(t.TempDir(), "queue.db"), st, o)
	}
}

// trusting makes the server's fetcher (and so its webhook and telemetry
// clients) trust certs: loopback TLS receivers.
func trusting(certs ...*x509.Certificate) envOption {
	return func(c *envConfig) {
		pool := x509.NewCertPool()
		for _, cert := range certs {
			pool.AddCert(cert)
		}
		c.fetch.RootCAs = pool
	}
}

// withServer adjusts the server's options.
func withServer(f func(*server.Options)) envOption {
	return func(c *envConfig) { f(c.server) }
}
