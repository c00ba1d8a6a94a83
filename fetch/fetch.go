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
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/webinfra/webinfra/errs"
)

// Fetcher fetches pages through the SSRF-guarded direct tier. It is safe
// for concurrent use; build one and share it.
type Fetcher struct {
	opts      Options
	guard     *guard
	transport *http.Transport
	client    *http.Client
	now       func() time.Time
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
	g := newGuard(&o, allow)
	t := newTransport(&o, g)
	return &Fetcher{
		opts:      o,
		guard:     g,
		transport: t,
		client: &http.Client{
			Transport:     t,
			CheckRedirect: redirectPolicy(o.MaxRedirects, nil),
			Timeout:       o.Timeout,
		},
		now: time.Now,
	}, nil
}

// Client returns the guarded HTTP client: the same SSRF guard, trusted roots,
// connect and header timeouts, redirect limit and whole-request timeout
// (Options.Timeout) as Fetch. Its transport does not decompress bodies and
// it does not cap them; callers that read bodies should bound their reads.
func (f *Fetcher) Client() *http.Client { return f.client }

// CloseIdleConnections closes kept-alive connections that are idle.
func (f *Fetcher) CloseIdleConnections() { f.transport.CloseIdleConnections() }

// Fetch gets req.URL and returns the response whatever its HTTP status.
// Errors carry an errs.Kind: invalid input is KindInvalid (field "url",
// "headers", "timeout" or "tier"), an SSRF refusal KindForbidden, a tier
// not built yet KindUnavailable, and network failures, timeouts, size caps
// and redirect limits KindUpstream. Cancelling ctx returns ctx's error.
func (f *Fetcher) Fetch(ctx context.Context, req Request) (*Response, error) {
	start := f.now()
	u, err := parseURL(req.URL)
	if err != nil {
		return nil, err
	}
	if err := checkTier(req.Tier); err != nil {
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

	reqCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	httpReq, err := http.NewRequestWithContext(reqCtx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errs.Invalid("url", "%v", err)
	}
	f.setHeaders(httpReq, req.Headers)

	var hops []Hop
	client := *f.client
	client.Timeout = 0 // reqCtx bounds the fetch, so the error can name the timeout
	client.CheckRedirect = redirectPolicy(f.opts.MaxRedirects, &hops)

	resp, err := client.Do(httpReq)
	if err != nil {
		return nil, f.classify(ctx, reqCtx, err, u, timeout)
	}
	defer resp.Body.Close()
	body, err := readBody(resp, f.opts.MaxBodyBytes, f.opts.MaxDecodedBytes)
	if err != nil {
		return nil, f.classify(ctx, reqCtx, err, u, timeout)
	}
	text := toUTF8(body, resp.Header.Get("Content-Type"))
	return &Response{
		URL:         req.URL,
		FinalURL:    resp.Request.URL.String(),
		StatusCode:  resp.StatusCode,
		Header:      resp.Header,
		Body:        text.body,
		ContentType: text.mediaType,
		Charset:     text.charset,
		Redirects:   hops,
		TierUsed:    TierDirect,
		CascadePath: []Tier{TierDirect},
		Duration:    f.now().Sub(start),
	}, nil
}

// setHeaders sets the default headers, then the caller's, then the
// Accept-Encoding this package can decode.
func (f *Fetcher) setHeaders(r *http.Request, extra map[string]string) {
	r.Header.Set("User-Agent", f.opts.UserAgent)
	r.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	for k, v := range extra {
		r.Header.Set(k, v) // a "Host" entry is ignored by net/http
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

func checkTier(t Tier) error {
	switch t {
	case "", TierDirect:
		return nil
	case TierRender, TierResidential:
		return errs.New(errs.KindUnavailable, "fetch tier %q is not available yet", t)
	}
	return errs.Invalid("tier", "unknown tier %q (want %q, %q or %q)", t, TierDirect, TierRender, TierResidential)
}

func checkHeaders(h map[string]string) error {
	for k, v := range h {
		if !httpguts.ValidHeaderFieldName(k) {
			return errs.Invalid("headers", "invalid header name %q", k)
		}
		if !httpguts.ValidHeaderFieldValue(v) {
			return errs.Invalid("headers", "invalid value for header %q", k)
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
	var e *errs.Error
	if errors.As(err, &e) { // guard refusals, redirect limit, size caps
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
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: DNS lookup of %s failed", target, dnsErr.Name)
	}
	if isTLSVerifyError(err) {
		return errs.Wrap(errs.KindUpstream, err, "fetch %s: TLS certificate not trusted", target)
	}
	return errs.Wrap(errs.KindUpstream, err, "fetch %s failed", target)
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
