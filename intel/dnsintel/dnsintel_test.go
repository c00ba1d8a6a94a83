package dnsintel

import (
	"context"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"math/big"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/resolver"
	"github.com/webinfra/webinfra/internal/dnstest"
)

// rsaKey is the p= value of an RSA public key of the given size. Only
// the modulus's length matters here, so it is not a real key.
func rsaKey(t *testing.T, bits int, pkcs1 bool) string {
	t.Helper()
	n := new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
	n.Add(n, big.NewInt(1))
	pub := &rsa.PublicKey{N: n, E: 65537}
	der := x509.MarshalPKCS1PublicKey(pub)
	if !pkcs1 {
		var err error
		if der, err = x509.MarshalPKIXPublicKey(pub); err != nil {
			t.Fatal(err)
		}
	}
	return base64.StdEncoding.EncodeToString(der)
}

// txt writes a TXT value as 255-byte strings.
func txt(s string) string {
	var parts []string
	for len(s) > 200 {
		parts = append(parts, strconv.Quote(s[:200]))
		s = s[200:]
	}
	return strings.Join(append(parts, strconv.Quote(s)), " ")
}

func zones(t *testing.T) string {
	edKey, _, _ := ed25519.GenerateKey(nil)
	return `
$TTL 300
$ORIGIN good.test.
@        SOA   ns1 hostmaster 2024010101 7200 900 1209600 60
@        NS    ns1
@        NS    ns2
ns1      A     127.0.0.1
ns2      A     127.0.0.1
@        A     192.0.2.1
@        MX    20 backup
@        MX    10 mail
mail     A     192.0.2.25
@        TXT   "v=spf1 ip4:192.0.2.0/24 include:_spf.provider.test mx -all"
@        TXT   "google-site-verification=abc"
_dmarc   TXT   "v=DMARC1; p=reject; rua=mailto:dmarc@good.test,mailto:x@y.test; adkim=s"
google._domainkey TXT ` + txt("v=DKIM1; k=rsa; p="+rsaKey(t, 2048, false)) + `
selector1._domainkey TXT ` + txt("v=DKIM1; p="+rsaKey(t, 1024, true)) + `
s2048._domainkey TXT ` + txt("v=DKIM1; k=ed25519; p="+base64.StdEncoding.EncodeToString(edKey)) + `
@        CAA   0 issue "letsencrypt.org"
@        CAA   0 iodef "mailto:security@good.test"
www      CNAME @

$ORIGIN provider.test.
_spf     TXT   "v=spf1 ip4:198.51.100.0/24 include:_spf2.provider.test ~all"
_spf2    TXT   "v=spf1 a mx ip6:2001:db8::/32 ~all"

$ORIGIN bad.test.
@        SOA   ns1 hostmaster 1 7200 900 1209600 60
@        NS    ns1
@        NS    lame
@        NS    dead
@        NS    noaddr
ns1      A     127.0.0.1
lame     A     127.0.0.2
dead     A     127.0.0.3
@        MX    0 .
@        MX    10 mail
@        TXT   "v=spf1 include:a.bad.test include:void.bad.test include:many.bad.test ptr +all"
@        TXT   "v=spf1 -all"
a        TXT   "v=spf1 include:b.bad.test exists:%{i}.x.bad.test include:%{d}._spf.bad.test"
b        TXT   "v=spf1 include:a.bad.test"
many     TXT   "v=spf1 a mx a:x.bad.test mx:y.bad.test a:z.bad.test ip4:192.0.2.9 ~all"
_dmarc   TXT   "v=DMARC1; p=none"
weak._domainkey TXT ` + txt("v=DKIM1; p="+rsaKey(t, 512, true)) + `
@        CAA   128 tbs "x"
www      CNAME gone-app.herokuapp.com.
shop     CNAME missing.example.invalid.

$ORIGIN sub.org.test.
@        A     192.0.2.7
$ORIGIN org.test.
@        SOA   ns1 hostmaster 5 7200 900 1209600 60
@        NS    ns1
ns1      A     127.0.0.1
_dmarc   TXT   "v=DMARC1; p=quarantine; pct=50; rua=mailto:d@org.test"
@        CAA   0 issuewild ";"
`
}

// lameZone is what 127.0.0.2 serves: not bad.test.
const lameZone = `
other.test. 300 SOA ns hostmaster 1 7200 900 1209600 60
`

// setup starts the resolver's server on 127.0.0.1 and a lame name server
// on 127.0.0.2, on the same port; 127.0.0.3 has nothing on it.
func setup(t *testing.T) (*dnstest.Server, *resolver.Resolver) {
	t.Helper()
	z := zones(t)
	for range 5 {
		srv := dnstest.Start(t, z)
		lame, err := dnstest.New("127.0.0.2:"+srv.Port(), lameZone)
		if err != nil {
			continue // the port is taken on 127.0.0.2: another pair
		}
		t.Cleanup(lame.Close)
		port, _ := strconv.Atoi(srv.Port())
		var d net.Dialer
		r, err := resolver.New(&resolver.Options{Servers: []string{srv.Addr()}, AuthorityDial: d.DialContext, AuthorityPort: port, Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return srv, r
	}
	t.Fatal("no port free on both 127.0.0.1 and 127.0.0.2")
	return nil, nil
}

func codes(rep *Report) string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Section+"/"+f.Code+"/"+f.Severity)
	}
	return strings.Join(out, " ")
}

