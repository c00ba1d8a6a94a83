package resolver

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/dnstest"
)

const zone = `
$ORIGIN example.test.
$TTL 300
@        SOA   ns1 hostmaster 2024010101 7200 900 1209600 60
@        NS    ns1
ns1      A     127.0.0.1
@        A     192.0.2.1
@        AAAA  2001:db8::1
@        MX    10 mail
@        MX    20 backup.example.net.
@        TXT   "v=spf1 " "-all"
@        TXT   "say \"hi\" caf\195\169"
@        CAA   0 issue "letsencrypt.org"
@        HTTPS 1 . alpn=h2
www      CNAME web
web      A     192.0.2.2
_sip._tcp SRV  10 60 5060 sip
xn--bcher-kva TXT "idn"
14.215.184.93.in-addr.arpa. PTR www.example.test.
`

// newResolver asks srv for the default resolver and for "cloudflare".
func newResolver(t *testing.T, servers ...string) *Resolver {
	t.Helper()
	r, err := New(&Options{Servers: servers, Named: map[string][]string{"cloudflare": servers}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLookup(t *testing.T) {
	t.Parallel()
	srv := dnstest.Start(t, zone)
	srv.ServFail("broken.example.test")
	r := newResolver(t, srv.Addr())
	cases := []struct {
		in    LookupInput
		rcode string
		check func(*LookupResult) string // "" when fine
	}{
		{LookupInput{Domain: "Example.Test."}, "NOERROR", values("192.0.2.1")},
		{LookupInput{Domain: "example.test", Type: "aaaa"}, "NOERROR", values("2001:db8::1")},
		{LookupInput{Domain: "example.test", Type: "MX", Resolver: "cloudflare"}, "NOERROR", func(res *LookupResult) string {
			a := res.Answers
			if res.Resolver != "cloudflare" || len(a) != 2 || *a[0].Priority != 10 || a[0].Target != "mail.example.test" || a[1].Target != "backup.example.net" {
				return fmt.Sprintf("%+v", res)
			}
			return ""
		}},
		{LookupInput{Domain: "example.test", Type: "TXT"}, "NOERROR", texts("v=spf1 -all", `say "hi" café`)},
		{LookupInput{Domain: "example.test", Type: "CAA"}, "NOERROR", func(res *LookupResult) string {
			if a := res.Answers[0]; a.Tag != "issue" || a.Text != "letsencrypt.org" || *a.Flags != 0 || a.Value != `0 issue "letsencrypt.org"` {
				return fmt.Sprintf("%+v", a)
			}
			return ""
		}},
		{LookupInput{Domain: "example.test", Type: "HTTPS"}, "NOERROR", values("1 . alpn=\"h2\"")},
		{LookupInput{Domain: "www.example.test"}, "NOERROR", func(res *LookupResult) string {
			a := res.Answers
			if len(a) != 2 || a[0].Type != "CNAME" || a[0].Target != "web.example.test" || a[1].Value != "192.0.2.2" || a[1].TTL != 300 {
				return fmt.Sprintf("%+v", a)
			}
			return ""
		}},
		{LookupInput{Domain: "_sip._tcp.example.test", Type: "SRV"}, "NOERROR", func(res *LookupResult) string {
			if a := res.Answers[0]; *a.Priority != 10 || *a.Weight != 60 || *a.Port != 5060 || a.Target != "sip.example.test" {
				return fmt.Sprintf("%+v", a)
			}
			return ""
		}},
		{LookupInput{Domain: "bücher.example.test", Type: "TXT"}, "NOERROR", texts("idn")},
		{LookupInput{Domain: "93.184.215.14"}, "NOERROR", func(res *LookupResult) string {
			if res.Domain != "14.215.184.93.in-addr.arpa" || res.Type != "PTR" || res.Answers[0].Target != "www.example.test" {
				return fmt.Sprintf("%+v", res)
			}
			return ""
		}},
		{LookupInput{Domain: "nope.example.test"}, "NXDOMAIN", func(res *LookupResult) string {
			if len(res.Answers) != 0 || len(res.Authority) != 1 || res.Authority[0].Type != "SOA" || res.Authority[0].Target != "ns1.example.test" {
				return fmt.Sprintf("%+v", res)
			}
			return ""
		}},
		{LookupInput{Domain: "broken.example.test"}, "SERVFAIL", values()},
		{LookupInput{Domain: "example.test", Type: "TYPE99"}, "NOERROR", values()},
	}
	for _, c := range cases {
		res, err := r.Lookup(context.Background(), c.in)
		if err != nil {
			t.Errorf("%+v: %v", c.in, err)
			continue
		}
		if res.Rcode != c.rcode {
			t.Errorf("%+v: rcode %s, want %s", c.in, res.Rcode, c.rcode)
		}
		if msg := c.check(res); msg != "" {
			t.Errorf("%+v: %s", c.in, msg)
		}
		if res.Truncated || res.Authenticated {
			t.Errorf("%+v: truncated %v, authenticated %v", c.in, res.Truncated, res.Authenticated)
		}
	}
}

func values(want ...string) func(*LookupResult) string {
	return func(res *LookupResult) string {
		var got []string
		for _, a := range res.Answers {
			got = append(got, a.Value)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			return fmt.Sprintf("values %q, want %q", got, want)
		}
		return ""
	}
}

func texts(want ...string) func(*LookupResult) string {
	return func(res *LookupResult) string {
		var got []string
		for _, a := range res.Answers {
			got = append(got, a.Text)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			return fmt.Sprintf("texts %q, want %q", got, want)
		}
		return ""
	}
}

func TestDNSSEC(t *testing.T) {
	t.Parallel()
	srv := dnstest.Start(t, zone)
	srv.Sign("example.test")
	r := newResolver(t, srv.Addr())
	for _, dnssec := range []bool{true, false} {
		res, err := r.Lookup(context.Background(), LookupInput{Domain: "example.test", DNSSEC: dnssec})
		if err != nil || res.Authenticated != dnssec {
			t.Errorf("dnssec %v: authenticated %v, err %v", dnssec, res != nil && res.Authenticated, err)
		}
	}
}

func TestTruncatedAnswerRetriesOverTCP(t *testing.T) {
	t.Parallel()
	var big strings.Builder
	for i := range 30 {
		fmt.Fprintf(&big, "big.test. 60 TXT \"%02d %s\"\n", i, strings.Repeat("x", 100))
	}
	srv := dnstest.Start(t, big.String())
	r := newResolver(t, srv.Addr())
	res, err := r.Lookup(context.Background(), LookupInput{Domain: "big.test", Type: "TXT"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Answers) != 30 {
		t.Errorf("truncated %v with %d answers, want true with 30", res.Truncated, len(res.Answers))
	}
	if log := srv.Log(); len(log) != 2 || log[0].TCP || !log[1].TCP {
		t.Errorf("queries %+v, want UDP then TCP", log)
	}
}

// closedAddr is a loopback address where nothing listens, over UDP or TCP.
func closedAddr(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	return addr
}

func TestSourceFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		mode    dnstest.Mode
		closed  bool
		kinds   []errs.Kind
		message string
		queries int
	}{
		{"no answer", dnstest.Silent, false, []errs.Kind{errs.KindTimeout}, "DNS resolver did not answer within 150ms (2 tries)", 2},
		{"truncated over TCP", dnstest.AlwaysTruncate, false, []errs.Kind{errs.KindUpstream}, "DNS resolver sent a truncated answer even over TCP", 4},
		{"garbage", dnstest.Garbage, false, []errs.Kind{errs.KindUpstream}, "DNS resolver sent an answer that cannot be read", 2},
		// Connection refused reaches a UDP socket on loopback as ICMP;
		// where it does not, the try times out.
		{"unreachable", dnstest.Answer, true, []errs.Kind{errs.KindUpstream, errs.KindTimeout}, "DNS resolver", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := dnstest.Start(t, zone)
			srv.SetMode(c.mode)
			addr := srv.Addr()
			if c.closed {
				addr = closedAddr(t)
			}
			r, err := New(&Options{Servers: []string{addr}, Timeout: 150 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Lookup(context.Background(), LookupInput{Domain: "example.test"})
			if err == nil || !kindIn(err, c.kinds) || !strings.Contains(err.Error(), c.message) {
				t.Fatalf("error %v (kind %s), want %v containing %q", err, errs.KindOf(err), c.kinds, c.message)
			}
			t.Log(err)
			_, port, _ := net.SplitHostPort(addr)
			if strings.Contains(err.Error(), "127.0.0.1") || strings.Contains(err.Error(), port) {
				t.Errorf("the error names the resolver's address: %v", err)
			}
			if srv.Queries() != c.queries {
				t.Errorf("%d queries, want %d", srv.Queries(), c.queries)
			}
		})
	}
}

func kindIn(err error, kinds []errs.Kind) bool {
	for _, k := range kinds {
		if errs.Is(err, k) {
			return true
		}
	}
	return false
}

func TestNextServerAfterFailure(t *testing.T) {
	t.Parallel()
	srv := dnstest.Start(t, zone)
	silent := dnstest.Start(t, zone)
	silent.SetMode(dnstest.Silent)
	for _, first := range []string{closedAddr(t), silent.Addr()} {
		r, err := New(&Options{Servers: []string{first, srv.Addr()}, Timeout: 150 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if res, err := r.Lookup(context.Background(), LookupInput{Domain: "example.test"}); err != nil || len(res.Answers) != 1 {
			t.Errorf("first server %s: %v", first, err)
		}
	}
	if srv.Queries() != 2 {
		t.Errorf("the second server got %d queries, want 2", srv.Queries())
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	srv := dnstest.Start(t, zone)
	srv.SetMode(dnstest.Silent)
	r, _ := New(&Options{Servers: []string{srv.Addr()}, Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	srv.OnQuery(func(dnstest.Query) { cancel() }) // once the query is out
	if _, _, err := r.Exchange(ctx, "example.test", dns.TypeA, "", false); err != context.Canceled {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	r := newResolver(t, "127.0.0.1:53")
	cases := []struct {
		in    LookupInput
		field string
		msg   string
	}{
		{LookupInput{Domain: "example.com", Type: "ANY"}, "type", "RFC 8482"},
		{LookupInput{Domain: "example.com", Type: "axfr"}, "type", "zone transfers"},
		{LookupInput{Domain: "example.com", Type: "BOGUS"}, "type", "unknown record type"},
		{LookupInput{Domain: "example.com", Resolver: "10.0.0.1:53"}, "resolver", "one of default, cloudflare"},
		{LookupInput{Domain: ""}, "domain", "required"},
		{LookupInput{Domain: "a..example.com"}, "domain", "empty label"},
		{LookupInput{Domain: "-a.example.com"}, "domain", "hyphen"},
		{LookupInput{Domain: "a b.example.com"}, "domain", "character"},
		{LookupInput{Domain: strings.Repeat("a", 64) + ".com"}, "domain", "longer than 63"},
		{LookupInput{Domain: strings.Repeat("abcdefghi.", 26) + "com"}, "domain", "longer than 253"},
		{LookupInput{Domain: "xn--a.com\u0000"}, "domain", "character"},
	}
	for _, c := range cases {
		_, err := r.Lookup(context.Background(), c.in)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%+v: %v (field %q), want invalid %s containing %q", c.in, err, errs.FieldOf(err), c.field, c.msg)
		}
	}
}

func TestCanonical(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		" Example.COM. ":        "example.com",
		"bücher.example":        "xn--bcher-kva.example",
		"例え。テスト":                "xn--r8jz45g.xn--zckzah",
		"_dmarc.example.com":    "_dmarc.example.com",
		"xn--bcher-kva.example": "xn--bcher-kva.example",
	}
	for in, want := range cases {
		if got, err := Canonical("domain", in); err != nil || got != want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestNewOptions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		opts  Options
		field string
	}{
		{Options{Servers: []string{"not an address:xx"}}, "servers"},
		{Options{Servers: []string{"127.0.0.1:0"}}, "servers"},
		{Options{Named: map[string][]string{"default": {"127.0.0.1:53"}}}, "named"},
		{Options{Named: map[string][]string{"Bad Name": {"127.0.0.1:53"}}}, "named"},
		{Options{Named: map[string][]string{"x": {"nope:"}}}, "named.x"},
		{Options{Attempts: 99}, "attempts"},
	}
	for _, c := range cases {
		if _, err := New(&c.opts); !errs.Is(err, errs.KindInvalid) || !strings.HasPrefix(errs.FieldOf(err)+err.Error(), c.field) {
			t.Errorf("%+v: %v, want invalid %s", c.opts, err, c.field)
		}
	}
	r, err := New(&Options{Servers: []string{"127.0.0.1", "[::1]:5353", "localhost:53"}})
	if err != nil || r.servers[0] != "127.0.0.1:53" || r.servers[1] != "[::1]:5353" || len(r.servers) < 3 {
		t.Errorf("servers %v, err %v", r.servers, err)
	}
	if got := strings.Join(r.Names(), ","); got != "default,cloudflare,google,quad9" {
		t.Errorf("Names = %s", got)
	}
}

func TestNoResolverConfigured(t *testing.T) {
	t.Parallel()
	srv := dnstest.Start(t, zone)
	r, err := New(&Options{ResolvConf: t.TempDir() + "/missing", Named: map[string][]string{"quad9": {srv.Addr()}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Lookup(context.Background(), LookupInput{Domain: "example.test"}); !errs.Is(err, errs.KindUnavailable) || !strings.Contains(err.Error(), "--dns-resolver") {
		t.Errorf("default without servers: %v, want unavailable naming --dns-resolver", err)
	}
	if _, err := r.Lookup(context.Background(), LookupInput{Domain: "example.test", Resolver: "quad9"}); err != nil {
		t.Errorf("a named resolver: %v", err)
	}
}

func TestResolvConf(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/resolv.conf"
	writeFile(t, path, "search example.test\nnameserver 192.0.2.53\nnameserver ::1\noptions ndots:2\n")
	r, err := New(&Options{ResolvConf: path})
	if err != nil || strings.Join(r.servers, ",") != "192.0.2.53:53,[::1]:53" {
		t.Errorf("servers %v, err %v", r.servers, err)
	}
}

func TestAskAuthority(t *testing.T) {
	t.Parallel()
	srv := dnstest.Start(t, zone)
	port := 0
	fmt.Sscan(srv.Port(), &port)
	var d net.Dialer
	r, err := New(&Options{Servers: []string{srv.Addr()}, AuthorityDial: d.DialContext, AuthorityPort: port, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	loopback := netip.MustParseAddr("127.0.0.1")
	msg, err := r.AskAuthority(context.Background(), loopback, "example.test", dns.TypeSOA)
	if err != nil || !msg.Authoritative || msg.RecursionDesired || len(msg.Answer) != 1 {
		t.Errorf("AskAuthority: %v, %v", msg, err)
	}
	if log := srv.Log(); len(log) != 1 || log[0].Type != "SOA" {
		t.Errorf("log %+v", log)
	}
	guarded, _ := New(&Options{Servers: []string{srv.Addr()}, AuthorityPort: port})
	if _, err := guarded.AskAuthority(context.Background(), loopback, "example.test", dns.TypeSOA); !errs.Is(err, errs.KindForbidden) {
		t.Errorf("the default dialer reached loopback: %v", err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Names and addresses of private networks are refused before any question
// is sent: the server's resolver may answer them from the operator's own
// zones.
func TestLookupRefusesPrivateNames(t *testing.T) {
	t.Parallel()
	r := newResolver(t, "127.0.0.1:9") // never asked
	for _, name := range []string{"10.1.2.3", "127.0.0.1", "fd00::1", "db.internal", "printer.local", "nas.home.arpa",
		"3.2.1.10.in-addr.arpa", "2.1.10.in-addr.arpa", "localhost", "git.corp"} {
		_, err := r.Lookup(context.Background(), LookupInput{Domain: name})
		if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "domain") {
			t.Errorf("%s: %v, want a refusal naming domain", name, err)
		}
	}
}
