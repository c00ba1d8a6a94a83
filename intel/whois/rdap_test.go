package whois_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/whois"
	"github.com/webinfra/webinfra/internal/whoistest"
)

// newClient builds a Client whose HTTP client may reach loopback.
func newClient(t *testing.T, o whois.Options) *whois.Client {
	t.Helper()
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	c, err := whois.New(&o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// asJSON is v as the server would send it.
func asJSON(v any) string {
	out, _ := json.Marshal(v)
	return string(out)
}

// lookup runs one lookup of domain.
func lookup(t *testing.T, c *whois.Client, domain string) (*whois.Result, error) {
	t.Helper()
	return c.Lookup(context.Background(), whois.Input{Domain: domain})
}

// registryAndRegistrar serves the canned registry record and the
// registrar record its related link points at.
func registryAndRegistrar() map[string]string {
	return map[string]string{
		whoistest.ExampleDomain:                        whoistest.RegistryRDAP,
		"/registrar/domain/" + whoistest.ExampleDomain: whoistest.RegistrarRDAP,
	}
}

func TestRDAPLookupFollowsTheRelatedLink(t *testing.T) {
	t.Parallel()
	rdap := whoistest.StartRDAP(t, registryAndRegistrar())
	c := newClient(t, whois.Options{Bootstrap: rdap.Bootstrap("com")})
	res, err := lookup(t, c, "WWW.Example.COM.")
	if err != nil {
		t.Fatal(err)
	}
	want := &whois.Result{
		Domain: "example.com",
		Source: whois.SourceRDAP,
		Registrar: &whois.Registrar{Name: "Example Registrar, Inc.", IANAID: "9999",
			URL: "https://www.example-registrar.test/", AbuseEmail: "abuse@example-registrar.test"},
		Created:        "1995-08-14T04:00:00Z",
		Updated:        "2025-08-14T07:01:39Z",
		Expires:        "2026-08-13T04:00:00Z",
		Status:         []string{"clientDeleteProhibited", "clientTransferProhibited", "clientUpdateProhibited"},
		NameServers:    []string{"a.iana-servers.net", "b.iana-servers.net"},
		DNSSEC:         &whois.DNSSEC{Signed: true},
		Registrant:     &whois.Registrant{Organization: "Internet Assigned Numbers Authority", Country: "US"},
		RDAPURL:        rdap.URL + "domain/example.com",
		RDAPRelatedURL: rdap.URL + "registrar/domain/example.com",
	}
	if !strings.Contains(res.Raw, `"handle": "2336799_DOMAIN_COM-VRSN"`) || res.RawTruncated {
		t.Errorf("raw is not the registry's answer: %.80q truncated=%v", res.Raw, res.RawTruncated)
	}
	res.Raw = ""
	if got, want := asJSON(res), asJSON(want); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := rdap.Requests(); !reflect.DeepEqual(got, []string{"/domain/example.com", "/registrar/domain/example.com"}) {
		t.Errorf("requests %v", got)
	}
}

func TestRDAPRegistryAloneWhenTheRelatedLinkFails(t *testing.T) {
	t.Parallel()
	rdap := whoistest.StartRDAP(t, map[string]string{whoistest.ExampleDomain: whoistest.RegistryRDAP})
	c := newClient(t, whois.Options{Bootstrap: rdap.Bootstrap("com")})
	res, err := lookup(t, c, "example.com")
	if err != nil {
		t.Fatal(err)
	}
	if res.RDAPRelatedURL != "" || res.Registrant != nil || res.Registrar.URL != "" {
		t.Errorf("registrar data without a registrar answer: %+v %+v", res, res.Registrar)
	}
	if res.Registrar.Name != "Example Registrar, Inc." || res.Created == "" {
		t.Errorf("registry data lost: %+v", res)
	}
}

func TestRDAPNotRegistered(t *testing.T) {
	t.Parallel()
	rdap := whoistest.StartRDAP(t, nil)
	c := newClient(t, whois.Options{Bootstrap: rdap.Bootstrap("com"), WhoisServer: "127.0.0.1:1"})
	_, err := lookup(t, c, "unregistered-name.com")
	if !errs.Is(err, errs.KindNotFound) || !strings.Contains(err.Error(), "not registered (RDAP 404)") {
		t.Fatalf("err = %v, want not registered", err)
	}
}

func TestRDAPFailureFallsBackToWhois(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		rdap     []whoistest.RDAPOption
		record   string
		reason   string
		maxBytes int64
	}{
		{name: "server error", rdap: []whoistest.RDAPOption{whoistest.RDAPStatus(http.StatusServiceUnavailable)}, record: whoistest.RegistryRDAP, reason: "RDAP server answered HTTP 503"},
		{name: "rate limited", rdap: []whoistest.RDAPOption{whoistest.RDAPStatus(http.StatusTooManyRequests)}, record: whoistest.RegistryRDAP, reason: "RDAP server answered HTTP 429"},
		{name: "garbage", rdap: []whoistest.RDAPOption{whoistest.RDAPGarbage()}, record: whoistest.RegistryRDAP, reason: "not an RDAP domain object"},
		{name: "silent", rdap: []whoistest.RDAPOption{whoistest.RDAPSilent()}, record: whoistest.RegistryRDAP, reason: "RDAP server did not answer within"},
		{name: "oversize", record: whoistest.RegistryRDAP, reason: "RDAP server answered more than 1024 bytes", maxBytes: 1024},
		{name: "another domain", record: strings.ReplaceAll(whoistest.RegistryRDAP, `"EXAMPLE.COM"`, `"EXAMPLE.NET"`), reason: "not an RDAP domain object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rdap := whoistest.StartRDAP(t, map[string]string{whoistest.ExampleDomain: c.record}, c.rdap...)
			port43 := whoistest.StartWhois(t, map[string]string{whoistest.ExampleDomain: whoistest.RegistrarWhois})
			client := newClient(t, whois.Options{Bootstrap: rdap.Bootstrap("com"), WhoisServer: port43.Addr,
				Timeout: time.Second, MaxRDAPBytes: c.maxBytes})
			res, err := lookup(t, client, "example.com")
			if err != nil {
				t.Fatal(err)
			}
			if res.Source != whois.SourceWhois || !strings.Contains(res.RDAPFallback, c.reason) {
				t.Errorf("source %q, fallback %q; want whois because %q", res.Source, res.RDAPFallback, c.reason)
			}
			if res.Registrar == nil || res.Registrar.Name != "Example Registrar, Inc." {
				t.Errorf("whois data missing: %+v", res)
			}
		})
	}
}

