package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/intel"
	"github.com/webinfra/webinfra/intel/ct/cttest"
	"github.com/webinfra/webinfra/intel/tlsinspect/tlstest"
	"github.com/webinfra/webinfra/internal/dnstest"
	"github.com/webinfra/webinfra/internal/mmdbtest"
	"github.com/webinfra/webinfra/internal/whoistest"
)

// intelZone is the DNS of the intelligence tests' loopback resolver.
const intelZone = `$ORIGIN example.com.
$TTL 300
@     IN SOA ns1.example.com. hostmaster.example.com. 2024010101 7200 3600 1209600 300
@     IN NS  ns1.example.com.
ns1   IN A   127.0.0.1
@     IN A   93.184.215.14
@     IN MX  10 mail.example.com.
mail  IN A   93.184.215.20
@     IN TXT "v=spf1 mx -all"
_dmarc IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc@example.com"
`

// intelPeers are the loopback sources of the intelligence endpoints.
type intelPeers struct {
	dns  *dnstest.Server
	ct   *cttest.Server
	tls  *tlstest.CA
	cfg  intel.Config
	site string
}

func startIntelPeers(t *testing.T) *intelPeers {
	t.Helper()
	p := &intelPeers{dns: dnstest.Start(t, intelZone)}
	p.ct = cttest.NewServer(
		cttest.Entry{IssuerCAID: 1, IssuerName: "C=US, O=Let's Encrypt, CN=R10", CommonName: "example.com", NameValue: "example.com\nwww.example.com",
			ID: 11, EntryTimestamp: "2025-01-02T03:04:05.678", NotBefore: "2025-01-02T02:04:05", NotAfter: "2025-04-02T02:04:05", SerialNumber: "04ab"},
		cttest.Entry{IssuerCAID: 1, IssuerName: "C=US, O=Let's Encrypt, CN=R10", CommonName: "example.com", NameValue: "example.com\nwww.example.com",
			ID: 12, EntryTimestamp: "2025-01-02T03:04:06.000", NotBefore: "2025-01-02T02:04:05", NotAfter: "2025-04-02T02:04:05", SerialNumber: "04ab"},
		cttest.Entry{IssuerCAID: 2, IssuerName: "C=US, O=DigiCert Inc, CN=DigiCert G2", CommonName: "*.api.example.com", NameValue: "*.api.example.com",
			ID: 13, EntryTimestamp: "2024-06-01T00:00:00.000", NotBefore: "2024-06-01T00:00:00", NotAfter: "2025-06-01T00:00:00", SerialNumber: "0c01"},
	)
	t.Cleanup(p.ct.Close)
	rdap := whoistest.StartRDAP(t, map[string]string{
		whoistest.ExampleDomain:                        whoistest.RegistryRDAP,
		"/registrar/domain/" + whoistest.ExampleDomain: whoistest.RegistrarRDAP,
	})
	dir := t.TempDir()
	boot := filepath.Join(dir, "dns.json")
	if err := os.WriteFile(boot, rdap.Bootstrap("com"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.tls = tlstest.NewCA(t)
	srv := tlstest.Server(t, p.tls.Issue(t, tlstest.Leaf{}), tlstest.HSTS("max-age=63072000; includeSubDomains; preload"), nil)
	p.site = srv.URL
	p.cfg = intel.Config{
		DNSResolvers: []string{p.dns.Addr()}, RDAPBootstrap: boot, CTURL: p.ct.URL + "/",
		GeoIPCityDB: mmdbtest.WriteCity(t, dir), GeoIPASNDB: mmdbtest.WriteASN(t, dir), TLSPort: tlstest.Port(srv),
	}
	return p
}

// withRoots trusts the CA's certificates in every outbound TLS client.
func withRoots(ca *tlstest.CA) envOption {
	return func(c *envConfig) { c.fetch.RootCAs = ca.Pool() }
}

// Every intelligence endpoint answers through the catalog from its
// loopback source, and charges one credit.
func TestIntelEndpointsAnswerFromTheirSources(t *testing.T) {
	t.Parallel()
	p := startIntelPeers(t)
	e := newEnv(t, withIntel(p.cfg), withRoots(p.tls))
	key := e.signup("intel@example.com")
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Server", "nginx/1.25.3")
			io.WriteString(w, `<!doctype html><html lang="en"><head><title>Heron Supplies Ltd</title>
<meta name="generator" content="WordPress 6.4.2"><link rel="stylesheet" href="/wp-content/themes/marsh/style.css">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Heron Supplies Ltd","url":"https://heron.example/","logo":"https://heron.example/logo.png","sameAs":["https://www.linkedin.com/company/heron-supplies"]}</script>
</head><body><h1>Heron Supplies</h1><p>Waders since 1921. Write to sales@heron.example.</p><a href="/about">About</a> <a href="https://twitter.com/heronsupplies">Twitter</a></body></html>`)
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
				`<url><loc>`+"http://"+r.Host+`/</loc><lastmod>2025-03-01</lastmod></url><url><loc>`+"http://"+r.Host+`/about</loc></url></urlset>`)
		default:
			http.NotFound(w, r)
		}
	})
	cases := []struct {
		path string
		body map[string]any
		want []string
	}{
		{"/v1/dns/lookup", map[string]any{"domain": "example.com", "type": "MX"}, []string{`"rcode":"NOERROR"`, `"ttl":300`, `mail.example.com.`}},
		{"/v1/dns/intelligence", map[string]any{"domain": "example.com"}, []string{`v=spf1 mx -all`, `"policy":"reject"`}},
		{"/v1/verify/email", map[string]any{"email": "jane@example.com"}, []string{`"syntax_valid":true`, `mail.example.com`}},
		{"/v1/intel/whois", map[string]any{"domain": "example.com"}, []string{`"source":"rdap"`, `"name_servers"`}},
		{"/v1/intel/cert-transparency-history", map[string]any{"domain": "example.com", "include_subdomains": true}, []string{`"total":2`, `"crtsh_ids":[11,12]`}},
		{"/v1/intel/subdomain-enumerate", map[string]any{"domain": "example.com"}, []string{`"name":"api.example.com"`, `"wildcard":true`, `"name":"www.example.com"`}},
		{"/v1/intel/ssl", map[string]any{"domain": "localhost"}, []string{`"trusted":true`, `"hostname_match":true`, `"include_subdomains":true`}},
		{"/v1/intel/headers", map[string]any{"url": p.site + "/"}, []string{`"Strict-Transport-Security"`, `"grade":`}},
		{"/v1/intel/page", map[string]any{"url": site + "/"}, []string{`"generator":"WordPress 6.4.2"`, `"name":"WordPress"`, `"Organization"`, `"lang`}},
		{"/v1/intel/sitemap", map[string]any{"url": site + "/"}, []string{`"url_count":2`, `"with_lastmod":1`}},
		{"/v1/enrich/company", map[string]any{"url": site + "/"}, []string{`"name":"Heron Supplies Ltd"`, `"logo":"https://heron.example/logo.png"`, `sales@heron.example`, `linkedin`}},
		{"/v1/intel/geoip", map[string]any{"ip": "81.2.69.142"}, []string{`"city":"Bracknell"`, `"asn":20712`}},
		{"/v1/intel/asn", map[string]any{"asn": "AS13335"}, []string{`"1.1.1.0/24"`}},
	}
	for _, c := range cases {
		before := e.balance(key)
		r := e.want(e.call("POST", c.path, key, c.body), 200)
		for _, w := range c.want {
			if !strings.Contains(string(r.body), w) {
				t.Errorf("%s: answer lacks %s:\n%.1500s", c.path, w, r.body)
			}
		}
		if got := before - e.balance(key); got != 1 || r.header.Get("X-Credits-Charged") != "1" {
			t.Errorf("%s: charged %d (header %q), want 1", c.path, got, r.header.Get("X-Credits-Charged"))
		}
	}
}

