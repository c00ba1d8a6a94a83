package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/time/rate"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

// Defaults and bounds of ProbeOptions.
const (
	DefaultWorkers   = 8
	MaxWorkers       = 32
	DefaultPerHost   = 2
	MaxPerHost       = 8
	DefaultHostDelay = 100 * time.Millisecond
	DefaultTimeout   = 10 * time.Second
	MaxTimeout       = 60 * time.Second
	DefaultBudget    = 2 * time.Minute
	// MaxProbeURLs is the most URLs one Probe call takes.
	MaxProbeURLs = 1_000
	// GetBodyBytes is how much of a GET fallback's body is read (and
	// dropped) before the connection is closed: the status is all a probe
	// needs.
	GetBodyBytes = 4 << 10
)

// The results of a probe (LinkStatus.Result).
const (
	ResultOK           = "ok"            // an answer below 400, after redirects
	ResultClientError  = "client_error"  // 4xx other than 429: broken
	ResultRateLimited  = "rate_limited"  // 429: the site asked us to slow down; not counted as broken
	ResultServerError  = "server_error"  // 5xx: broken
	ResultNetworkError = "network_error" // no answer (DNS, connect, TLS, timeout, redirect limit): broken
	ResultBlocked      = "blocked"       // the SSRF guard refused the target or a redirect hop: not broken, not fetched
	ResultInvalidURL   = "invalid_url"   // not an absolute http(s) URL: broken
	ResultUnchecked    = "unchecked"     // not probed: the time budget ran out first
)

// ProbeOptions tune Probe. The zero value (or nil) means defaults.
type ProbeOptions struct {
	// Workers is how many probes run at once overall: 0 means
	// DefaultWorkers, at most MaxWorkers.
	Workers int
	// PerHost is how many probes to one host (host:port) are in flight at
	// once: 0 means DefaultPerHost, at most MaxPerHost.
	PerHost int
	// HostDelay is the least time between the starts of two requests to
	// one host: 0 means DefaultHostDelay, negative means none.
	HostDelay time.Duration
	// Timeout bounds each request (the HEAD, then the GET fallback, each
	// redirects included): 0 means DefaultTimeout, at most MaxTimeout.
	Timeout time.Duration
	// Budget bounds the whole Probe call: URLs not answered when it is
	// spent are ResultUnchecked. 0 means DefaultBudget.
	Budget time.Duration
	// UserAgent is sent with every probe; empty means fetch.DefaultUserAgent.
	UserAgent string
}

// LinkStatus is what probing one URL found. It does not repeat the URL:
// Probe returns statuses in the order of its URLs, and the structs that
// embed one (Link, aeo/llmstxt's links) carry the URL.
type LinkStatus struct {
	Result     string  `json:"result" enum:"ok,client_error,rate_limited,server_error,network_error,blocked,invalid_url,unchecked" doc:"ok: an answer below 400; client_error: 4xx (429 excepted); rate_limited: 429; server_error: 5xx; network_error: no answer; blocked: refused by the SSRF guard, never fetched; invalid_url: not an absolute http(s) URL; unchecked: the time budget ran out first."`
	Broken     bool    `json:"broken" doc:"client_error, server_error, network_error or invalid_url."`
	StatusCode int     `json:"status_code,omitempty" doc:"The final HTTP status, after redirects; absent when there was no answer."`
	FinalURL   string  `json:"final_url,omitempty" doc:"Where the redirects, if any, ended."`
	Redirects  int     `json:"redirects,omitempty" doc:"Redirects followed."`
	Method     string  `json:"method,omitempty" enum:"HEAD,GET" doc:"The method whose answer is reported: HEAD, or GET when HEAD was refused (403, 405, 501) or failed."`
	Fallback   string  `json:"fallback_reason,omitempty" doc:"Why GET was tried after HEAD."`
	Error      string  `json:"error,omitempty" doc:"Why there was no answer (network_error, blocked, invalid_url, unchecked)."`
	DurationMS float64 `json:"duration_ms" doc:"Time spent on this URL, waiting for politeness slots included."`
}