func TestRDAPAndWhoisBothFailing(t *testing.T) {
	t.Parallel()
	rdap := whoistest.StartRDAP(t, nil, whoistest.RDAPStatus(http.StatusBadGateway))
	port43 := whoistest.StartWhois(t, nil, whoistest.WhoisSilent())
	c := newClient(t, whois.Options{Bootstrap: rdap.Bootstrap("com"), WhoisServer: port43.Addr, Timeout: time.Second})
	_, err := lookup(t, c, "example.com")
	if !errs.Is(err, errs.KindTimeout) {
		t.Fatalf("err = %v, want a timeout", err)
	}
	for _, part := range []string{"RDAP server answered HTTP 502", "whois server did not answer within 1s"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("%q does not say %q", err, part)
		}
	}
	if strings.Contains(err.Error(), "127.0.0.1") {
		t.Errorf("the error shows an address: %v", err)
	}
}

func TestRDAPIgnoresUnusableRelatedLinks(t *testing.T) {
	t.Parallel()
	for _, link := range []string{
		`{"rel": "related", "href": "ftp://registrar.test/domain/example.com", "type": "application/rdap+json"}`,
		`{"rel": "related", "href": "https://registrar.test/whois.html", "type": "text/html"}`,
		`{"rel": "alternate", "href": "{{base}}registrar/domain/example.com", "type": "application/rdap+json"}`,
	} {
		record := `{"objectClassName": "domain", "ldhName": "example.com", "status": ["active"], "links": [` + link + `]}`
		rdap := whoistest.StartRDAP(t, map[string]string{whoistest.ExampleDomain: record,
			"/registrar/domain/example.com": whoistest.RegistrarRDAP})
		c := newClient(t, whois.Options{Bootstrap: rdap.Bootstrap("com")})
		res, err := lookup(t, c, "example.com")
		if err != nil {
			t.Fatal(err)
		}
		if res.RDAPRelatedURL != "" || len(rdap.Requests()) != 1 || !reflect.DeepEqual(res.Status, []string{"ok"}) {
			t.Errorf("link %s: related %q, requests %v, status %v", link, res.RDAPRelatedURL, rdap.Requests(), res.Status)
		}
	}
}

func TestLookupReturnsTheCallersCancellation(t *testing.T) {
	t.Parallel()
	rdap := whoistest.StartRDAP(t, nil, whoistest.RDAPSilent())
	c := newClient(t, whois.Options{Bootstrap: rdap.Bootstrap("com")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Lookup(ctx, whois.Input{Domain: "example.com"}); err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