// A bulk GeoIP call answers each IP on its own and charges the IPs
// answered; private addresses are refused, not looked up.
func TestGeoIPBulkChargesTheIPsAnswered(t *testing.T) {
	t.Parallel()
	p := startIntelPeers(t)
	e := newEnv(t, withIntel(p.cfg))
	key := e.signup("bulk@example.com")
	r := e.want(e.call("POST", "/v1/intel/geoip/bulk", key, map[string]any{"ips": []string{"81.2.69.142", "10.1.2.3", "1.1.1.1", "not an ip"}}), 200)
	if !strings.Contains(string(r.body), `"answered":2`) || !strings.Contains(string(r.body), "RFC 1918") || r.header.Get("X-Credits-Charged") != "2" {
		t.Errorf("bulk: charged %q\n%s", r.header.Get("X-Credits-Charged"), r.body)
	}
	for _, ip := range []string{"10.1.2.3", "127.0.0.1", "192.0.2.1", "fe80::1"} {
		r := e.want(e.call("POST", "/v1/intel/geoip", key, map[string]any{"ip": ip}), 422)
		if !strings.Contains(r.detail(t), "not looked up") || r.header.Get("X-Credits-Charged") != "0" {
			t.Errorf("%s: %q charged %q", ip, r.detail(t), r.header.Get("X-Credits-Charged"))
		}
	}
	e.want(e.call("POST", "/v1/intel/geoip/bulk", key, map[string]any{"ips": make([]string, 101)}), 422)
	e.want(e.call("POST", "/v1/intel/asn", key, map[string]any{"asn": "AS64512"}), 422)
	if b := e.balance(key); b != 998 {
		t.Fatalf("balance %d, want 998", b)
	}
}

