package tlsinspect_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ocsp"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel/tlsinspect"
	"github.com/webinfra/webinfra/intel/tlsinspect/tlstest"
)

var dialer = &net.Dialer{}

func inspect(t *testing.T, srv *httptest.Server, domain string, verify func(*tlsinspect.Options)) *tlsinspect.Report {
	t.Helper()
	opts := &tlsinspect.Options{Dial: dialer.DialContext, Port: tlstest.Port(srv)}
	if verify != nil {
		verify(opts)
	}
	rep, err := tlsinspect.Inspect(context.Background(), tlsinspect.Input{Domain: domain}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func codes(rep *tlsinspect.Report) []string {
	var out []string
	for _, p := range rep.Problems {
		out = append(out, p.Code)
	}
	return out
}

const strictHSTS = "max-age=63072000; includeSubDomains; preload"

func TestInspectHealthy(t *testing.T) {
	t.Parallel()
	ca := tlstest.NewCA(t)
	cert := ca.Issue(t, tlstest.Leaf{})
	cert.OCSPStaple = ca.Staple(t, cert, ocsp.Good, time.Now().Add(72*time.Hour))
	srv := tlstest.Server(t, cert, tlstest.HSTS(strictHSTS), nil)
	rep := inspect(t, srv, "LOCALHOST.", func(o *tlsinspect.Options) { o.Verify = ca.Verify })

	if rep.Domain != "localhost" || rep.IP != "127.0.0.1" || rep.Protocol != "TLS 1.3" || rep.CipherSuite == "" || rep.ALPN != "http/1.1" {
		t.Errorf("handshake: %+v", rep)
	}
	if !rep.Trusted || !rep.HostnameMatch || rep.SelfSigned || rep.VerifyError != "" || rep.ExpiresInDays != 89 {
		t.Errorf("trust: trusted %v match %v self %v error %q days %d", rep.Trusted, rep.HostnameMatch, rep.SelfSigned, rep.VerifyError, rep.ExpiresInDays)
	}
	if len(rep.Chain) != 2 || !slices.Equal(rep.Chain[0].SANs, []string{"localhost", "127.0.0.1"}) || rep.Chain[0].KeyAlgorithm != "ECDSA" ||
		rep.Chain[0].KeyBits != 256 || rep.Chain[0].IsCA || !rep.Chain[1].IsCA || len(rep.Chain[0].SHA256Fingerprint) != 64 {
		t.Errorf("chain: %+v", rep.Chain)
	}
	if !rep.OCSPStapled || rep.OCSP.Status != "good" || !rep.OCSP.SignatureChecked || rep.OCSP.NextUpdate == nil || rep.OCSP.Stale {
		t.Errorf("ocsp: %+v", rep.OCSP)
	}
	if h := rep.HSTS; !h.Checked || h.HTTPStatus != 200 || !h.Present || h.MaxAge != 63072000 || !h.IncludeSubDomains || !h.Preload {
		t.Errorf("hsts: %+v", h)
	}
	if l := rep.LegacyProtocols; l == nil || !l.Checked || l.Accepted {
		t.Errorf("legacy: %+v", l)
	}
	if len(rep.Problems) != 0 {
		t.Errorf("problems: %+v", rep.Problems)
	}
	// An IP literal is checked against the IP SANs.
	if rep := inspect(t, srv, "127.0.0.1", func(o *tlsinspect.Options) { o.Verify = ca.Verify }); !rep.HostnameMatch || !rep.Trusted {
		t.Errorf("by IP: %+v", rep)
	}
}

func TestInspectProblems(t *testing.T) {
	t.Parallel()
	ca := tlstest.NewCA(t)
	now := time.Now()
	day := 24 * time.Hour
	revoked := ca.Issue(t, tlstest.Leaf{})
	revoked.OCSPStaple = ca.Staple(t, revoked, ocsp.Revoked, now.Add(day))
	stale := ca.Issue(t, tlstest.Leaf{})
	stale.OCSPStaple = ca.Staple(t, stale, ocsp.Good, now.Add(-time.Minute))
	for _, c := range []struct {
		name      string
		cert      tls.Certificate
		handler   http.Handler
		configure func(*tls.Config)
		trusted   bool
		want      []string
	}{
		{"expired", ca.Issue(t, tlstest.Leaf{NotBefore: now.Add(-100 * day), NotAfter: now.Add(-10 * day)}), tlstest.HSTS(strictHSTS), nil,
			false, []string{"certificate_expired", "untrusted_chain", "ocsp_not_stapled"}},
		{"expiring soon", ca.Issue(t, tlstest.Leaf{NotAfter: now.Add(5 * day)}), tlstest.HSTS(strictHSTS), nil,
			true, []string{"certificate_expiring_soon", "ocsp_not_stapled"}},
		{"not yet valid", ca.Issue(t, tlstest.Leaf{NotBefore: now.Add(2 * day)}), tlstest.HSTS(strictHSTS), nil,
			false, []string{"certificate_not_yet_valid", "untrusted_chain", "ocsp_not_stapled"}},
		{"self-signed", tlstest.SelfSigned(t, tlstest.Leaf{}), tlstest.HSTS(strictHSTS), nil,
			false, []string{"self_signed", "ocsp_not_stapled"}},
		{"wrong host", ca.Issue(t, tlstest.Leaf{DNSNames: []string{"other.example"}, IPs: []net.IP{}}), tlstest.HSTS(strictHSTS), nil,
			true, []string{"hostname_mismatch", "ocsp_not_stapled"}},
		{"no hsts", ca.Issue(t, tlstest.Leaf{}), nil, nil,
			true, []string{"hsts_missing", "ocsp_not_stapled"}},
		{"short hsts", ca.Issue(t, tlstest.Leaf{}), tlstest.HSTS("max-age=86400"), nil,
			true, []string{"hsts_short_max_age", "ocsp_not_stapled"}},
		{"hsts without subdomains", ca.Issue(t, tlstest.Leaf{}), tlstest.HSTS("max-age=31536000"), nil,
			true, []string{"hsts_no_include_subdomains", "ocsp_not_stapled"}},
		{"revoked", revoked, tlstest.HSTS(strictHSTS), nil,
			true, []string{"ocsp_revoked"}},
		{"stale staple", stale, tlstest.HSTS(strictHSTS), nil,
			true, []string{"ocsp_stale"}},
		{"SHA-1 signature", ca.Issue(t, tlstest.Leaf{SignatureAlgorithm: x509.ECDSAWithSHA1}), tlstest.HSTS(strictHSTS), nil,
			false, []string{"weak_signature", "untrusted_chain", "ocsp_not_stapled"}},
		{"small RSA key", ca.Issue(t, tlstest.Leaf{RSABits: 1024}), tlstest.HSTS(strictHSTS), nil,
			true, []string{"weak_key", "ocsp_not_stapled"}},
		{"RSA key exchange", ca.Issue(t, tlstest.Leaf{RSABits: 2048}), tlstest.HSTS(strictHSTS),
			func(c *tls.Config) {
				c.MaxVersion, c.CipherSuites = tls.VersionTLS12, []uint16{tls.TLS_RSA_WITH_AES_128_GCM_SHA256}
			},
			true, []string{"weak_cipher", "ocsp_not_stapled"}},
		{"legacy accepted", ca.Issue(t, tlstest.Leaf{}), tlstest.HSTS(strictHSTS), func(c *tls.Config) { c.MinVersion = tls.VersionTLS10 },
			true, []string{"legacy_protocol_accepted", "ocsp_not_stapled"}},
		{"TLS 1.1 only", ca.Issue(t, tlstest.Leaf{}), tlstest.HSTS(strictHSTS), func(c *tls.Config) { c.MinVersion, c.MaxVersion = tls.VersionTLS10, tls.VersionTLS11 },
			true, []string{"old_protocol", "legacy_protocol_accepted", "ocsp_not_stapled"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := tlstest.Server(t, c.cert, c.handler, c.configure)
			rep := inspect(t, srv, "localhost", func(o *tlsinspect.Options) { o.Verify = ca.Verify })
			if got := codes(rep); !slices.Equal(got, c.want) || rep.Trusted != c.trusted {
				t.Errorf("problems %v trusted %v, want %v %v\n%+v", got, rep.Trusted, c.want, c.trusted, rep.Problems)
			}
			for _, p := range rep.Problems {
				if p.Message == "" || p.Severity == "" {
					t.Errorf("problem without message or severity: %+v", p)
				}
			}
		})
	}
}

func TestDefaultVerifyUsesSystemRoots(t *testing.T) {
	t.Parallel()
	ca := tlstest.NewCA(t)
	srv := tlstest.Server(t, ca.Issue(t, tlstest.Leaf{}), tlstest.HSTS(strictHSTS), nil)
	rep := inspect(t, srv, "localhost", func(o *tlsinspect.Options) { o.SkipLegacyProbe = true })
	if rep.Trusted || rep.VerifyError == "" || rep.LegacyProtocols != nil || !slices.Contains(codes(rep), "untrusted_chain") {
		t.Errorf("a test CA is not a system root: %+v", rep)
	}
}

func TestInspectErrors(t *testing.T) {
	t.Parallel()
	guarded, err := fetch.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ssh := tcpPeer(t, func(c net.Conn) { _, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n")) })
	silent := tcpPeer(t, func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }) // reads until the client gives up
	refused := closedPort(t)
	for _, c := range []struct {
		name   string
		domain string
		port   int
		dial   func(context.Context, string, string) (net.Conn, error)
		kind   errs.Kind
		field  string
		text   string
	}{
		{"empty", "", 443, dialer.DialContext, errs.KindInvalid, "domain", "required"},
		{"url", "https://example.com/", 443, dialer.DialContext, errs.KindInvalid, "domain", ""},
		{"port", "example.com:8443", 443, dialer.DialContext, errs.KindInvalid, "domain", ""},
		{"wildcard", "*.example.com", 443, dialer.DialContext, errs.KindInvalid, "domain", ""},
		{"long label", strings.Repeat("a", 64) + ".com", 443, dialer.DialContext, errs.KindInvalid, "domain", ""},
		{"numeric", "999.1", 443, dialer.DialContext, errs.KindInvalid, "domain", ""},
		{"not TLS", "localhost", ssh, dialer.DialContext, errs.KindUpstream, "", "TLS handshake with localhost failed"},
		{"silent", "127.0.0.1", silent, dialer.DialContext, errs.KindTimeout, "", "TLS handshake with 127.0.0.1 did not complete"},
		{"refused", "127.0.0.1", refused, dialer.DialContext, errs.KindUpstream, "", "could not connect to 127.0.0.1"},
		{"ssrf guard", "127.0.0.1", 443, guarded.DialService, errs.KindForbidden, "", "SSRF guard"},
		{"no dial", "localhost", 443, nil, errs.KindInternal, "", "Options.Dial is required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := tlsinspect.Inspect(context.Background(), tlsinspect.Input{Domain: c.domain},
				&tlsinspect.Options{Dial: c.dial, Port: c.port, Timeout: 200 * time.Millisecond})
			if errs.KindOf(err) != c.kind || errs.FieldOf(err) != c.field || err == nil || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("%v: kind %s field %q, want %s %q %q", err, errs.KindOf(err), errs.FieldOf(err), c.kind, c.field, c.text)
			}
		})
	}
}