// Probe checks each URL with HEAD, falling back to GET when HEAD answers
// 403, 405 or 501 or gets no answer, and returns one LinkStatus per URL
// in the order given. It is the link-rot check of every audit that
// probes links (this package's Audit, aeo/llmstxt).
//
// Requests go through the fetcher's SSRF-guarded client (f.Client()):
// the guard, connect and header timeouts, the redirect limit and trusted
// roots are the fetcher's; fetch.Fetcher.Fetch is not used because it can
// only GET and reads whole bodies. A GET fallback reads at most
// GetBodyBytes of the body. Probes run on a pool of Workers; per host at
// most PerHost are in flight and request starts are HostDelay apart (the
// host is the URL's own: redirect hops to other hosts are not throttled).
//
// Bad options are errs.KindInvalid naming the field; more than
// MaxProbeURLs URLs is errs.KindInvalid ("urls"). Cancelling ctx returns
// ctx's error; a spent Budget does not (see ResultUnchecked).
func Probe(ctx context.Context, f *fetch.Fetcher, urls []string, opts *ProbeOptions) ([]LinkStatus, error) {
	if f == nil {
		return nil, errs.Invalid("fetcher", "must not be nil")
	}
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if len(urls) > MaxProbeURLs {
		return nil, errs.Invalid("urls", "at most %d URLs, got %d", MaxProbeURLs, len(urls))
	}
	budget, cancel := context.WithTimeout(ctx, o.Budget)
	defer cancel()
	p := &prober{client: f.Client(), opts: o, gates: newHostGates(o.PerHost, o.HostDelay)}
	out := make([]LinkStatus, len(urls))
	var g errgroup.Group
	g.SetLimit(o.Workers)
	for i, u := range urls {
		if budget.Err() != nil {
			out[i] = unchecked(budget.Err())
			continue
		}
		g.Go(func() error {
			out[i] = p.probe(budget, u)
			return nil
		})
	}
	_ = g.Wait() // the probes report through out, never through errors
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (o *ProbeOptions) resolve() (ProbeOptions, error) {
	var r ProbeOptions
	if o != nil {
		r = *o
	}
	for _, c := range []struct {
		field    string
		val, max int
	}{{"options.workers", r.Workers, MaxWorkers}, {"options.per_host", r.PerHost, MaxPerHost}} {
		if c.val < 0 || c.val > c.max {
			return r, errs.Invalid(c.field, "must be between 0 and %d, got %d", c.max, c.val)
		}
	}
	if r.Timeout < 0 || r.Timeout > MaxTimeout {
		return r, errs.Invalid("options.timeout", "must be between 0 and %s, got %s", MaxTimeout, r.Timeout)
	}
	if r.Budget < 0 {
		return r, errs.Invalid("options.budget", "must not be negative")
	}
	r.Workers = cmpOr(r.Workers, DefaultWorkers)
	r.PerHost = cmpOr(r.PerHost, DefaultPerHost)
	r.HostDelay = cmpOr(r.HostDelay, DefaultHostDelay)
	r.Timeout = cmpOr(r.Timeout, DefaultTimeout)
	r.Budget = cmpOr(r.Budget, DefaultBudget)
	if r.UserAgent == "" {
		r.UserAgent = fetch.DefaultUserAgent
	}
	return r, nil
}

func cmpOr[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

type prober struct {
	client *http.Client
	opts   ProbeOptions
	gates  *hostGates
}

// answer is one request's outcome.
type answer struct {
	status    int
	finalURL  string
	redirects int
}

func (p *prober) probe(ctx context.Context, raw string) (st LinkStatus) {
	start := time.Now()
	defer func() { st.DurationMS = float64(time.Since(start).Microseconds()) / 1000 }()
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		st.Result, st.Broken, st.Error = ResultInvalidURL, true, "not an absolute http or https URL without credentials"
		return st
	}
	u.Fragment, u.RawFragment = "", ""
	st.Method = http.MethodHead
	ans, err := p.do(ctx, u, http.MethodHead)
	switch {
	case ctx.Err() != nil || errs.Is(err, errs.KindForbidden) || errors.Is(err, errBudget):
	case err != nil:
		st.Fallback = "HEAD failed: " + err.Error()
	case ans.status == http.StatusForbidden || ans.status == http.StatusMethodNotAllowed || ans.status == http.StatusNotImplemented:
		st.Fallback = fmt.Sprintf("HEAD answered %d", ans.status)
	}
	if st.Fallback != "" {
		st.Method = http.MethodGet
		ans, err = p.do(ctx, u, http.MethodGet)
	}
	return classify(ctx, st, ans, err)
}

// errBudget is a politeness wait that would outlast the time budget.
var errBudget = errors.New("not checked: the time budget would be spent before this host's next slot")

// classify fills a status's result from the last request's outcome.
func classify(ctx context.Context, st LinkStatus, ans answer, err error) LinkStatus {
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return unchecked(ctx.Err())
		case errors.Is(err, errBudget):
			return LinkStatus{Result: ResultUnchecked, Error: errBudget.Error()}
		case errs.Is(err, errs.KindForbidden):
			st.Result, st.Error = ResultBlocked, err.Error()
		default:
			st.Result, st.Broken, st.Error = ResultNetworkError, true, err.Error()
		}
		st.Method = ""
		return st
	}
	st.StatusCode, st.FinalURL, st.Redirects = ans.status, ans.finalURL, ans.redirects
	switch {
	case ans.status == http.StatusTooManyRequests:
		st.Result = ResultRateLimited
	case ans.status >= 500:
		st.Result, st.Broken = ResultServerError, true
	case ans.status >= 400:
		st.Result, st.Broken = ResultClientError, true
	default:
		st.Result = ResultOK
	}
	return st
}

