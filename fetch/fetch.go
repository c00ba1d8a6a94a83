package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/dnsmsg"
)

// Fetcher fetches pages through its tiers: direct (the SSRF-guarded
// client), render (Options.Renderer) and residential (Options.Proxies or
// Options.Proxy). It is safe for concurrent use; build one and share it.
type Fetcher struct {
	opts        Options
	guard       *guard
	transport   *http.Transport
	client      *http.Client
	now         func() time.Time
	renderer    Renderer     // nil: render tier unavailable
	residential *residential // nil: residential tier unavailable
	cache       ScrapeCache
	robots      *lru[*robotsRules]
}

// New returns a Fetcher. Nil options mean defaults; a bad option is an
// errs.KindInvalid error naming it.
func New(opts *Options) (*Fetcher, error) {
	return newFetcher(opts, nil)
}

// newFetcher is New with a guard hook that lets chosen targets through;
// only tests pass one.
func newFetcher(opts *Options, allow func(netip.AddrPort) bool) (*Fetcher, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	pool := o.Proxy
	if len(o.Proxies) > 0 {
		if pool, err = NewProxyList(o.Proxies); err != nil {
			return nil, err
		}
	}
	g := newGuard(&o, allow)
	t := newTransport(&o, g)
	f := &Fetcher{
		opts:      o,
		guard:     g,
		transport: t,
		client: &http.Client{
			Transport:     t,
			CheckRedirect: redirectPolicy(o.MaxRedirects, nil, nil),
			Timeout:       o.Timeout,
		},
		now:      o.Now,
		renderer: o.Renderer,
		robots:   newLRU[*robotsRules](robotsCacheEntries, robotsCacheBytes),
	}
	if pool != nil {
		f.residential = newResidential(&o, g, pool)
	}
	switch {
	case o.Cache != nil:
		f.cache = o.Cache
	case o.CacheEntries > 0:
		f.cache = &memoryCache{lru: newLRU[*ScrapeResult](o.CacheEntries, o.CacheBytes)}
	}
	return f, nil
}

// Client returns the guarded HTTP client of the direct tier: the same SSRF
// guard, trusted roots, connect and header timeouts, redirect limit and
// whole-request timeout (Options.Timeout) as Fetch. Its transport does not
// decompress bodies and it does not cap them; callers that read bodies
// should bound their reads.
func (f *Fetcher) Client() *http.Client { return f.client }

// CloseIdleConnections closes kept-alive connections that are idle.
func (f *Fetcher) CloseIdleConnections() {
	f.transport.CloseIdleConnections()
	if f.residential != nil {
		f.residential.transport.CloseIdleConnections()
	}
}

// Fetch gets req.URL through the cascade and returns the page whatever its
// HTTP status, unless it is a bot wall on every tier tried. The cascade
// starts at the cheapest allowed tier (see Request.Tier, MaxTier,
// UseResidential, Screenshot) and goes on to the next when the answer is a
// bot wall (403/429/503 with a challenge's markers) or, while the render
// tier is still ahead, a JavaScript shell or a page without the WaitFor
// selector. Response.TierUsed names the tier that answered and
// CascadePath the tiers tried, in order.
//
// Errors carry an errs.Kind: invalid input is KindInvalid (field "url",
// "headers", "timeout", "tier", "max_tier", "use_residential_proxy",
// "wait_for" or "proxy"), an SSRF refusal KindForbidden, a tier that is
// not configured KindUnavailable, a page still walled after the last tier
// KindBlocked (naming the tiers and walls, never the wall's content), and
// network failures, timeouts, size caps and redirect limits KindUpstream.
// Cancelling ctx returns ctx's error.
func (f *Fetcher) Fetch(ctx context.Context, req Request) (*Response, error) {
	a, err := f.prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	defer a.cancel()
	return f.run(a)
}

