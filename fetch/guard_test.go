package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"code.dny.dev/ssrf"

	"github.com/webinfra/webinfra/errs"
)

// countingServer is a loopback server that counts the requests reaching it,
// to prove refused fetches never arrive.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("internal secret"))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func addrPortOf(t *testing.T, srv *httptest.Server) netip.AddrPort {
	t.Helper()
	return netip.MustParseAddrPort(srv.Listener.Addr().String())
}

// assertRefused checks err is a guard refusal whose message contains want.
func assertRefused(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatal("fetch succeeded, want SSRF refusal")
	}
	if k := errs.KindOf(err); k != errs.KindForbidden {
		t.Fatalf("kind = %q, want forbidden; err = %v", k, err)
	}
	if !strings.Contains(err.Error(), "(SSRF guard)") || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not name the rule %q", err, want)
	}
}

func TestFetchRefusesInternalAddresses(t *testing.T) {
	t.Parallel()
	f, err := New(nil) // the guard fully on: no hook, default ports
	if err != nil {
		t.Fatal(err)
	}
	// Every target is refused in Dialer.Control, after the socket is made
	// and before connect, so no packet leaves even for non-loopback ones.
	tests := []struct {
		url  string
		want string
	}{
		{"http://127.0.0.1/", "127.0.0.1 is a loopback address"},
		{"http://localhost/", "127.0.0.1 is a loopback address"},
		{"https://0.0.0.0/", "0.0.0.0 is an unspecified"},
		{"http://10.0.0.1/", "10.0.0.1 is a private address"},
		{"http://172.16.0.1/", "172.16.0.1 is a private address"},
		{"http://192.168.1.1/", "192.168.1.1 is a private address"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"},
		{"http://100.64.0.1/", "100.64.0.1 is a shared address space (CGNAT) address"},
		{"http://[::1]/", "::1 is a loopback address"},
		{"http://[::ffff:127.0.0.1]/", "loopback address"},
		{"http://[fc00::1]/", "fc00::1 is a unique-local address"},
		{"http://[fe80::1]/", "fe80::1 is a link-local address"},
		{"http://127.0.0.1:22/", "127.0.0.1 is a loopback address"}, // address rule named before port rule
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			_, err := f.Fetch(context.Background(), Request{URL: tt.url})
			assertRefused(t, err, tt.want)
			if !errors.Is(err, ssrf.ErrProhibitedIP) {
				t.Errorf("error %v does not wrap ssrf.ErrProhibitedIP", err)
			}
		})
	}
}

func TestFetchRefusesLiveLoopbackServer(t *testing.T) {
	t.Parallel()
	srv, hits := countingServer(t)
	port := addrPortOf(t, srv).Port()
	f, err := New(&Options{AllowedPorts: []int{int(port)}}) // port allowed, address not
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"127.0.0.1", "localhost"} {
		u := "http://" + host + ":" + strconv.Itoa(int(port)) + "/"
		_, err := f.Fetch(context.Background(), Request{URL: u})
		assertRefused(t, err, "127.0.0.1 is a loopback address")
	}
	if _, err := f.Client().Get(srv.URL); errs.KindOf(err) != errs.KindForbidden {
		t.Errorf("Client().Get(loopback) error = %v, want forbidden", err)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("loopback server got %d requests, want 0", n)
	}
}

func TestFetchRefusesRedirectToInternal(t *testing.T) {
	t.Parallel()
	inner, hits := countingServer(t)
	innerPort := strconv.Itoa(int(addrPortOf(t, inner).Port()))
	tests := []struct {
		name, location string
	}{
		{"loopback address", inner.URL + "/secret"},
		{"name resolving to loopback", "http://localhost:" + innerPort + "/secret"},
		{"metadata address", "http://169.254.169.254/latest/meta-data/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			outer := httptest.NewServer(http.RedirectHandler(tt.location, http.StatusFound))
			t.Cleanup(outer.Close)
			outerAddr := addrPortOf(t, outer)
			// The hook lets exactly the first server through; the guard's
			// real rules then judge the redirect target.
			f, err := newFetcher(&Options{AllowedPorts: []int{int(outerAddr.Port())}},
				func(ap netip.AddrPort) bool { return ap == outerAddr })
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(f.CloseIdleConnections)
			_, err = f.Fetch(context.Background(), Request{URL: outer.URL + "/start"})
			if errs.KindOf(err) != errs.KindForbidden || !strings.Contains(err.Error(), "(SSRF guard)") {
				t.Fatalf("err = %v, want SSRF refusal", err)
			}
		})
	}
	t.Cleanup(func() {
		if n := hits.Load(); n != 0 {
			t.Errorf("internal server got %d requests, want 0", n)
		}
	})
}

