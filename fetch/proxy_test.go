package fetch

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// testProxy is a real forward proxy on loopback: absolute-form requests
// for http targets and CONNECT tunnels for https ones. It records what it
// carried and adds "X-Via-Proxy: <name>" to requests it forwards.
type testProxy struct {
	name     string
	srv      *httptest.Server
	wantAuth string // when set, a Proxy-Authorization it must see
	mu       sync.Mutex
	seen     []string // "GET http://host/path" or "CONNECT host:port"
	auths    []string
}

func newTestProxy(t *testing.T, name string) *testProxy {
	t.Helper()
	p := &testProxy{name: name}
	upstream := &http.Transport{DisableCompression: true}
	t.Cleanup(upstream.CloseIdleConnections)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.serve(w, r, upstream)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// URL is the proxy's URL, with user:password when given.
func (p *testProxy) URL(userinfo ...string) string {
	u, _ := url.Parse(p.srv.URL)
	if len(userinfo) == 2 {
		u.User = url.UserPassword(userinfo[0], userinfo[1])
	}
	return u.String()
}

func (p *testProxy) record(line, auth string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, line)
	p.auths = append(p.auths, auth)
}

func (p *testProxy) carried() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.seen)
}

func (p *testProxy) serve(w http.ResponseWriter, r *http.Request, upstream *http.Transport) {
	auth := r.Header.Get("Proxy-Authorization")
	if r.Method == http.MethodConnect {
		p.record("CONNECT "+r.Host, auth)
	} else {
		p.record(r.Method+" "+r.URL.String(), auth)
	}
	if p.wantAuth != "" && auth != p.wantAuth {
		w.Header().Set("Proxy-Authenticate", `Basic realm="test"`)
		w.WriteHeader(http.StatusProxyAuthRequired)
		return
	}
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Header.Del("Proxy-Authorization")
	out.Header.Del("Proxy-Connection")
	out.Header.Set("X-Via-Proxy", p.name)
	resp, err := upstream.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

func (p *testProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	dst, err := net.Dial("tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		dst.Close()
		return
	}
	conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	pipe(conn, buf.Reader, dst)
}

// pipe copies both ways until one side ends, then closes both.
func pipe(client net.Conn, clientReader io.Reader, dst net.Conn) {
	done := make(chan struct{}, 2)
	go func() { io.Copy(dst, clientReader); done <- struct{}{} }()
	go func() { io.Copy(client, dst); done <- struct{}{} }()
	<-done
	client.Close()
	dst.Close()
}

// startSocks5 runs a minimal SOCKS5 server (CONNECT only; no auth, or
// username/password when user is set) and counts its tunnels.
func startSocks5(t *testing.T, user, pass string) (string, *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var tunnels atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				if dst, br, err := socksHandshake(c, user, pass); err == nil {
					tunnels.Add(1)
					pipe(c, br, dst)
				} else {
					c.Close()
				}
			}()
		}
	}()
	return l.Addr().String(), &tunnels
}