func unchecked(cause error) LinkStatus {
	msg := "not checked: the time budget was spent"
	if !errors.Is(cause, context.DeadlineExceeded) {
		msg = "not checked: " + cause.Error()
	}
	return LinkStatus{Result: ResultUnchecked, Error: msg}
}

// do sends one request once u's host lets it, and reads at most
// GetBodyBytes of a GET's body.
func (p *prober) do(ctx context.Context, u *url.URL, method string) (answer, error) {
	release, err := p.gates.acquire(ctx, strings.ToLower(u.Host))
	if err != nil {
		return answer{}, err
	}
	defer release()
	rctx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, method, u.String(), nil)
	if err != nil {
		return answer{}, errs.Invalid("url", "%v", err)
	}
	req.Header.Set("User-Agent", p.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	resp, err := p.client.Do(req)
	if err != nil {
		if rctx.Err() != nil && ctx.Err() == nil {
			return answer{}, fmt.Errorf("no answer within %s: %w", p.opts.Timeout, unwrapURLError(err))
		}
		return answer{}, unwrapURLError(err)
	}
	if method == http.MethodGet {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, GetBodyBytes))
	}
	resp.Body.Close()
	ans := answer{status: resp.StatusCode, finalURL: resp.Request.URL.String()}
	for r := resp.Request; r != nil && r.Response != nil; r = r.Response.Request {
		ans.redirects++
	}
	return ans, nil
}

// unwrapURLError drops net/http's "Head \"url\": " prefix: the URL is
// already in the report.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// hostGates are the per-host politeness rules: a semaphore of perHost
// slots and a token bucket (burst 1) that spaces request starts.
type hostGates struct {
	perHost int
	every   rate.Limit
	mu      sync.Mutex
	hosts   map[string]*hostGate
}

type hostGate struct {
	slots   chan struct{}
	limiter *rate.Limiter
}

func newHostGates(perHost int, delay time.Duration) *hostGates {
	every := rate.Inf
	if delay > 0 {
		every = rate.Every(delay)
	}
	return &hostGates{perHost: perHost, every: every, hosts: map[string]*hostGate{}}
}

// acquire waits for a slot and a start token for host; the caller must
// call release when its request is done.
func (h *hostGates) acquire(ctx context.Context, host string) (release func(), err error) {
	h.mu.Lock()
	g, ok := h.hosts[host]
	if !ok {
		g = &hostGate{slots: make(chan struct{}, h.perHost), limiter: rate.NewLimiter(h.every, 1)}
		h.hosts[host] = g
	}
	h.mu.Unlock()
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := g.limiter.Wait(ctx); err != nil {
		<-g.slots
		if ctx.Err() == nil { // the wait would outlast the budget
			return nil, errBudget
		}
		return nil, ctx.Err()
	}
	return func() { <-g.slots }, nil
}