// prepare checks a request and returns it ready to run, its timeout
// started. The caller must call the attempt's cancel.
func (f *Fetcher) prepare(ctx context.Context, req Request) (*attempt, error) {
	start := f.now()
	u, err := parseURL(req.URL)
	if err != nil {
		return nil, err
	}
	if err := checkHeaders(req.Headers); err != nil {
		return nil, err
	}
	timeout := f.opts.Timeout
	switch {
	case req.Timeout < 0:
		return nil, errs.Invalid("timeout", "must not be negative")
	case req.Timeout > 0:
		timeout = req.Timeout
	}
	waitFor, err := compileWaitFor(req.WaitFor)
	if err != nil {
		return nil, err
	}
	plan, err := f.plan(&req)
	if err != nil {
		return nil, err
	}
	if f.residential != nil && slices.Contains(plan, TierResidential) {
		if err := checkProxyChoice(f.residential.pool, req.Proxy); err != nil {
			return nil, err
		}
	}
	reqCtx, cancel := context.WithTimeout(ctx, timeout)
	return &attempt{parent: ctx, ctx: reqCtx, cancel: cancel, start: start, url: u, req: &req,
		timeout: timeout, waitFor: waitFor, plan: plan}, nil
}

// run runs a prepared request down its cascade.
func (f *Fetcher) run(a *attempt) (*Response, error) {
	res, err := f.cascade(a)
	if err != nil {
		return nil, err
	}
	res.URL = a.req.URL
	res.Duration = f.now().Sub(a.start)
	return res, nil
}

// doHTTP is one GET through client, for the direct and residential tiers.
func (f *Fetcher) doHTTP(a *attempt, ctx context.Context, client *http.Client, hops *[]Hop, tier Tier) (*Response, error) {
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodGet, a.url.String(), nil)
	if err != nil {
		return nil, errs.Invalid("url", "%v", err)
	}
	f.setHeaders(httpReq, a.req.Headers)
	resp, err := client.Do(httpReq)
	if err != nil {
		return nil, f.classify(a.parent, a.ctx, err, a.url, a.timeout)
	}
	defer resp.Body.Close()
	body, err := readBody(resp, f.opts.MaxBodyBytes, f.opts.MaxDecodedBytes)
	if err != nil {
		return nil, f.classify(a.parent, a.ctx, err, a.url, a.timeout)
	}
	text := toUTF8(body, resp.Header.Get("Content-Type"))
	return &Response{
		URL:         a.req.URL,
		FinalURL:    resp.Request.URL.String(),
		StatusCode:  resp.StatusCode,
		Header:      resp.Header,
		Body:        text.body,
		ContentType: text.mediaType,
		Charset:     text.charset,
		Redirects:   *hops,
		TierUsed:    tier,
	}, nil
}

// setHeaders sets the default headers, then the caller's, then the
// Accept-Encoding this package can decode.
func (f *Fetcher) setHeaders(r *http.Request, extra map[string]string) {
	r.Header.Set("User-Agent", f.opts.UserAgent)
	r.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	for k, v := range extra {
		r.Header.Set(k, v)
	}
	r.Header.Set("Accept-Encoding", "gzip, deflate")
}

// parseURL parses and checks a URL to fetch.
func parseURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, errs.Invalid("url", "is required")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errs.Invalid("url", "is not a valid URL: %v", unwrapURLError(err))
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	return u, nil
}

// checkURL accepts absolute http(s) URLs with a host and no credentials.
func checkURL(u *url.URL) error {
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return errs.Invalid("url", "scheme must be http or https, not %q", u.Scheme)
	case u.Hostname() == "":
		return errs.Invalid("url", "must have a host")
	case u.User != nil:
		return errs.Invalid("url", "must not contain credentials (user:password@)")
	}
	return nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// refusedHeaders are request headers a caller may not set: Host, the