func socksHandshake(c net.Conn, user, pass string) (net.Conn, *bufio.Reader, error) {
	br := bufio.NewReader(c)
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(br, hdr); err != nil || hdr[0] != 5 {
		return nil, nil, errors.New("not socks5")
	}
	methods := make([]byte, hdr[1])
	io.ReadFull(br, methods)
	if user == "" {
		c.Write([]byte{5, 0})
	} else {
		if !slices.Contains(methods, 2) {
			c.Write([]byte{5, 0xff})
			return nil, nil, errors.New("no password method")
		}
		c.Write([]byte{5, 2})
		ver := make([]byte, 2)
		io.ReadFull(br, ver)
		u := make([]byte, ver[1])
		io.ReadFull(br, u)
		plen, _ := br.ReadByte()
		pw := make([]byte, plen)
		io.ReadFull(br, pw)
		if string(u) != user || string(pw) != pass {
			c.Write([]byte{1, 1})
			return nil, nil, errors.New("bad credentials")
		}
		c.Write([]byte{1, 0})
	}
	req := make([]byte, 4)
	if _, err := io.ReadFull(br, req); err != nil || req[1] != 1 {
		return nil, nil, errors.New("not a CONNECT")
	}
	var host string
	switch req[3] {
	case 1, 4:
		ip := make([]byte, map[byte]int{1: 4, 4: 16}[req[3]])
		io.ReadFull(br, ip)
		host = net.IP(ip).String()
	case 3:
		n, _ := br.ReadByte()
		name := make([]byte, n)
		io.ReadFull(br, name)
		host = string(name)
	}
	port := make([]byte, 2)
	io.ReadFull(br, port)
	dst, err := net.Dial("tcp", net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(port)))))
	if err != nil {
		c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
		return nil, nil, err
	}
	c.Write([]byte{5, 0, 0, 1, 0, 0, 0, 0, 0, 0})
	return dst, br, nil
}

// targetOnly returns a guard hook letting only srv through, so the
// fetcher's guard is otherwise fully on: only the proxy (operator
// configuration) and this target may be reached.
func targetOnly(t *testing.T, srv *httptest.Server) func(netip.AddrPort) bool {
	ap := addrPortOf(t, srv)
	return func(got netip.AddrPort) bool { return got == ap }
}

func strictFetcher(t *testing.T, o Options, allow func(netip.AddrPort) bool) *Fetcher {
	t.Helper()
	f, err := newFetcher(&o, allow)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.CloseIdleConnections)
	return f
}

func echoVia(w http.ResponseWriter, r *http.Request) {
	fmt.Fprintf(w, "<p>via %q</p>", r.Header.Get("X-Via-Proxy"))
}

func TestResidentialThroughHTTPProxy(t *testing.T) {
	t.Parallel()
	site := serve(t, echoVia)
	proxy := newTestProxy(t, "p0")
	// The guard is on: the loopback proxy is let through as configuration,
	// the loopback target only by the test hook.
	f := strictFetcher(t, Options{Proxies: []string{proxy.URL()}}, targetOnly(t, site))
	res, err := f.Fetch(context.Background(), Request{URL: site.URL + "/page", Tier: TierResidential})
	if err != nil {
		t.Fatal(err)
	}
	if res.TierUsed != TierResidential || !slices.Equal(res.CascadePath, []Tier{TierResidential}) ||
		string(res.Body) != `<p>via "p0"</p>` {
		t.Fatalf("tier %s path %v body %q", res.TierUsed, res.CascadePath, res.Body)
	}
	if got := proxy.carried(); !slices.Equal(got, []string{"GET " + site.URL + "/page"}) {
		t.Fatalf("proxy carried %v", got)
	}
}

func TestResidentialChecksTargetBeforeHandOff(t *testing.T) {
	t.Parallel()
	site, hits := countingServer(t)
	allowed := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, site.URL+"/secret", http.StatusFound)
	})
	proxy := newTestProxy(t, "p0")
	f := strictFetcher(t, Options{Proxies: []string{proxy.URL()}}, targetOnly(t, allowed))

	_, err := f.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential})
	assertRefused(t, err, "127.0.0.1 is a loopback address")
	if n := len(proxy.carried()); n != 0 {
		t.Fatalf("a refused target reached the proxy (%d requests)", n)
	}
	_, err = f.Fetch(context.Background(), Request{URL: allowed.URL, Tier: TierResidential})
	assertRefused(t, err, "redirect to "+site.URL+"/secret refused")
	if got := proxy.carried(); len(got) != 1 || hits.Load() != 0 {
		t.Fatalf("proxy carried %v; internal server hit %d times", got, hits.Load())
	}
}

