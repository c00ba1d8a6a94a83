package tlsinspect

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/dnsmsg"
)

// Defaults for zero Options fields.
const (
	DefaultPort         = 443
	DefaultTimeout      = 10 * time.Second
	DefaultExpiringSoon = 30 * 24 * time.Hour
)

// Input names the host whose TLS set-up is inspected.
type Input struct {
	Domain string `json:"domain" minLength:"1" maxLength:"253" example:"example.com" doc:"A host name (IDN allowed) or an IP address; no scheme, path or port."`
}

// Options configure Inspect.
type Options struct {
	// Dial opens the TCP connections. Required: the server passes
	// fetch.Fetcher.DialService, which applies the SSRF guard (so a
	// loopback or private target is refused in production).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Verify verifies the presented chain for host, returning nil when it
	// is trusted; nil means the system roots. Inspect calls it with the
	// host, and again with host "" (chain only) when the name does not
	// match, so trust and name are reported apart. The server passes
	// fetch.Fetcher.VerifyChain (system roots plus --ca-file).
	Verify func(certs []*x509.Certificate, host string) error
	// Port is the TLS port; 0 means DefaultPort (443).
	Port int
	// Now is the clock for days remaining and expiry; nil means time.Now.
	Now func() time.Time
	// Timeout bounds the whole inspection (connect, handshake, the HSTS
	// request, the legacy probe); 0 means DefaultTimeout.
	Timeout time.Duration
	// ExpiringSoon is how close an expiry must be to be a problem; 0
	// means DefaultExpiringSoon (30 days).
	ExpiringSoon time.Duration
	// SkipLegacyProbe leaves out the second handshake capped at TLS 1.1.
	SkipLegacyProbe bool
}

// Report is what a TLS handshake with a host showed.
type Report struct {
	Domain          string        `json:"domain" doc:"The host inspected, lower-case ASCII (punycode for IDNs)."`
	Port            int           `json:"port" doc:"The TCP port connected to."`
	IP              string        `json:"ip" doc:"The address connected to."`
	Protocol        string        `json:"protocol" example:"TLS 1.3" doc:"The TLS version negotiated."`
	CipherSuite     string        `json:"cipher_suite" example:"TLS_AES_128_GCM_SHA256" doc:"The cipher suite negotiated (IANA name)."`
	ALPN            string        `json:"alpn,omitempty" doc:"The application protocol negotiated (only http/1.1 is offered)."`
	Trusted         bool          `json:"trusted" doc:"The chain leads to a trusted root (the host name aside)."`
	VerifyError     string        `json:"verify_error,omitempty" doc:"Why the chain (or the name) did not verify."`
	HostnameMatch   bool          `json:"hostname_match" doc:"The leaf certificate covers the domain."`
	SelfSigned      bool          `json:"self_signed" doc:"The leaf certificate is signed by its own key."`
	ExpiresInDays   int           `json:"expires_in_days" doc:"Whole days until the leaf certificate expires; negative once expired."`
	OCSPStapled     bool          `json:"ocsp_stapled" doc:"The server stapled an OCSP response to the handshake."`
	OCSP            *OCSP         `json:"ocsp,omitempty" doc:"The stapled OCSP response, when there is one."`
	Chain           []Certificate `json:"chain" doc:"The certificates as presented, leaf first (at most 10)."`
	HSTS            HSTS          `json:"hsts" doc:"Strict-Transport-Security from one GET / over the same connection."`
	LegacyProtocols *Legacy       `json:"legacy_protocols,omitempty" doc:"Whether a handshake capped at TLS 1.1 succeeded."`
	Problems        []Problem     `json:"problems" doc:"What is wrong or worth knowing, most severe first."`
	CheckedAt       time.Time     `json:"checked_at" doc:"When the inspection ran."`
}

// Problem is one finding.
type Problem struct {
	Code     string `json:"code" example:"certificate_expiring_soon"`
	Severity string `json:"severity" enum:"error,warning,info"`
	Message  string `json:"message"`
}

// Severities of a Problem.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// options is Options with the defaults filled in.
type options struct {
	Options
	port int
}