// hop-by-hop headers, and the proxy's own. Accept-Encoding is not refused
// but always replaced.
var refusedHeaders = map[string]string{
	"Host":                "the Host header follows the URL",
	"Connection":          "hop-by-hop headers are managed by the fetcher",
	"Keep-Alive":          "hop-by-hop headers are managed by the fetcher",
	"Proxy-Connection":    "hop-by-hop headers are managed by the fetcher",
	"Te":                  "hop-by-hop headers are managed by the fetcher",
	"Trailer":             "hop-by-hop headers are managed by the fetcher",
	"Transfer-Encoding":   "hop-by-hop headers are managed by the fetcher",
	"Upgrade":             "hop-by-hop headers are managed by the fetcher",
	"Content-Length":      "a GET has no body",
	"Proxy-Authorization": "proxy credentials belong to the proxy configuration",
	"Proxy-Authenticate":  "proxy credentials belong to the proxy configuration",
}

// Bounds on caller-supplied headers.
const (
	maxHeaders          = 50
	maxHeaderValueBytes = 8 << 10
)

// checkHeaders validates caller-supplied request headers: valid names and
// values, none of refusedHeaders, at most maxHeaders of at most
// maxHeaderValueBytes each. Errors are errs.KindInvalid, field "headers".
func checkHeaders(h map[string]string) error {
	if len(h) > maxHeaders {
		return errs.Invalid("headers", "at most %d headers, got %d", maxHeaders, len(h))
	}
	for k, v := range h {
		if !httpguts.ValidHeaderFieldName(k) {
			return errs.Invalid("headers", "invalid header name %q", k)
		}
		if !httpguts.ValidHeaderFieldValue(v) {
			return errs.Invalid("headers", "invalid value for header %q", k)
		}
		if why, ok := refusedHeaders[http.CanonicalHeaderKey(k)]; ok {
			return errs.Invalid("headers", "%q may not be set: %s", k, why)
		}
		if len(v) > maxHeaderValueBytes {
			return errs.Invalid("headers", "value of %q is longer than %d bytes", k, maxHeaderValueBytes)
		}
	}
	return nil
}

// classify turns a client or body error into the package's error model.
func (f *Fetcher) classify(parent, reqCtx context.Context, err error, u *url.URL, timeout time.Duration) error {
	target := u.Redacted()
	if parent.Err() != nil {
		return fmt.Errorf("fetch %s: %w", target, parent.Err())
	}
	if e := asErr(err); e != nil { // guard refusals, redirect limit, size caps
		return errs.Wrap(e.Kind, e, "fetch %s", target)
	}
	if errors.Is(reqCtx.Err(), context.DeadlineExceeded) {
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: no complete response within %s (request timeout)", target, timeout)
	}
	if strings.Contains(err.Error(), "timeout awaiting response headers") {
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: no response headers within %s (header timeout)", target, f.opts.HeaderTimeout)
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" && opErr.Timeout() {
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: could not connect within %s (connect timeout)", target, f.opts.ConnectTimeout)
	}
	if strings.Contains(err.Error(), "TLS handshake timeout") {
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: TLS handshake not done within %s (connect timeout)", target, f.opts.ConnectTimeout)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return errs.Wrap(errs.KindUpstream, dnsmsg.Hide(err), "fetch %s: DNS lookup of %s failed", target, dnsErr.Name)
	}
	if isTLSVerifyError(err) {
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: TLS certificate not trusted", target)
	}
	return errs.Wrap(errs.KindUpstream, err, "fetch %s failed", target)
}

// asErr returns the first *errs.Error in err's chain, or nil.
func asErr(err error) *errs.Error {
	var e *errs.Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

func isTLSVerifyError(err error) bool {
	var (
		cv *tls.CertificateVerificationError
		ua x509.UnknownAuthorityError
		he x509.HostnameError
		ci x509.CertificateInvalidError
	)
	return errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}

// Renderer is the render tier's browser (Options.Renderer), nil when the
// tier is unavailable.
func (f *Fetcher) Renderer() Renderer { return f.renderer }
