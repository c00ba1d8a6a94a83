package main

import (
	"context"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/render"
	"github.com/webinfra/webinfra/intel"
	"github.com/webinfra/webinfra/internal/connlimit"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/server/dashboard"
)

type serveConfig struct {
	addr                 string
	dataDir              string
	databaseURL          string
	allowPrivateNetworks bool
	caFile               string
	configFile           string
	browserURL           string
	proxies              string
	workers              int
	maxBatchURLs         int
	shutdownTimeout      time.Duration
	secretKeyFile        string
	allowNetworks        string
	redisURL             string
	jobTimeout           time.Duration
	jobRescueAfter       time.Duration
	publicURL            string
	legacyHost           string
	forwardersAllowHTTP  bool
	maxForwarders        int
	intel                sourceFlags
}

func parseServeFlags(args []string, stderr io.Writer) (serveConfig, error) {
	var c serveConfig
	fs := serveFlags(&c)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.workers < 1 || c.maxBatchURLs < 1 || c.maxForwarders < 1 || c.shutdownTimeout <= 0 || c.jobTimeout <= 0 {
		return c, fmt.Errorf("--workers, --max-batch-urls, --max-forwarders, --shutdown-timeout and --job-timeout must be positive")
	}
	if c.jobRescueAfter != 0 && c.jobRescueAfter <= c.jobTimeout {
		return c, fmt.Errorf("--job-rescue-after (%s) must exceed --job-timeout (%s): a job still running would be run twice", c.jobRescueAfter, c.jobTimeout)
	}
	if err := (&server.Options{PublicURL: c.publicURL}).Validate(); err != nil {
		return c, fmt.Errorf("--public-url: %w", err)
	}
	if err := (&server.Options{PublicURL: c.publicURL, LegacyHost: c.legacyHost}).Validate(); err != nil {
		return c, fmt.Errorf("--legacy-host: %w", err)
	}
	return c, nil
}