// A source that fails answers 502, 503 or 504 naming it, and charges
// nothing.
func TestIntelSourceFailuresChargeNothing(t *testing.T) {
	t.Parallel()
	silent := dnstest.Start(t, intelZone)
	silent.SetMode(dnstest.Silent)
	brokenCT := newHTTPServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte("<html><body>502 Bad Gateway</body></html>"))
	})
	garbage := whoistest.StartWhois(t, nil, whoistest.WhoisGarbage())
	e := newEnv(t, withIntel(intel.Config{DNSResolvers: []string{silent.Addr()}, CTURL: brokenCT + "/", WhoisServer: garbage.Addr,
		RDAPBootstrap: writeFile(t, "dns.json", string(whoistest.Bootstrap(map[string]string{"org": brokenCT + "/"})))}))
	key := e.signup("failing@example.com")
	cases := []struct {
		path   string
		body   map[string]any
		status int
		source string
	}{
		{"/v1/dns/lookup", map[string]any{"domain": "example.com"}, 504, "DNS resolver"},
		{"/v1/intel/cert-transparency-history", map[string]any{"domain": "example.com"}, 502, "certificate transparency log"},
		{"/v1/intel/whois", map[string]any{"domain": "example.org"}, 502, "whois server"},
		{"/v1/intel/geoip", map[string]any{"ip": "1.1.1.1"}, 503, "--geoip-city-db"},
		{"/v1/intel/asn", map[string]any{"asn": "13335"}, 503, "--geoip-asn-db"},
		{"/v1/intel/sitemap", map[string]any{"url": brokenCT + "/"}, 404, "sitemap.xml"},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", c.path, key, c.body), c.status)
		if !strings.Contains(r.detail(t), c.source) || r.header.Get("X-Credits-Charged") != "0" {
			t.Errorf("%s: %q charged %q, want %s named", c.path, r.detail(t), r.header.Get("X-Credits-Charged"), c.source)
		}
	}
	if b := e.balance(key); b != 1000 {
		t.Fatalf("balance %d after failures, want 1000", b)
	}

	// A resolver whose answers stay truncated over TCP, and a log that
	// cannot be reached.
	truncating := dnstest.Start(t, intelZone)
	truncating.SetMode(dnstest.AlwaysTruncate)
	e = newEnv(t, withIntel(intel.Config{DNSResolvers: []string{truncating.Addr()}, CTURL: refusedURL(t) + "/"}))
	key = e.signup("failing@example.com")
	for _, c := range []struct{ path, body, source string }{
		{"/v1/dns/lookup", `{"domain": "example.com", "type": "TXT"}`, "truncated"},
		{"/v1/intel/subdomain-enumerate", `{"domain": "example.com"}`, "certificate transparency log"},
	} {
		r := e.want(e.call("POST", c.path, key, json.RawMessage(c.body)), 502)
		if !strings.Contains(r.detail(t), c.source) || r.header.Get("X-Credits-Charged") != "0" {
			t.Errorf("%s: %q charged %q, want %s named", c.path, r.detail(t), r.header.Get("X-Credits-Charged"), c.source)
		}
	}
}

// The TLS inspection and the header check connect through the SSRF guard.
func TestIntelConnectionsGoThroughTheGuard(t *testing.T) {
	t.Parallel()
	p := startIntelPeers(t)
	e := newEnv(t, strictFetch(), withIntel(p.cfg))
	key := e.signup("guarded@example.com")
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{"/v1/intel/ssl", map[string]any{"domain": "127.0.0.1"}},
		{"/v1/intel/headers", map[string]any{"url": p.site + "/"}},
	} {
		r := e.want(e.call("POST", c.path, key, c.body), 403)
		if !strings.Contains(r.detail(t), "SSRF guard") {
			t.Errorf("%s: %q", c.path, r.detail(t))
		}
	}
}

// writeFile writes content to a file of a temporary directory and returns
// its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
