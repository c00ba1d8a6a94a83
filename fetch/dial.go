package fetch

import (
	"context"
	"crypto/x509"
	"net"
)

// DialService opens a TCP connection for a protocol other than HTTP (a
// TLS handshake inspected by hand, a whois referral, an SMTP probe)
// through the SSRF guard's address rules, with the fetcher's connect
// timeout. The port rule is not applied: the caller names its protocol's
// port (43, 25, 443), never a port taken from its own caller. A refused
// address is an errs.KindForbidden error.
func (f *Fetcher) DialService(ctx context.Context, network, addr string) (net.Conn, error) {
	g := *f.guard
	g.ports = nil
	d := net.Dialer{Timeout: f.opts.ConnectTimeout, Control: g.control}
	return d.DialContext(ctx, network, addr)
}

// VerifyChain verifies a peer's certificate chain for host against the
// system roots and then the fetcher's extra roots (Options.RootCAs), as
// every HTTPS fetch does.
func (f *Fetcher) VerifyChain(certs []*x509.Certificate, host string) error {
	return verifyChain(certs, host, f.opts.RootCAs)
}
