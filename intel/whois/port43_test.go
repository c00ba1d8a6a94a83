package whois_test

import (
	"context"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel/whois"
	"github.com/webinfra/webinfra/internal/whoistest"
)

// noRDAP is a bootstrap without .com: .com lookups go to whois.
var noRDAP = whoistest.Bootstrap(map[string]string{"org": "https://rdap.publicinterestregistry.org/rdap/"})

func TestWhoisFollowsIANAAndTheRegistrarReferral(t *testing.T) {
	t.Parallel()
	chain := whoistest.StartChain(t)
	c := newClient(t, whois.Options{Bootstrap: noRDAP, Dial: chain.Dial})
	res, err := lookup(t, c, "example.com")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]string{"IANA": chain.IANA.Queries(), "registry": chain.Registry.Queries(), "registrar": chain.Registrar.Queries()} {
		want := []string{"example.com"}
		if name == "IANA" {
			want = []string{"com"}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s was asked %q, want %q", name, got, want)
		}
	}
	want := &whois.Result{
		Domain: "example.com",
		Source: whois.SourceWhois,
		Registrar: &whois.Registrar{Name: "Example Registrar, Inc.", IANAID: "9999",
			URL: "https://www.example-registrar.test/", AbuseEmail: "abuse@example-registrar.test"},
		Created:     "1995-08-14T04:00:00Z",
		Updated:     "2025-08-14T07:01:39Z",
		Expires:     "2026-08-13T04:00:00Z",
		Status:      []string{"clientDeleteProhibited", "clientTransferProhibited", "clientUpdateProhibited"},
		NameServers: []string{"a.iana-servers.net", "b.iana-servers.net"},
		DNSSEC:      &whois.DNSSEC{Signed: true},
		Registrant:  &whois.Registrant{Organization: "Internet Assigned Numbers Authority", Country: "US"},
		WhoisServer: whoistest.RegistrarWhoisHost,
	}
	if !strings.HasPrefix(res.Raw, "Domain Name: EXAMPLE.COM") || !strings.Contains(res.Raw, "Registrant Organization: Internet Assigned Numbers Authority") {
		t.Errorf("raw is not the registry's then the registrar's answer: %.200q", res.Raw)
	}
	res.Raw = ""
	if got, want := asJSON(res), asJSON(want); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestWhoisKeepsTheRegistryAnswerWhenTheReferralFails(t *testing.T) {
	t.Parallel()
	for _, registry := range []string{
		whoistest.RegistryWhois, // the registrar's server is unreachable
		strings.Replace(whoistest.RegistryWhois, "whois.example-registrar.test", "whois.example-registrar.test:25", 1),
	} {
		iana := whoistest.StartWhois(t, map[string]string{"com": whoistest.IANAComWhois})
		reg := whoistest.StartWhois(t, map[string]string{"example.com": registry})
		dial := whoistest.Dialer(map[string]string{"whois.iana.org:43": iana.Addr, "whois.verisign-grs.com:43": reg.Addr})
		c := newClient(t, whois.Options{Bootstrap: noRDAP, Dial: dial})
		res, err := lookup(t, c, "example.com")
		if err != nil {
			t.Fatal(err)
		}
		if res.WhoisServer != whoistest.RegistryWhoisHost || res.Registrant != nil || res.Registrar.Name != "Example Registrar, Inc." {
			t.Errorf("want the registry's answer alone: %+v", res)
		}
	}
}

func TestWhoisServerOverride(t *testing.T) {
	t.Parallel()
	port43 := whoistest.StartWhois(t, map[string]string{"example.com": whoistest.RegistryWhois})
	c := newClient(t, whois.Options{Bootstrap: noRDAP, WhoisServer: port43.Addr})
	res, err := lookup(t, c, "example.com")
	if err != nil {
		t.Fatal(err)
	}
	if got := port43.Queries(); !reflect.DeepEqual(got, []string{"example.com"}) {
		t.Errorf("queries %q: want the domain only, no IANA lookup", got)
	}
	if res.WhoisServer != "" || res.Registrant != nil || res.Expires != "2026-08-13T04:00:00Z" {
		t.Errorf("want the configured server's answer, no referral, unnamed: %+v", res)
	}
}