func TestResidentialHTTPSThroughConnect(t *testing.T) {
	t.Parallel()
	cert, pool := localhostCert(t)
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "tls %v", r.TLS != nil)
	}))
	site.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	site.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	site.StartTLS()
	t.Cleanup(site.Close)
	proxy := newTestProxy(t, "p0")
	f := strictFetcher(t, Options{Proxies: []string{proxy.URL()}, RootCAs: pool}, targetOnly(t, site))
	port := site.Listener.Addr().(*net.TCPAddr).Port
	target := fmt.Sprintf("https://localhost:%d/", port)
	res, err := f.Fetch(context.Background(), Request{URL: target, Tier: TierResidential})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "tls true" || !slices.Equal(proxy.carried(), []string{fmt.Sprintf("CONNECT localhost:%d", port)}) {
		t.Fatalf("body %q, proxy carried %v", res.Body, proxy.carried())
	}
	// The target's certificate is still checked inside the tunnel.
	_, err = strictFetcher(t, Options{Proxies: []string{proxy.URL()}}, targetOnly(t, site)).
		Fetch(context.Background(), Request{URL: target, Tier: TierResidential})
	wantErr(t, err, errs.KindUpstream, "TLS certificate not trusted")
}

// localhostCert is a self-signed certificate for localhost and 127.0.0.1,
// and a pool trusting it.
func localhostCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

func TestResidentialThroughSocks5(t *testing.T) {
	t.Parallel()
	site := serve(t, echoVia)
	for _, tt := range []struct{ name, user, pass, url string }{
		{"no auth", "", "", "socks5://%s"},
		{"password", "u", "p@ss", "socks5h://u:p%%40ss@%s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr, tunnels := startSocks5(t, tt.user, tt.pass)
			f := strictFetcher(t, Options{Proxies: []string{fmt.Sprintf(tt.url, addr)}}, targetOnly(t, site))
			res, err := f.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential})
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Body) != `<p>via ""</p>` || tunnels.Load() != 1 {
				t.Fatalf("body %q, tunnels %d", res.Body, tunnels.Load())
			}
		})
	}
}

func TestResidentialProxyCredentials(t *testing.T) {
	t.Parallel()
	site := serve(t, echoVia)
	proxy := newTestProxy(t, "p0")
	proxy.wantAuth = "Basic " + base64.StdEncoding.EncodeToString([]byte("user:secret"))
	with := privateFetcher(t, Options{Proxies: []string{proxy.URL("user", "secret")}})
	res, err := with.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential})
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("with credentials: %v, %+v", err, res)
	}
	without := privateFetcher(t, Options{Proxies: []string{proxy.URL("user", "wrong")}})
	_, err = without.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential})
	wantErr(t, err, errs.KindUnavailable, "the residential proxy refused our credentials (HTTP 407)")
	if strings.Contains(err.Error(), "wrong") {
		t.Errorf("the proxy password leaked into the error: %v", err)
	}
	// Through a CONNECT tunnel the 407 is the transport's error.
	tlsSite := httptest.NewTLSServer(http.HandlerFunc(echoVia))
	t.Cleanup(tlsSite.Close)
	_, err = without.Fetch(context.Background(), Request{URL: tlsSite.URL, Tier: TierResidential})
	wantErr(t, err, errs.KindUnavailable, "refused our credentials")
}

func TestResidentialProxyDown(t *testing.T) {
	t.Parallel()
	site := serve(t, echoVia)
	f := privateFetcher(t, Options{Proxies: []string{"http://" + closedAddr(t)}})
	_, err := f.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential})
	wantErr(t, err, errs.KindUnavailable, "the residential proxy could not be reached")
}

