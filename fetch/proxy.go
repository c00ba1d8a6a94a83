package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"hash/fnv"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// Proxy is the proxy seam: it picks the proxy that carries one
// residential-tier request. choice is Request.Proxy ("" to rotate, "#N"
// for the Nth proxy, anything else a sticky key); an implementation that
// cannot honour a choice returns an errs.KindInvalid error with field
// "proxy". ProxyList is the in-tree implementation; a provider's API
// (per-session proxies, health checks) fits behind the same interface.
type Proxy interface {
	ProxyFor(ctx context.Context, choice string) (*url.URL, error)
}

// ProxyList is a fixed pool of proxies, used round-robin. It is safe for
// concurrent use.
type ProxyList struct {
	proxies []*url.URL
	next    atomic.Uint64
}

// NewProxyList parses proxy URLs: http://, https://, socks5:// or
// socks5h:// with a host, optionally with user:password@ credentials.
// A bad URL is errs.KindInvalid with field "options.proxies".
func NewProxyList(rawURLs []string) (*ProxyList, error) {
	if len(rawURLs) == 0 {
		return nil, errs.Invalid("options.proxies", "the list is empty")
	}
	l := &ProxyList{}
	for i, raw := range rawURLs {
		u, err := parseProxyURL(raw)
		if err != nil {
			return nil, errs.Invalid("options.proxies", "proxy %d: %v", i, err)
		}
		l.proxies = append(l.proxies, u)
	}
	return l, nil
}

func parseProxyURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, unwrapURLError(err)
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
	default:
		return nil, errs.New(errs.KindInvalid, "scheme must be http, https, socks5 or socks5h, not %q", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, errs.New(errs.KindInvalid, "%s has no host", u.Redacted())
	}
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		return nil, errs.New(errs.KindInvalid, "%s must not have a path or query", u.Redacted())
	}
	return u, nil
}

// Len is the number of proxies in the pool.
func (l *ProxyList) Len() int { return len(l.proxies) }

// ProxyFor implements Proxy: "" takes the next proxy in turn, "#N" the
// Nth (from 0), and any other choice hashes to a fixed proxy.
func (l *ProxyList) ProxyFor(_ context.Context, choice string) (*url.URL, error) {
	i, err := l.index(choice)
	if err != nil {
		return nil, err
	}
	return l.proxies[i], nil
}

func (l *ProxyList) index(choice string) (int, error) {
	n := len(l.proxies)
	switch {
	case choice == "":
		return int((l.next.Add(1) - 1) % uint64(n)), nil
	case strings.HasPrefix(choice, "#"):
		i, err := strconv.Atoi(choice[1:])
		if err != nil || i < 0 || i >= n {
			return 0, errs.Invalid("proxy", "%q is not a proxy index: want #0 to #%d", choice, n-1)
		}
		return i, nil
	}
	h := fnv.New32a()
	h.Write([]byte(choice))
	return int(h.Sum32() % uint32(n)), nil
}

// checkProxyChoice refuses a malformed choice before any tier runs.
func checkProxyChoice(p Proxy, choice string) error {
	if !strings.HasPrefix(choice, "#") {
		return nil
	}
	if l, ok := p.(*ProxyList); ok {
		_, err := l.index(choice)
		return err
	}
	if i, err := strconv.Atoi(choice[1:]); err != nil || i < 0 {
		return errs.Invalid("proxy", "%q is not a proxy index", choice)
	}
	return nil
}

// proxyKey carries the proxy chosen for one request to the transport.
type proxyKey struct{}

// residential is the residential tier's transport. The target is checked
// with CheckTarget before the request leaves (and on every redirect hop),
// since the dial-time guard only sees the proxy; dials to a proxy the
// pool handed out are let through (the proxy is operator configuration,
// often on a private network), and any other dial meets the guard.
type residential struct {
	pool      Proxy
	transport *http.Transport
	proxies   sync.Map // canonical host:port of proxies handed out → struct{}
}

func newResidential(o *Options, g *guard, pool Proxy) *residential {
	r := &residential{pool: pool}
	guarded := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second, Control: g.control}
	open := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if _, ok := r.proxies.Load(strings.ToLower(addr)); ok {
			return open.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
	r.transport = &http.Transport{
		Proxy:                  r.proxyOf,
		DialContext:            dial,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    o.ConnectTimeout,
		ResponseHeaderTimeout:  o.HeaderTimeout,
		DisableCompression:     true,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
	if o.RootCAs != nil {
		// TLS to an https:// proxy goes through DialTLSContext, which
		// knows the proxy's name; TLS to the target, inside the tunnel,
		// uses TLSClientConfig, whose VerifyConnection only learns the
		// name from SNI, which an IP-address target does not send.
		extra := o.RootCAs
		r.transport.DialTLSContext = dialTLSWithExtraRoots(dial, r.transport.TLSClientConfig, extra, o.ConnectTimeout)
		r.transport.TLSClientConfig.InsecureSkipVerify = true // replaced by VerifyConnection
		r.transport.TLSClientConfig.VerifyConnection = func(cs tls.ConnectionState) error {
			if cs.ServerName == "" {
				return &tls.CertificateVerificationError{UnverifiedCertificates: cs.PeerCertificates,
					Err: errors.New("an IP-address target cannot be verified through a proxy when extra root CAs are configured")}
			}
			return verifyChain(cs.PeerCertificates, cs.ServerName, extra)
		}
	}
	return r
}

// choose asks the pool for a proxy and returns ctx carrying it.
func (r *residential) choose(ctx context.Context, choice string) (context.Context, error) {
	u, err := r.pool.ProxyFor(ctx, choice)
	if err != nil {
		if asErr(err) == nil {
			return nil, errs.Wrap(errs.KindUnavailable, err, "choosing a residential proxy")
		}
		return nil, err
	}
	if u == nil {
		return nil, errs.New(errs.KindUnavailable, "the proxy pool returned no proxy")
	}
	if _, err := parseProxyURL(u.String()); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "the proxy pool returned a bad proxy")
	}
	r.proxies.Store(proxyAddr(u), struct{}{})
	return context.WithValue(ctx, proxyKey{}, u), nil
}

// proxyOf is the transport's Proxy function. A request without a chosen
// proxy fails: the residential transport never dials a target itself.
func (r *residential) proxyOf(req *http.Request) (*url.URL, error) {
	u, ok := req.Context().Value(proxyKey{}).(*url.URL)
	if !ok {
		return nil, errs.New(errs.KindInternal, "residential request without a proxy")
	}
	return u, nil
}

// proxyAddr is the host:port net/http dials for proxy u, lower-cased.
func proxyAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "socks5": "1080", "socks5h": "1080"}[u.Scheme]
	}
	return strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}