func withDefaults(opts *Options) (*options, error) {
	if opts == nil || opts.Dial == nil {
		return nil, errs.New(errs.KindInternal, "tlsinspect: Options.Dial is required (fetch.Fetcher.DialService)")
	}
	o := &options{Options: *opts, port: opts.Port}
	if o.port == 0 {
		o.port = DefaultPort
	}
	if o.port < 0 || o.port > 65535 {
		return nil, errs.New(errs.KindInternal, "tlsinspect: Options.Port %d is out of range", o.port)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ExpiringSoon <= 0 {
		o.ExpiringSoon = DefaultExpiringSoon
	}
	if o.Verify == nil {
		o.Verify = func(certs []*x509.Certificate, host string) error { return systemVerify(certs, host, o.Now()) }
	}
	return o, nil
}

// Inspect connects to in.Domain on the TLS port, completes a handshake
// without trusting it (crypto/tls verifies nothing; Options.Verify judges
// the chain afterwards, so a bad certificate is reported, not an error),
// sends one GET / over the same connection to read Strict-Transport-
// Security, and by default tries a second handshake capped at TLS 1.1.
//
// Errors: a bad domain is errs.KindInvalid ("domain"); a target the SSRF
// guard refuses is the dial error as it comes (errs.KindForbidden); a host
// that does not answer in time is errs.KindTimeout; one that cannot be
// reached, or does not complete a TLS handshake, is errs.KindUpstream
// ("TLS handshake with <domain> failed: ..."); cancelling ctx returns
// ctx's error.
func Inspect(ctx context.Context, in Input, opts *Options) (*Report, error) {
	o, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	host, isIP, err := normalizeHost(in.Domain)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	addr := net.JoinHostPort(host, strconv.Itoa(o.port))
	raw, err := o.Dial(ctx, "tcp", addr)
	if err != nil {
		return nil, o.dialError(ctx, err, host)
	}
	defer raw.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = raw.SetDeadline(deadline)
	}
	conn := tls.Client(raw, clientConfig(host, isIP, 0))
	if err := conn.HandshakeContext(ctx); err != nil {
		return nil, o.handshakeError(ctx, err, host)
	}
	state := conn.ConnectionState()
	rep := &Report{
		Domain: host, Port: o.port, IP: remoteIP(raw), CheckedAt: o.Now().UTC(),
		Protocol: tls.VersionName(state.Version), CipherSuite: tls.CipherSuiteName(state.CipherSuite), ALPN: state.NegotiatedProtocol,
	}
	o.judgeChain(rep, state.PeerCertificates, host)
	rep.OCSPStapled = len(state.OCSPResponse) > 0
	if rep.OCSPStapled {
		rep.OCSP = parseStaple(state.OCSPResponse, state.PeerCertificates, o.Now())
	}
	// A host slow to answer GET / gets half the time left, so the legacy
	// probe still has its turn.
	if deadline, ok := ctx.Deadline(); ok {
		_ = raw.SetDeadline(time.Now().Add(time.Until(deadline) / 2))
	}
	rep.HSTS = readHSTS(conn, host, o.port)
	if !o.SkipLegacyProbe {
		rep.LegacyProtocols = o.probeLegacy(ctx, raw.RemoteAddr().String(), host, isIP)
	}
	rep.Problems = o.problems(rep, state)
	return rep, nil
}

// clientConfig offers every protocol version from TLS 1.0 (capped at
// maxVersion when not 0) and every cipher suite Go implements, so old
// servers are inspected and reported rather than refused, and verifies
// nothing: the chain is judged afterwards.
func clientConfig(host string, isIP bool, maxVersion uint16) *tls.Config {
	var suites []uint16
	for _, s := range tls.CipherSuites() {
		suites = append(suites, s.ID)
	}
	for _, s := range tls.InsecureCipherSuites() {
		suites = append(suites, s.ID)
	}
	cfg := &tls.Config{
		InsecureSkipVerify: true, // judged by Options.Verify after the handshake
		MinVersion:         tls.VersionTLS10,
		MaxVersion:         maxVersion,
		CipherSuites:       suites,
		NextProtos:         []string{"http/1.1"},
	}
	if !isIP {
		cfg.ServerName = host
	}
	return cfg
}

func remoteIP(c net.Conn) string {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	host, _, _ := net.SplitHostPort(c.RemoteAddr().String())
	return host
}

// dialError classifies a failed connect.
func (o *options) dialError(ctx context.Context, err error, host string) error {
	var kindErr *errs.Error
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &kindErr): // the SSRF guard's refusal, as it comes
		return err
	case ctx.Err() == context.Canceled:
		return err
	case isTimeout(ctx, err):
		return errs.Wrap(errs.KindTimeout, err, "%s:%d did not accept a connection within %s", host, o.port, o.Timeout)
	case errors.As(err, &dnsErr):
		return errs.Wrap(errs.KindUpstream, dnsmsg.Hide(err), "DNS lookup of %s failed", host)
	}
	return errs.Wrap(errs.KindUpstream, err, "could not connect to %s:%d", host, o.port)
}

// handshakeError classifies a failed handshake.
func (o *options) handshakeError(ctx context.Context, err error, host string) error {
	switch {
	case ctx.Err() == context.Canceled:
		return err
	case isTimeout(ctx, err):
		return errs.Wrap(errs.KindTimeout, err, "TLS handshake with %s did not complete within %s", host, o.Timeout)
	}
	return errs.Wrap(errs.KindUpstream, err, "TLS handshake with %s failed", host)
}

func isTimeout(ctx context.Context, err error) bool {
	var netErr net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) ||
		(errors.As(err, &netErr) && netErr.Timeout())
}

// systemVerify checks a chain against the system roots at now; host ""
// checks the chain alone.
func systemVerify(certs []*x509.Certificate, host string, now time.Time) error {
	if len(certs) == 0 {
		return errors.New("no certificate presented")
	}
	opts := x509.VerifyOptions{DNSName: host, Intermediates: x509.NewCertPool(), CurrentTime: now}
	for _, c := range certs[1:] {
		opts.Intermediates.AddCert(c)
	}
	_, err := certs[0].Verify(opts)
	return err
}

// days is whole days from now to t, rounded down (negative in the past).
func days(now, t time.Time) int {
	d := t.Sub(now)
	n := int(d / (24 * time.Hour))
	if d < 0 && d%(24*time.Hour) != 0 {
		n--
	}
	return n
}

func plural(n int, word string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