func TestGuardRules(t *testing.T) {
	t.Parallel()
	on, err := (&Options{}).resolve()
	if err != nil {
		t.Fatal(err)
	}
	g := newGuard(&on, nil)
	open := newGuard(&Options{AllowPrivateNetworks: true}, nil)
	intranet := newGuard(&Options{AllowedPorts: DefaultAllowedPorts, AllowNetworks: []netip.Prefix{
		netip.MustParsePrefix("10.1.0.0/16"), netip.MustParsePrefix("169.254.169.254/32")}}, nil)
	tests := []struct {
		addr    string
		g       *guard
		wantErr error // nil: allowed
	}{
		{"93.184.215.14:443", g, nil},
		{"93.184.215.14:80", g, nil},
		{"[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:443", g, nil},
		{"93.184.215.14:22", g, ssrf.ErrProhibitedPort},
		{"93.184.215.14:6379", g, ssrf.ErrProhibitedPort},
		{"127.0.0.1:80", g, ssrf.ErrProhibitedIP},
		{"[::ffff:10.0.0.1]:80", g, ssrf.ErrProhibitedIP},
		{"[fd00:ec2::254]:80", g, ssrf.ErrProhibitedIP},
		{"[64:ff9b::7f00:1]:80", g, ssrf.ErrProhibitedIP},
		{"192.0.2.1:80", g, ssrf.ErrProhibitedIP},
		{"224.0.0.1:80", g, ssrf.ErrProhibitedIP},
		{"127.0.0.1:6379", open, nil},
		// Metadata stays refused when private networks are allowed.
		{"169.254.169.254:80", open, ssrf.ErrProhibitedIP},
		{"[fd00:ec2::254]:80", open, ssrf.ErrProhibitedIP},
		{"100.100.100.200:80", open, ssrf.ErrProhibitedIP},
		{"[::ffff:169.254.169.254]:80", open, ssrf.ErrProhibitedIP},
		// --allow-networks: its networks on any port, the rest as before.
		{"10.1.2.3:8443", intranet, nil},
		{"[::ffff:10.1.2.3]:80", intranet, nil},
		{"169.254.169.254:80", intranet, nil},
		{"10.2.0.1:80", intranet, ssrf.ErrProhibitedIP},
		{"127.0.0.1:80", intranet, ssrf.ErrProhibitedIP},
		{"93.184.215.14:22", intranet, ssrf.ErrProhibitedPort},
		{"not-an-address", g, ssrf.ErrInvalidHostPort},
	}
	for _, tt := range tests {
		err := tt.g.control("tcp", tt.addr, nil)
		if tt.wantErr == nil {
			if err != nil {
				t.Errorf("control(%s) = %v, want allowed", tt.addr, err)
			}
			continue
		}
		if !errors.Is(err, tt.wantErr) || errs.KindOf(err) != errs.KindForbidden {
			t.Errorf("control(%s) = %v, want forbidden wrapping %v", tt.addr, err, tt.wantErr)
		}
	}
}

func TestDescribeAddr(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"127.0.0.1":        "a loopback address",
		"::ffff:127.0.0.1": "an IPv4-mapped IPv6 form of a loopback address",
		"169.254.169.254":  "a cloud metadata address",
		"169.254.1.1":      "a link-local address",
		"10.1.2.3":         "a private address",
		"fd12::1":          "a unique-local address",
		"100.64.0.1":       "a shared address space (CGNAT) address",
		"0.1.2.3":          "an unspecified (\"this network\") address",
		"::":               "an unspecified (\"this network\") address",
		"239.1.1.1":        "a multicast address",
		"64:ff9b::1":       "a NAT64 address",
		"198.18.0.1":       "a reserved or special-purpose address",
	}
	for addr, want := range tests {
		if got := describeAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("describeAddr(%s) = %q, want %q", addr, got, want)
		}
	}
}

// A refusal tells whoever runs the server how to open the door.
func TestGuardRefusalNamesTheWayOut(t *testing.T) {
	t.Parallel()
	on, _ := (&Options{}).resolve()
	g := newGuard(&on, nil)
	err := g.control("tcp", "10.0.0.5:80", nil)
	for _, want := range []string{"a private address", "--allow-networks 10.0.0.5/32", "WEBINFRA_ALLOW_NETWORKS", "--allow-private-networks"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q lacks %q", err, want)
		}
	}
	open := newGuard(&Options{AllowPrivateNetworks: true}, nil)
	if err := open.control("tcp", "169.254.169.254:80", nil); err == nil || !strings.Contains(err.Error(), "only --allow-networks 169.254.169.254/32") {
		t.Errorf("metadata refusal %q", err)
	}
}

func TestDialServiceKeepsTheAddressRuleButNotThePortRule(t *testing.T) {
	t.Parallel()
	strict, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := strict.DialService(context.Background(), "tcp", ln.Addr().String()); !errs.Is(err, errs.KindForbidden) {
		t.Fatalf("loopback dial through the guard: %v", err)
	}
	open, err := New(&Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := open.DialService(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("allowed dial: %v", err)
	}
	c.Close()
}