// TestNotHTTP: a TLS server that closes after the handshake is inspected;
// only HSTS goes unchecked.
func TestNotHTTP(t *testing.T) {
	t.Parallel()
	ca := tlstest.NewCA(t)
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{ca.Issue(t, tlstest.Leaf{})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_ = c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	rep, err := tlsinspect.Inspect(context.Background(), tlsinspect.Input{Domain: "localhost"}, &tlsinspect.Options{
		Dial: dialer.DialContext, Verify: ca.Verify, Port: l.Addr().(*net.TCPAddr).Port, SkipLegacyProbe: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.HSTS.Checked || rep.HSTS.CheckError == "" || !rep.Trusted || slices.Contains(codes(rep), "hsts_missing") {
		t.Errorf("%+v", rep)
	}
}

// tcpPeer accepts connections on loopback and hands each to serve.
func tcpPeer(t *testing.T, serve func(net.Conn)) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}

func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// TestSlowHTTPAnswer: a host that never answers GET / costs half the time
// left; the report comes back with HSTS unchecked and the legacy probe done.
func TestSlowHTTPAnswer(t *testing.T) {
	t.Parallel()
	ca := tlstest.NewCA(t)
	srv := tlstest.Server(t, ca.Issue(t, tlstest.Leaf{}), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}), nil)
	rep, err := tlsinspect.Inspect(context.Background(), tlsinspect.Input{Domain: "localhost"}, &tlsinspect.Options{
		Dial: dialer.DialContext, Verify: ca.Verify, Port: tlstest.Port(srv), Timeout: 400 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.HSTS.Checked || !strings.Contains(rep.HSTS.CheckError, "timeout") || rep.LegacyProtocols == nil || !rep.LegacyProtocols.Checked {
		t.Errorf("hsts %+v legacy %+v", rep.HSTS, rep.LegacyProtocols)
	}
}
