package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// newTransport builds the guarded transport: every dial goes through the
// SSRF guard, environment proxies are ignored (a proxy would be dialled
// instead of the target and so escape the guard), and transparent
// decompression is off because readBody decodes under a cap.
func newTransport(o *Options, g *guard) *http.Transport {
	dialer := &net.Dialer{
		Timeout:   o.ConnectTimeout,
		KeepAlive: 30 * time.Second,
		Control:   g.control,
	}
	t := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    o.ConnectTimeout,
		ResponseHeaderTimeout:  o.HeaderTimeout,
		DisableCompression:     true,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    64, // webhook deliveries and crawls reuse connections to one host
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
	if o.RootCAs != nil {
		t.DialTLSContext = dialTLSWithExtraRoots(dialer.DialContext, t.TLSClientConfig, o.RootCAs, o.ConnectTimeout)
	}
	return t
}

// dialTLSWithExtraRoots returns a TLS dialer that trusts the system roots
// and extra. A *x509.CertPool cannot be merged into another, so the chain
// is verified by hand in VerifyConnection: against the system roots first,
// then against extra, always with the host name of the dialled address.
// The dial itself goes through dial (the guarded dialer).
func dialTLSWithExtraRoots(dial func(context.Context, string, string) (net.Conn, error), base *tls.Config, extra *x509.CertPool, handshakeTimeout time.Duration) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		raw, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		cfg := base.Clone()
		cfg.ServerName = host
		cfg.NextProtos = []string{"h2", "http/1.1"}
		cfg.InsecureSkipVerify = true // replaced by VerifyConnection below
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			return verifyChain(cs.PeerCertificates, host, extra)
		}
		conn := tls.Client(raw, cfg)
		hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
		defer cancel()
		if err := conn.HandshakeContext(hctx); err != nil {
			raw.Close()
			return nil, err
		}
		return conn, nil
	}
}

// verifyChain verifies a peer's chain for host against the system roots,
// then against extra.
func verifyChain(certs []*x509.Certificate, host string, extra *x509.CertPool) error {
	if len(certs) == 0 {
		return errors.New("tls: server presented no certificate")
	}
	opts := x509.VerifyOptions{DNSName: host, Intermediates: x509.NewCertPool()}
	for _, c := range certs[1:] {
		opts.Intermediates.AddCert(c)
	}
	if _, err := certs[0].Verify(opts); err == nil {
		return nil // nil Roots: the system's
	}
	opts.Roots = extra
	if _, err := certs[0].Verify(opts); err != nil {
		return &tls.CertificateVerificationError{UnverifiedCertificates: certs, Err: err}
	}
	return nil
}

// redirectPolicy returns a CheckRedirect function that records each hop in
// *hops (when hops is not nil), enforces the redirect limit, refuses
// redirects to URLs Fetch would not accept and, when check is not nil,
// those check refuses.
func redirectPolicy(maxRedirects int, hops *[]Hop, check func(*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if maxRedirects < 0 {
			return http.ErrUseLastResponse
		}
		if hops != nil && req.Response != nil {
			*hops = append(*hops, Hop{URL: via[len(via)-1].URL.String(), Status: req.Response.StatusCode})
		}
		if len(via) > maxRedirects {
			return errs.New(errs.KindUpstream, "stopped after %d redirects (limit %d)", maxRedirects, maxRedirects)
		}
		if err := checkURL(req.URL); err != nil {
			return errs.Wrap(errs.KindUpstream, err, "redirect to %s refused", req.URL.Redacted())
		}
		if check != nil {
			return check(req)
		}
		return nil
	}
}
