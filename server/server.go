package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/convert"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel"
	"github.com/webinfra/webinfra/internal/password"
	"github.com/webinfra/webinfra/internal/usagelog"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/server/docsui"
	"github.com/webinfra/webinfra/server/telemetry"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/secretbox"
)

// Options configure a Server; nil means defaults.
type Options struct {
	Billing        billing.Config      // plans and prices; zero value: billing.DefaultConfig()
	Limiter        billing.RateLimiter // nil: the in-process token bucket
	MaxBodyBytes   int64               // request body limit; default 1 MiB
	MaxPageBytes   int64               // body limit of calls that carry a page's HTML (extraction); default 10 MiB
	IdempotencyTTL time.Duration       // default 24h
	HoldTTL        time.Duration       // how long an unsettled credit hold counts; default 10m
	UsageFlush     time.Duration       // usage log batching interval; default 1s
	Password       password.Params     // zero: password.Default
	Queue          *jobs.Queue         // the job queue of the asynchronous endpoints; nil: they answer 503
	MaxBatchURLs   int                 // URLs per batch; default 100
	Secrets        *secretbox.Box      // seals secrets kept at rest (idempotent answers, job headers); nil: a key for this process only
	Intel          *intel.Client       // the intelligence endpoints' sources; nil: intel.New's defaults (no GeoIP)
	OCR            *convert.OCR        // the OCR engine; nil: convert.New's defaults (tesseract on PATH)
	Captcha        *captcha.Client     // the captcha solvers; nil: none but the local OCR solver
	Subscriptions  Subscriptions       // told when an account is deleted; nil: NoSubscriptions

	// MaxForwarders bounds an account's telemetry forwarders; default 10.
	MaxForwarders int
	// AllowHTTPForwarders lets forwarders send to plain-HTTP endpoints
	// (a collector on the operator's own network); default HTTPS only.
	AllowHTTPForwarders bool
	// Telemetry tunes span forwarding (batching, refresh across
	// processes); its HTTPClient and Logger default to the fetcher's
	// guarded client and Logger.
	Telemetry telemetry.Options
	Now       func() time.Time // default time.Now
	Logger    *slog.Logger

	// PublicURL is the base URL clients reach the server at ({base_url} of
	// SPEC), e.g. https://api.example.com: the OpenAPI document's server.
	// Empty: the relative server "/".
	PublicURL string
	// LegacyHost is a second host name that serves the same API during a
	// rename ({legacy_base_url} of SPEC): its answers also carry
	// Deprecation and, with PublicURL, a Link to the same path there
	// (versioning.go). Empty: none. Other Host values are served as ever.
	LegacyHost string
}

// Validate reports the first option New would refuse, so a caller can
// check its configuration before it opens anything.
func (o *Options) Validate() error {
	_, err := o.withDefaults()
	return err
}

func (o *Options) withDefaults() (Options, error) {
	var out Options
	if o != nil {
		out = *o
	}
	if err := out.checkHosts(); err != nil {
		return out, err
	}
	if out.Billing.Plans == nil {
		out.Billing = billing.DefaultConfig()
	}
	out.Billing.Limits = out.Billing.Limits.OrDefaults()
	if err := out.Billing.Validate(); err != nil {
		return out, fmt.Errorf("server: billing config: %w", err)
	}
	if out.Now == nil {
		out.Now = time.Now
	}
	if out.Limiter == nil {
		out.Limiter = billing.NewLocalLimiter(out.Now)
	}
	if out.MaxBodyBytes <= 0 {
		out.MaxBodyBytes = 1 << 20
	}
	if out.MaxPageBytes <= 0 {
		out.MaxPageBytes = 10 << 20
	}
	if out.IdempotencyTTL <= 0 {
		out.IdempotencyTTL = 24 * time.Hour
	}
	if out.HoldTTL <= 0 {
		out.HoldTTL = 10 * time.Minute
	}
	if out.MaxBatchURLs <= 0 {
		out.MaxBatchURLs = 100
	}
	if out.Password == (password.Params{}) {
		out.Password = password.Default
	}
	if out.Logger == nil {
		out.Logger = slog.Default()
	}
	if out.Secrets == nil {
		out.Secrets = secretbox.Ephemeral()
	}
	if out.Subscriptions == nil {
		out.Subscriptions = NoSubscriptions{}
	}
	if out.MaxForwarders <= 0 {
		out.MaxForwarders = 10
	}
	if out.Telemetry.Logger == nil {
		out.Telemetry.Logger = out.Logger
	}
	return out, nil
}

