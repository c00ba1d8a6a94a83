package tlstest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ocsp"
)

// CA is a certificate authority made for one test.
type CA struct {
	Cert *x509.Certificate
	Key  crypto.Signer
}

// serials numbers the certificates of a test run.
var serials atomic.Int64

func nextSerial() *big.Int { return big.NewInt(1000 + serials.Add(1)) }

// NewCA makes a root CA valid from an hour ago for ten years.
func NewCA(tb testing.TB) *CA {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: nextSerial(), Subject: pkix.Name{CommonName: "Webinfra Test Root CA", Organization: []string{"Webinfra Tests"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(10, 0, 0),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		tb.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	return &CA{Cert: cert, Key: key}
}

// Pool is a pool holding only the CA.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// Verify verifies a chain against the CA alone, for host ("" skips the
// host name check), as tlsinspect.Options.Verify wants.
func (ca *CA) Verify(certs []*x509.Certificate, host string) error {
	opts := x509.VerifyOptions{Roots: ca.Pool(), DNSName: host, Intermediates: x509.NewCertPool()}
	for _, c := range certs[1:] {
		opts.Intermediates.AddCert(c)
	}
	_, err := certs[0].Verify(opts)
	return err
}

// Leaf describes a server certificate.
type Leaf struct {
	DNSNames  []string // default: "localhost"
	IPs       []net.IP // default: 127.0.0.1
	NotBefore time.Time
	NotAfter  time.Time // default: NotBefore + 90 days; NotBefore defaults to an hour ago
	RSABits   int       // 0: an ECDSA P-256 key
	// SignatureAlgorithm is how the issuer signs it (x509.ECDSAWithSHA1
	// for a weak signature from the CA); 0 means the issuer key's default.
	SignatureAlgorithm x509.SignatureAlgorithm
}

func (l Leaf) template() *x509.Certificate {
	if l.DNSNames == nil {
		l.DNSNames = []string{"localhost"}
	}
	if l.IPs == nil {
		l.IPs = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	if l.NotBefore.IsZero() {
		l.NotBefore = time.Now().Add(-time.Hour)
	}
	if l.NotAfter.IsZero() {
		l.NotAfter = l.NotBefore.AddDate(0, 0, 90)
	}
	return &x509.Certificate{
		SerialNumber: nextSerial(), Subject: pkix.Name{CommonName: l.DNSNames[0]},
		DNSNames: l.DNSNames, IPAddresses: l.IPs, NotBefore: l.NotBefore, NotAfter: l.NotAfter,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		SignatureAlgorithm: l.SignatureAlgorithm,
	}
}

func (l Leaf) key(tb testing.TB) crypto.Signer {
	tb.Helper()
	var key crypto.Signer
	var err error
	if l.RSABits > 0 {
		key, err = rsa.GenerateKey(rand.Reader, l.RSABits)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return key
}

// Issue signs a leaf with the CA. The chain a server presents holds the
// leaf and the CA certificate (as an intermediate would be sent), so an
// OCSP staple's signature can be checked against it.
func (ca *CA) Issue(tb testing.TB, l Leaf) tls.Certificate {
	tb.Helper()
	key := l.key(tb)
	der, err := x509.CreateCertificate(rand.Reader, l.template(), ca.Cert, key.Public(), ca.Key)
	if err != nil {
		tb.Fatal(err)
	}
	return chain(tb, key, der, ca.Cert.Raw)
}

// SelfSigned makes a leaf signed by its own key.
func SelfSigned(tb testing.TB, l Leaf) tls.Certificate {
	tb.Helper()
	key := l.key(tb)
	tmpl := l.template()
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		tb.Fatal(err)
	}
	return chain(tb, key, der)
}

func chain(tb testing.TB, key crypto.Signer, ders ...[]byte) tls.Certificate {
	tb.Helper()
	leaf, err := x509.ParseCertificate(ders[0])
	if err != nil {
		tb.Fatal(err)
	}
	return tls.Certificate{Certificate: ders, PrivateKey: key, Leaf: leaf}
}

// Staple is an OCSP response from the CA for cert with the given status
// (ocsp.Good, ocsp.Revoked, ocsp.Unknown), valid from an hour ago until
// nextUpdate; set it as tls.Certificate.OCSPStaple.
func (ca *CA) Staple(tb testing.TB, cert tls.Certificate, status int, nextUpdate time.Time) []byte {
	tb.Helper()
	tmpl := ocsp.Response{
		Status: status, SerialNumber: cert.Leaf.SerialNumber,
		ThisUpdate: time.Now().Add(-time.Hour), NextUpdate: nextUpdate,
	}
	if status == ocsp.Revoked {
		tmpl.RevokedAt, tmpl.RevocationReason = time.Now().Add(-30*time.Minute), ocsp.KeyCompromise
	}
	raw, err := ocsp.CreateResponse(ca.Cert, ca.Cert, tmpl, ca.Key)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// Server starts an HTTPS server on 127.0.0.1 with cert, answering every
// request with handler (nil: 200 with an empty body). configure, when not
// nil, adjusts the TLS configuration (MinVersion, for instance) before
// the server starts. The server is closed when the test ends.
func Server(tb testing.TB, cert tls.Certificate, handler http.Handler, configure func(*tls.Config)) *httptest.Server {
	tb.Helper()
	if handler == nil {
		handler = http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	}
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes (legacy probes) are expected
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	if configure != nil {
		configure(srv.TLS)
	}
	srv.StartTLS()
	tb.Cleanup(srv.Close)
	return srv
}

// Port is the port a test server listens on.
func Port(srv *httptest.Server) int {
	return srv.Listener.Addr().(*net.TCPAddr).Port
}

// HSTS is a handler that sends Strict-Transport-Security with value.
func HSTS(value string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Strict-Transport-Security", value)
	})
}