// serveFlags declares every flag of `webinfra serve` into c. Each usage
// string ends with the flag's environment variable in parentheses; the
// README's flag table is checked against this set (TestReadmeFlagTable).
func serveFlags(c *serveConfig) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", env("WEBINFRA_ADDR", "127.0.0.1:8080"), "listen address (WEBINFRA_ADDR)")
	fs.StringVar(&c.dataDir, "data-dir", env("WEBINFRA_DATA_DIR", "./webinfra-data"), "directory of the embedded SQLite database (WEBINFRA_DATA_DIR)")
	fs.StringVar(&c.databaseURL, "database-url", env("WEBINFRA_DATABASE_URL", ""), "a postgres:// URL selects PostgreSQL instead of SQLite (WEBINFRA_DATABASE_URL)")
	fs.BoolVar(&c.allowPrivateNetworks, "allow-private-networks", envBool("WEBINFRA_ALLOW_PRIVATE_NETWORKS"), "let fetches and webhooks reach loopback and private addresses (WEBINFRA_ALLOW_PRIVATE_NETWORKS=1)")
	fs.StringVar(&c.allowNetworks, "allow-networks", env("WEBINFRA_ALLOW_NETWORKS", ""), "comma-separated networks (CIDR or single addresses) fetches and webhooks may reach on any port, cloud-metadata addresses included (WEBINFRA_ALLOW_NETWORKS)")
	fs.DurationVar(&c.jobTimeout, "job-timeout", envDuration("WEBINFRA_JOB_TIMEOUT", 10*time.Minute), "longest run of one job before it is cancelled (WEBINFRA_JOB_TIMEOUT)")
	fs.DurationVar(&c.jobRescueAfter, "job-rescue-after", envDuration("WEBINFRA_JOB_RESCUE_AFTER", 0), "with --database-url: how long a job may stay running before another process takes its process for dead and runs it again; must exceed --job-timeout (WEBINFRA_JOB_RESCUE_AFTER); 0: --job-timeout plus an hour")
	fs.StringVar(&c.redisURL, "redis-url", env("WEBINFRA_REDIS_URL", ""), "a redis:// URL shares the rate-limit buckets of every process through Redis (WEBINFRA_REDIS_URL); empty: in-process buckets")
	fs.StringVar(&c.caFile, "ca-file", env("WEBINFRA_CA_FILE", ""), "PEM file of extra root certificates for outbound TLS (WEBINFRA_CA_FILE)")
	fs.StringVar(&c.configFile, "config", env("WEBINFRA_CONFIG", ""), "JSON file of plans and limits (WEBINFRA_CONFIG)")
	fs.StringVar(&c.browserURL, "browser-url", env("WEBINFRA_BROWSER_URL", ""), "Chrome DevTools endpoint of a remote browser for the render tier (WEBINFRA_BROWSER_URL); empty: local Chromium when installed")
	fs.StringVar(&c.proxies, "proxies", env("WEBINFRA_PROXIES", ""), "comma-separated proxy URLs of the residential tier (WEBINFRA_PROXIES); empty: that tier is unavailable")
	fs.IntVar(&c.workers, "workers", envInt("WEBINFRA_WORKERS", 16), "jobs run at once (WEBINFRA_WORKERS)")
	fs.IntVar(&c.maxBatchURLs, "max-batch-urls", envInt("WEBINFRA_MAX_BATCH_URLS", 100), "URLs per batch request (WEBINFRA_MAX_BATCH_URLS)")
	fs.DurationVar(&c.shutdownTimeout, "shutdown-timeout", envDuration("WEBINFRA_SHUTDOWN_TIMEOUT", 30*time.Second), "how long SIGTERM waits for requests and running jobs (WEBINFRA_SHUTDOWN_TIMEOUT)")
	fs.StringVar(&c.publicURL, "public-url", env("WEBINFRA_PUBLIC_URL", ""), "the base URL clients reach this server at, e.g. https://api.example.com: the OpenAPI document's server (WEBINFRA_PUBLIC_URL); empty: the relative server /")
	fs.BoolVar(&c.forwardersAllowHTTP, "forwarders-allow-http", envBool("WEBINFRA_FORWARDERS_ALLOW_HTTP"), "let telemetry forwarders send to plain-HTTP endpoints, e.g. a collector on your own network (WEBINFRA_FORWARDERS_ALLOW_HTTP=1); off: HTTPS only")
	fs.IntVar(&c.maxForwarders, "max-forwarders", envInt("WEBINFRA_MAX_FORWARDERS", 10), "telemetry forwarders per account (WEBINFRA_MAX_FORWARDERS)")
	fs.StringVar(&c.legacyHost, "legacy-host", env("WEBINFRA_LEGACY_HOST", ""), "a second host name that serves the same API during a rename; its answers carry Deprecation and, with --public-url, a Link to the same path there (WEBINFRA_LEGACY_HOST)")
	c.intel.define(fs)
	fs.StringVar(&c.secretKeyFile, "secret-key-file", env("WEBINFRA_SECRET_KEY_FILE", ""), "file of the 32-byte key that encrypts secrets at rest, 64 hex characters, mode 0600 (WEBINFRA_SECRET_KEY_FILE); empty: <data-dir>/secret.key, created on first start")
	return fs
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseServeFlags(args, stderr)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	billingCfg := billing.DefaultConfig()
	if c.configFile != "" {
		if billingCfg, err = billing.LoadConfig(c.configFile); err != nil {
			return fmt.Errorf("--config %s: %w", c.configFile, err)
		}
	}
	fopts := &fetch.Options{AllowPrivateNetworks: c.allowPrivateNetworks}
	if fopts.AllowNetworks, err = parseNetworks(c.allowNetworks); err != nil {
		return fmt.Errorf("--allow-networks: %w", err)
	}
	// Redis and the database first: a bad URL or an unreachable server
	// stops here, before a browser starts.
	redisShared, err := openShared(ctx, c, log)
	if err != nil {
		return err
	}
	defer redisShared.close()
	fopts.Cache = redisShared.cache
	back, err := openBackend(ctx, c)
	if err != nil {
		return err
	}
	st, secrets := back.store, back.secrets
	defer st.Close()
	if c.caFile != "" {
		if fopts.RootCAs, err = loadCAs(c.caFile); err != nil {
			return err
		}
	}
	if c.proxies != "" {
		fopts.Proxies = strings.Split(c.proxies, ",")
	}
	renderer, err := startRenderer(c.browserURL, log)
	if err != nil {
		return err
	}
	if renderer != nil {
		defer renderer.Close()
		fopts.Renderer = renderer
	}
	fetcher, err := fetch.New(fopts)
	if err != nil {
		return err
	}
	sources, err := intel.New(fetcher, c.intel.config())
	if err != nil {
		return err
	}
	defer sources.Close()
	ocr, err := c.intel.ocr(fetcher)
	if err != nil {
		return err
	}
	solvers, err := c.intel.captcha(fetcher, ocr)
	if err != nil {
		return err
	}
	queue, err := back.openQueue(ctx, &jobs.Options{
		Runners: server.JobRunners(fetcher, secrets), Workers: c.workers, WebhookClient: fetcher.Client(),
		JobTimeout: c.jobTimeout, RescueAfter: c.jobRescueAfter,
		CheckWebhookTarget: fetcher.CheckTarget, Logger: log,
	})
	if err != nil {
		return err
	}
	srv, err := server.New(st, fetcher, &server.Options{Billing: billingCfg, Logger: log, Queue: queue, Limiter: redisShared.limiter,
		MaxBatchURLs: c.maxBatchURLs, Secrets: secrets, PublicURL: c.publicURL, LegacyHost: c.legacyHost, Intel: sources, OCR: ocr, Captcha: solvers,
		AllowHTTPForwarders: c.forwardersAllowHTTP, MaxForwarders: c.maxForwarders})
	if err != nil {
		queue.Stop(ctx)
		return err
	}
	dashboard.Mount(srv, &dashboard.Options{Logger: log})
	// Listen before the queue starts, so a busy address fails with no
	// worker running.
	abandon := func() {
		queue.Stop(ctx)
		srv.Close(context.WithoutCancel(ctx))
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		abandon()
		return err
	}
	if err := queue.Start(ctx); err != nil {
		ln.Close()
		abandon()
		return err
	}
	httpSrv := newHTTPServer(srv, billingCfg.Limits.OrDefaults())
	ln = connlimit.New(ln, billingCfg.Limits.OrDefaults().MaxConnectionsPerIP, nil)
	fmt.Fprintf(stdout, "webinfra listening on http://%s (data: %s)\n", ln.Addr(), c.dataDir)

	errc := make(chan error, 1)
	go func() { errc <- httpSrv.Serve(ln) }()
	select {
	case err = <-errc: // the listener failed: still stop the queue and flush
	case <-ctx.Done():
	}
	// SIGTERM: stop taking requests, let running ones and running jobs
	// finish until the deadline (unfinished jobs resume at the next start),
	// then flush the usage log.
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.shutdownTimeout)
	defer cancel()
	if serr := httpSrv.Shutdown(shutdown); err == nil {
		err = serr
	}
	if qerr := queue.Stop(shutdown); qerr != nil {
		log.Error("stop job queue", "err", qerr)
	}
	if cerr := srv.Close(context.WithoutCancel(ctx)); cerr != nil {
		log.Error("flush usage log", "err", cerr)
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// newHTTPServer bounds what a slow client can hold: the headers within
// 10 s, headers and body within Limits.BodyRead (the pipeline lifts that
// deadline once the body is in, so handlers run for their own timeout),
// and an idle keep-alive connection for 2 minutes. The per-address
// connection cap is the listener's (connlimit).
func newHTTPServer(h http.Handler, limits billing.Limits) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: min(10*time.Second, limits.BodyRead()),
		ReadTimeout: limits.BodyRead(), IdleTimeout: 2 * time.Minute}
}

// startRenderer gives the render tier a browser: the remote one named, or
// local Chromium when it is installed; nil (the tier unavailable) when
// there is none.
func startRenderer(browserURL string, log *slog.Logger) (*render.Pool, error) {
	if browserURL == "" {
		if _, err := render.FindBrowser(""); err != nil {
			log.Info("render tier unavailable: no local Chromium (install Debian's chromium or set --browser-url)")
			return nil, nil
		}
	}
	pool, err := render.New(&render.Options{BrowserURL: browserURL})
	if err != nil {
		return nil, fmt.Errorf("--browser-url: %w", err)
	}
	return pool, nil
}

// parseNetworks reads a comma-separated list of CIDR prefixes; a bare
// address is its own /32 or /128.
func parseNetworks(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if addr, err := netip.ParseAddr(item); err == nil {
			out = append(out, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR network (10.1.0.0/16) nor an address", item)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func loadCAs(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--ca-file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca-file %s: no PEM certificates found", path)
	}
	return pool, nil
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

func envBool(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}