func TestGoodDomain(t *testing.T) {
	t.Parallel()
	srv, r := setup(t)
	rep, err := Analyze(context.Background(), r, Input{Domain: "Good.Test.", DKIMSelectors: []string{"s2048", "google"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := codes(rep), "dkim/dkim_key_short/notice"; got != want {
		t.Errorf("findings %s, want %s", got, want)
		for _, f := range rep.Findings {
			t.Log(f.Message)
		}
	}
	if !rep.Exists || rep.Domain != "good.test" || rep.MX.Records[0].Host != "mail.good.test" || rep.MX.Records[1].Preference != 20 {
		t.Errorf("mx %+v", rep.MX)
	}
	spf := rep.SPF
	if spf.Lookups != 5 || spf.All != "-all" || spf.OverLimit || !spf.Complete || len(spf.Includes) != 2 || spf.Includes[1].Domain != "_spf2.provider.test" || spf.Includes[0].Lookups != 3 {
		t.Errorf("spf %+v", spf)
	}
	if d := rep.DMARC; d.Policy != "reject" || d.ADKIM != "s" || len(d.RUA) != 2 || d.Percent != 100 || d.Name != "_dmarc.good.test" {
		t.Errorf("dmarc %+v", d)
	}
	keys := map[string]DKIMKey{}
	for _, k := range rep.DKIM.Keys {
		keys[k.Selector] = k
	}
	if keys["google"].Bits != 2048 || keys["selector1"].Bits != 1024 || keys["s2048"].KeyType != "ed25519" || keys["s2048"].Bits != 256 || len(keys) != 3 {
		t.Errorf("dkim keys %+v", rep.DKIM.Keys)
	}
	if n := len(rep.DKIM.Probed); n != len(CommonSelectors)+1 {
		t.Errorf("%d selectors probed, want the common ones and s2048", n)
	}
	if c := rep.CAA; c.Name != "good.test" || len(c.Issue) != 1 || c.Issue[0] != "letsencrypt.org" || len(c.IODEF) != 1 {
		t.Errorf("caa %+v", c)
	}
	ns := rep.NS
	if ns.Zone != "good.test" || ns.SOA.Serial != 2024010101 || ns.SOA.Primary != "ns1.good.test" || len(ns.Servers) != 2 || !ns.Servers[1].Authoritative || ns.Servers[0].Addresses[0] != "127.0.0.1" {
		t.Errorf("ns %+v", ns)
	}
	if len(rep.Dangling) != 0 {
		t.Errorf("dangling %+v", rep.Dangling)
	}
	if rep.Queries > MaxQueries || srv.Queries() > rep.Queries {
		t.Errorf("%d questions counted, %d received", rep.Queries, srv.Queries())
	}
}

func TestBadDomain(t *testing.T) {
	t.Parallel()
	_, r := setup(t)
	rep, err := Analyze(context.Background(), r, Input{Domain: "bad.test", DKIMSelectors: []string{"weak"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"mx/mx_null_mixed/error",
		"spf/spf_multiple/error", "spf/spf_include_loop/error", "spf/spf_include_without_spf/error",
		"spf/spf_too_many_lookups/error", "spf/spf_plus_all/error", "spf/spf_ptr/warning", "spf/spf_incomplete/notice",
		"dmarc/dmarc_policy_none/warning", "dmarc/dmarc_no_reports/notice",
		"dkim/dkim_key_weak/error",
		"caa/caa_unknown_critical/warning",
		"ns/ns_no_address/error",
		"dangling/dangling_cname/error",
	}
	got := codes(rep)
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("no %s in %s", w, got)
		}
	}
	// The name servers: dead answers nothing, lame answers without authority.
	problems := map[string]string{}
	for _, s := range rep.NS.Servers {
		problems[s.Host] = s.Problem
	}
	if !strings.Contains(problems["lame.bad.test"], "lame delegation") || !strings.Contains(problems["dead.bad.test"], "could not be reached") ||
		!strings.Contains(problems["noaddr.bad.test"], "no address") || problems["ns1.bad.test"] != "" {
		t.Errorf("name server problems %q", problems)
	}
	if !strings.Contains(got, "ns/ns_lame/error") || !strings.Contains(got, "ns/ns_not_answering/error") {
		t.Errorf("no lame or silent name server in %s", got)
	}
	spf := rep.SPF
	if spf.Lookups <= MaxSPFLookups || !spf.OverLimit || spf.VoidLookups != 1 || spf.All != "+all" || spf.Complete {
		t.Errorf("spf %+v", spf)
	}
	if len(rep.Dangling) != 1 || rep.Dangling[0].Name != "www.bad.test" || rep.Dangling[0].Service != "Heroku" || rep.Dangling[0].Target != "gone-app.herokuapp.com" {
		t.Errorf("dangling %+v", rep.Dangling)
	}
}

func TestOrganizationalDomain(t *testing.T) {
	t.Parallel()
	_, r := setup(t)
	rep, err := Analyze(context.Background(), r, Input{Domain: "sub.org.test"})
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.DMARC; d.Name != "_dmarc.org.test" || d.Policy != "quarantine" || d.Percent != 50 {
		t.Errorf("dmarc %+v", d)
	}
	if c := rep.CAA; c.Name != "org.test" || len(c.IssueWild) != 1 {
		t.Errorf("caa %+v", c)
	}
	if rep.NS.Zone != "org.test" || !rep.MX.Implicit {
		t.Errorf("zone %q, implicit MX %v", rep.NS.Zone, rep.MX.Implicit)
	}
	if got := codes(rep); !strings.Contains(got, "dmarc/dmarc_partial/notice") || !strings.Contains(got, "mx/mx_implicit/notice") || !strings.Contains(got, "ns/ns_single/warning") {
		t.Errorf("findings %s", got)
	}
}

func TestMissingDomain(t *testing.T) {
	t.Parallel()
	srv, r := setup(t)
	rep, err := Analyze(context.Background(), r, Input{Domain: "nowhere.good.test"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Exists || codes(rep) != "domain/domain_not_found/error" || srv.Queries() != 1 || rep.Queries != 1 {
		t.Errorf("exists %v, findings %s, %d queries", rep.Exists, codes(rep), srv.Queries())
	}
}

func TestQueryBudget(t *testing.T) {
	t.Parallel()
	srv, r := setup(t)
	var extra []string
	for i := range MaxExtraSelectors {
		extra = append(extra, fmt.Sprintf("extra%d", i))
	}
	rep, err := Analyze(context.Background(), r, Input{Domain: "bad.test", DKIMSelectors: extra})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Queries > MaxQueries || srv.Queries() > rep.Queries {
		t.Errorf("%d questions counted (max %d), %d received", rep.Queries, MaxQueries, srv.Queries())
	}
}

func TestSourceFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode dnstest.Mode
		kind errs.Kind
	}{
		{dnstest.Silent, errs.KindTimeout},
		{dnstest.AlwaysTruncate, errs.KindUpstream},
		{dnstest.Garbage, errs.KindUpstream},
	}
	for _, c := range cases {
		srv := dnstest.Start(t, "")
		srv.SetMode(c.mode)
		r, _ := resolver.New(&resolver.Options{Servers: []string{srv.Addr()}, Timeout: 100 * time.Millisecond, Attempts: 1})
		_, err := Analyze(context.Background(), r, Input{Domain: "example.test"})
		if !errs.Is(err, c.kind) || !strings.Contains(err.Error(), "DNS resolver") || strings.Contains(err.Error(), srv.Port()) {
			t.Errorf("mode %d: %v, want %s naming the DNS resolver", c.mode, err, c.kind)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	r, _ := resolver.New(&resolver.Options{Servers: []string{"127.0.0.1:9"}})
	cases := []struct {
		in    Input
		field string
	}{
		{Input{Domain: "bad domain"}, "domain"},
		{Input{Domain: ""}, "domain"},
		{Input{Domain: "example.com", DKIMSelectors: make([]string, 21)}, "dkim_selectors"},
		{Input{Domain: "example.com", DKIMSelectors: []string{"ok", "not ok"}}, "dkim_selectors[1]"},
		{Input{Domain: "example.com", Resolver: "8.8.8.8"}, "resolver"},
	}
	for _, c := range cases {
		_, err := Analyze(context.Background(), r, c.in)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v (field %q), want invalid %s", c.in, err, errs.FieldOf(err), c.field)
		}
	}
}

func TestParseSPF(t *testing.T) {
	t.Parallel()
	got := parseSPF("v=spf1 +a/24 -mx:Mail.Example.com/24//64 ~include:_SPF.example.com. ?ptr exists:%{i}.x redirect=Other.example exp=why.example all")
	want := []Mechanism{
		{"+", "a", "/24"}, {"-", "mx", "Mail.Example.com/24//64"}, {"~", "include", "_spf.example.com"}, {"?", "ptr", ""},
		{"+", "exists", "%{i}.x"}, {"", "redirect", "other.example"}, {"", "exp", "why.example"}, {"+", "all", ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parseSPF:\n got %v\nwant %v", got, want)
	}
}

func TestTakeoverService(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"bucket.s3.amazonaws.com.": "Amazon S3",
		"d111.cloudfront.net":      "Amazon CloudFront",
		"user.github.io":           "GitHub Pages",
		"shop.myshopify.com":       "Shopify",
		"github.io.example.com":    "",
		"example.com":              "",
	}
	for target, want := range cases {
		if got := takeoverService(target); got != want {
			t.Errorf("takeoverService(%q) = %q, want %q", target, got, want)
		}
	}
}
