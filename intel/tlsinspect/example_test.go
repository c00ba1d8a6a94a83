package tlsinspect_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/webinfra/webinfra/intel/tlsinspect"
)

// Inspect a loopback HTTPS server. In production Dial is
// fetch.Fetcher.DialService (the SSRF guard refuses loopback) and Verify
// is fetch.Fetcher.VerifyChain.
func ExampleInspect() {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the legacy probe's refused handshake
	srv.StartTLS()
	defer srv.Close()

	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate()) // httptest's own self-signed certificate
	verify := func(certs []*x509.Certificate, host string) error {
		_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, DNSName: host})
		return err
	}
	rep, err := tlsinspect.Inspect(context.Background(), tlsinspect.Input{Domain: "127.0.0.1"}, &tlsinspect.Options{
		Dial:   (&net.Dialer{}).DialContext,
		Verify: verify,
		Port:   srv.Listener.Addr().(*net.TCPAddr).Port,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.Protocol, "trusted:", rep.Trusted, "name:", rep.HostnameMatch, "hsts:", rep.HSTS.MaxAge)
	fmt.Println("TLS 1.0/1.1 accepted:", rep.LegacyProtocols.Accepted)
	for _, p := range rep.Problems {
		fmt.Println(p.Severity, p.Code)
	}
	// Output:
	// TLS 1.3 trusted: true name: true hsts: 31536000
	// TLS 1.0/1.1 accepted: false
	// error self_signed
	// info ocsp_not_stapled
}