func TestResidentialRotation(t *testing.T) {
	t.Parallel()
	site := serve(t, echoVia)
	proxies := []*testProxy{newTestProxy(t, "p0"), newTestProxy(t, "p1"), newTestProxy(t, "p2")}
	var urls []string
	for _, p := range proxies {
		urls = append(urls, p.URL())
	}
	f := privateFetcher(t, Options{Proxies: urls})
	via := func(choice string) string {
		t.Helper()
		res, err := f.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential, Proxy: choice})
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(strings.TrimPrefix(string(res.Body), `<p>via "`), `"</p>`)
	}
	// Sequential on purpose: round-robin order is the point.
	var got []string
	for range 6 {
		got = append(got, via(""))
	}
	if !slices.Equal(got, []string{"p0", "p1", "p2", "p0", "p1", "p2"}) {
		t.Errorf("round-robin gave %v", got)
	}
	if got := via("#2"); got != "p2" {
		t.Errorf("#2 gave %s", got)
	}
	sticky := via("session-42")
	for range 4 {
		if got := via("session-42"); got != sticky {
			t.Fatalf("sticky key moved from %s to %s", sticky, got)
		}
	}
	_, err := f.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential, Proxy: "#3"})
	wantErr(t, err, errs.KindInvalid, "#0 to #2")
	if errs.FieldOf(err) != "proxy" {
		t.Errorf("field %q, want proxy", errs.FieldOf(err))
	}
}

// proxyFunc adapts a function to the Proxy seam.
type proxyFunc func(ctx context.Context, choice string) (*url.URL, error)

func (f proxyFunc) ProxyFor(ctx context.Context, choice string) (*url.URL, error) {
	return f(ctx, choice)
}

func TestProxySeam(t *testing.T) {
	t.Parallel()
	site := serve(t, echoVia)
	proxy := newTestProxy(t, "provided")
	var choices []string
	var mu sync.Mutex
	provider := proxyFunc(func(_ context.Context, choice string) (*url.URL, error) {
		mu.Lock()
		defer mu.Unlock()
		choices = append(choices, choice)
		return url.Parse(proxy.URL())
	})
	f := strictFetcher(t, Options{Proxy: provider}, targetOnly(t, site))
	res, err := f.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential, Proxy: "acct-7"})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != `<p>via "provided"</p>` || !slices.Equal(choices, []string{"acct-7"}) {
		t.Fatalf("body %q, choices %v", res.Body, choices)
	}
	failing := privateFetcher(t, Options{Proxy: proxyFunc(func(context.Context, string) (*url.URL, error) {
		return nil, errs.New(errs.KindUnavailable, "pool exhausted")
	})})
	_, err = failing.Fetch(context.Background(), Request{URL: site.URL, Tier: TierResidential})
	wantErr(t, err, errs.KindUnavailable, "pool exhausted")
}

func TestProxyOptionsInvalid(t *testing.T) {
	t.Parallel()
	tests := map[string]Options{
		"ftp scheme":    {Proxies: []string{"ftp://proxy.example:21"}},
		"no host":       {Proxies: []string{"http://"}},
		"path":          {Proxies: []string{"http://proxy.example:8080/x"}},
		"unparsable":    {Proxies: []string{"http://[::1"}},
		"list and seam": {Proxies: []string{"http://proxy.example:8080"}, Proxy: proxyFunc(nil)},
	}
	for name, o := range tests {
		_, err := New(&o)
		if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != "options.proxies" {
			t.Errorf("%s: err = %v, want invalid options.proxies", name, err)
		}
	}
	if _, err := New(&Options{Proxies: []string{"http://u:p@proxy.example:3128", "https://p.example", "socks5://10.0.0.1:1080"}}); err != nil {
		t.Errorf("valid proxies refused: %v", err)
	}
}

func TestProxyAddr(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"http://Proxy.Example":         "proxy.example:80",
		"https://proxy.example":        "proxy.example:443",
		"socks5://u:p@10.0.0.1":        "10.0.0.1:1080",
		"http://[2001:db8::1]:3128":    "[2001:db8::1]:3128",
		"socks5h://proxy.example:9050": "proxy.example:9050",
	} {
		u, _ := url.Parse(raw)
		if got := proxyAddr(u); got != want {
			t.Errorf("proxyAddr(%s) = %s, want %s", raw, got, want)
		}
	}
}