// Server is the reference /v1 HTTP server. It is an http.Handler.
type Server struct {
	opts    Options
	store   store.Store
	fetcher *fetch.Fetcher
	intel   *intel.Client // the intelligence endpoints' sources (intel.go)
	ocr     *convert.OCR  // POST /v1/convert/ocr
	captcha *captcha.Client
	usage   *usagelog.Writer
	// forwarding exports a span per call to the accounts' forwarders.
	forwarding *telemetry.Forwarding
	hashes     *hashGate   // bounds concurrent password hashing
	pages      *pageGate   // bounds the bytes of pages worked on at once
	logins     *loginGuard // throttles failed logins per e-mail
	now        func() time.Time
	started    time.Time // when New ran: the Deprecation date of the legacy host
	log        *slog.Logger

	mux    *http.ServeMux
	api    huma.API
	ops    []Operation
	routes map[string]*Operation // "METHOD /path" → operation
	tools  []*mcpTool            // the catalog's MCP tools (mcp_tools.go)
	mounts []mounted             // handlers served beside the API (mount.go)

	closeOnce sync.Once
	closeErr  error
}

// New builds a server over a store and a fetcher.
func New(st store.Store, f *fetch.Fetcher, opts *Options) (*Server, error) {
	return newServer(st, f, opts)
}

func newServer(st store.Store, f *fetch.Fetcher, opts *Options, extra ...Operation) (*Server, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Server{opts: o, store: st, fetcher: f, intel: o.Intel, ocr: o.OCR, captcha: o.Captcha, now: o.Now, started: o.Now(), log: o.Logger, mux: http.NewServeMux(),
		routes: map[string]*Operation{}}
	if s.intel == nil {
		if s.intel, err = intel.New(f, nil); err != nil {
			return nil, err
		}
	}
	if s.ocr == nil {
		if s.ocr, err = convert.New(f, nil); err != nil {
			return nil, err
		}
	}
	if s.captcha == nil {
		if s.captcha, err = captcha.New(f, &captcha.Options{OCR: captcha.ConvertOCR(s.ocr)}); err != nil {
			return nil, err
		}
	}
	s.usage = usagelog.New(st, o.UsageFlush, 0, o.Logger)
	tel := o.Telemetry
	if tel.HTTPClient == nil && f != nil {
		tel.HTTPClient = f.Client()
	}
	s.forwarding = telemetry.New(s.loadDestinations, &tel)
	lim := o.Billing.Limits
	s.hashes = newHashGate(lim.PasswordHashConcurrency, lim.PasswordHashWait())
	s.pages = newPageGate(lim.PageBytesInFlight, lim.PageWait())
	s.logins = newLoginGuard(lim.LoginFreeFailures, lim.LoginMaxLockout(), o.Now)

	cfg := huma.DefaultConfig("Webinfra API", "1.0.0")
	cfg.CreateHooks = nil // no $schema links: response bodies stay exactly the documented shape
	cfg.DocsPath = ""     // huma's page loads its viewer from a CDN; ours is embedded (docsui)
	cfg.Components.Schemas = huma.NewMapRegistry("#/components/schemas/", schemaName)
	cfg.Info.Description = "Web infrastructure for AI agents: fetch, scrape, extract, audit. " +
		"Authenticate with `Authorization: Bearer osk_...`; every successful call of a priced operation costs credits (x-credits-cost in each operation)."
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"bearer": {Type: "http", Scheme: "bearer", Description: "An API key, osk_ followed by 48 hex characters."},
	}
	cfg.Servers = o.servers()
	s.api = humago.New(s.mux, cfg)
	s.mux.HandleFunc("GET /{$}", s.home)
	docsui.Register(s.mux, cfg.Info.Title, "/openapi.json")

	s.ops = append(s.operations(), extra...)
	problem := problemSchema(s.api.OpenAPI().Components.Schemas)
	for i := range s.ops {
		op := &s.ops[i]
		if err := op.checkVersioning(); err != nil {
			s.usage.Close(context.Background()) // stops its flush loop
			s.forwarding.Close(context.Background())
			return nil, err
		}
		op.register(s.api, op.humaOperation(s.bodyLimit(op), problem))
		s.routes[op.Method+" "+op.Path] = op
	}
	if s.tools, err = buildTools(s.ops, s.api.OpenAPI()); err != nil {
		return nil, err
	}
	return s, nil
}

// Operations returns the catalog.
func (s *Server) Operations() []Operation { return s.ops }

// OpenAPI returns the generated OpenAPI 3.1 document.
func (s *Server) OpenAPI() *huma.OpenAPI { return s.api.OpenAPI() }

// FlushUsage writes the buffered usage rows now.
func (s *Server) FlushUsage(ctx context.Context) error { return s.usage.Flush(ctx) }

// Close flushes the usage log and the spans buffered for forwarders. It
// does not close the store. Closing twice is harmless.
func (s *Server) Close(ctx context.Context) error {
	s.closeOnce.Do(func() { s.closeErr = errors.Join(s.usage.Close(ctx), s.forwarding.Close(ctx)) })
	return s.closeErr
}