func TestWhoisFailures(t *testing.T) {
	t.Parallel()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	unreachable := closed.Addr().String()
	closed.Close()
	for _, c := range []struct {
		name    string
		answers map[string]string
		opts    []whoistest.WhoisOption
		addr    string // instead of the server's
		kind    errs.Kind
		message string
	}{
		{name: "not registered", kind: errs.KindNotFound, message: "example.com is not registered (whois)"},
		{name: "garbage", opts: []whoistest.WhoisOption{whoistest.WhoisGarbage()}, kind: errs.KindUpstream, message: "whois server answered something that is not whois data"},
		{name: "empty answer", answers: map[string]string{"example.com": "\r\n"}, kind: errs.KindUpstream, message: "not whois data"},
		{name: "no registration data", answers: map[string]string{"example.com": "Domain Name: EXAMPLE.COM\nFoo: bar\n"}, kind: errs.KindUpstream, message: "not whois data"},
		{name: "reserved", answers: map[string]string{"example.com": "EXAMPLE.COM is a reserved domain name.\n"}, kind: errs.KindNotFound, message: "reserves it"},
		{name: "rate limited", answers: map[string]string{"example.com": "Query limit exceeded, try again later.\n"}, kind: errs.KindUpstream, message: "query limit"},
		{name: "silent", opts: []whoistest.WhoisOption{whoistest.WhoisSilent()}, kind: errs.KindTimeout, message: "whois server did not answer within 1s"},
		{name: "slow", answers: map[string]string{"example.com": whoistest.RegistryWhois}, opts: []whoistest.WhoisOption{whoistest.WhoisSlow(10 * time.Second)}, kind: errs.KindTimeout, message: "did not answer"},
		{name: "unreachable", addr: unreachable, kind: errs.KindUpstream, message: "could not reach the whois server"},
		{name: "oversize", answers: map[string]string{"example.com": whoistest.RegistryWhois + strings.Repeat("% filler\n", 300)}, kind: errs.KindUpstream, message: "whois server answered more than 4096 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			addr := c.addr
			if addr == "" {
				addr = whoistest.StartWhois(t, c.answers, c.opts...).Addr
			}
			client := newClient(t, whois.Options{Bootstrap: noRDAP, WhoisServer: addr, Timeout: time.Second, MaxWhoisBytes: 4096})
			_, err := lookup(t, client, "example.com")
			if !errs.Is(err, c.kind) || !strings.Contains(err.Error(), c.message) {
				t.Fatalf("err = %v (%s), want %s saying %q", err, errs.KindOf(err), c.kind, c.message)
			}
			if strings.Contains(err.Error(), "127.0.0.1") {
				t.Errorf("the error shows an address: %v", err)
			}
		})
	}
}

func TestWhoisWithoutAKnownServer(t *testing.T) {
	t.Parallel()
	iana := whoistest.StartWhois(t, map[string]string{"com": whoistest.IANANoMatchWhois})
	c := newClient(t, whois.Options{Bootstrap: noRDAP, Dial: whoistest.Dialer(map[string]string{"whois.iana.org:43": iana.Addr})})
	_, err := lookup(t, c, "example.com")
	if !errs.Is(err, errs.KindUnavailable) || !strings.Contains(err.Error(), "no whois server is known for .com") {
		t.Fatalf("err = %v", err)
	}
}

func TestWhoisSurvivesHostileReferrals(t *testing.T) {
	t.Parallel()
	guarded, err := fetch.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, registry string
		kind           errs.Kind
	}{
		// likexian/whois slices past the end of an answer whose last line
		// is a referral with no newline: that must not panic.
		{"referral without a newline", "Domain Name: EXAMPLE.COM\nRegistrar WHOIS Server: whois.example-registrar.test", errs.KindUpstream},
		// The SSRF guard refuses the referral; the registry's answer stands.
		{"referral to a private address", strings.Replace(whoistest.RegistryWhois, "whois.example-registrar.test", "10.0.0.1", 1), ""},
		{"referral to loopback", strings.Replace(whoistest.RegistryWhois, "whois.example-registrar.test", "127.0.0.1", 1), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			iana := whoistest.StartWhois(t, map[string]string{"com": whoistest.IANAComWhois})
			reg := whoistest.StartWhois(t, map[string]string{"example.com": c.registry})
			local := whoistest.Dialer(map[string]string{"whois.iana.org:43": iana.Addr, "whois.verisign-grs.com:43": reg.Addr})
			dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
				if conn, err := local(ctx, network, addr); err == nil {
					return conn, nil
				}
				return guarded.DialService(ctx, network, addr)
			}
			client := newClient(t, whois.Options{Bootstrap: noRDAP, Dial: dial})
			res, err := lookup(t, client, "example.com")
			switch {
			case c.kind == "" && err != nil:
				t.Fatalf("err = %v, want the registry's answer", err)
			case c.kind == "" && (res.WhoisServer != whoistest.RegistryWhoisHost || res.Registrant != nil):
				t.Errorf("answer from %q: %+v", res.WhoisServer, res)
			case c.kind != "" && !errs.Is(err, c.kind):
				t.Fatalf("err = %v, want %s", err, c.kind)
			}
		})
	}
}

func TestDefaultClientsKeepTheGuard(t *testing.T) {
	t.Parallel()
	rdap := whoistest.StartRDAP(t, registryAndRegistrar())
	port43 := whoistest.StartWhois(t, map[string]string{"example.com": whoistest.RegistryWhois})
	// No HTTPClient: RDAP on loopback is refused. The operator's whois
	// server is dialled directly, loopback or not.
	c, err := whois.New(&whois.Options{Bootstrap: rdap.Bootstrap("com"), WhoisServer: port43.Addr})
	if err != nil {
		t.Fatal(err)
	}
	res, err := lookup(t, c, "example.com")
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != whois.SourceWhois || !strings.Contains(res.RDAPFallback, "RDAP server is at an address this service may not connect to") {
		t.Errorf("source %q, fallback %q", res.Source, res.RDAPFallback)
	}
	if len(rdap.Requests()) != 0 {
		t.Errorf("the guard let RDAP through: %v", rdap.Requests())
	}
}
