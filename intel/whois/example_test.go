package whois_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/webinfra/webinfra/intel/whois"
)

// A registry's RDAP answer for example.com (RFC 9083, abridged).
const exampleRDAP = `{
  "objectClassName": "domain",
  "ldhName": "EXAMPLE.COM",
  "status": ["client delete prohibited", "client transfer prohibited"],
  "entities": [{
    "objectClassName": "entity",
    "roles": ["registrar"],
    "publicIds": [{"type": "IANA Registrar ID", "identifier": "9999"}],
    "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Example Registrar, Inc."]]]
  }],
  "events": [
    {"eventAction": "registration", "eventDate": "1995-08-14T04:00:00Z"},
    {"eventAction": "expiration", "eventDate": "2026-08-13T04:00:00Z"}
  ],
  "secureDNS": {"delegationSigned": true},
  "nameservers": [{"ldhName": "A.IANA-SERVERS.NET"}, {"ldhName": "B.IANA-SERVERS.NET"}]
}`

// Lookup asks the registry's RDAP service that the bootstrap file names
// for the TLD. Here the registry is a local server and the bootstrap file
// (the server's --rdap-bootstrap) points .com at it.
func ExampleClient_Lookup() {
	registry := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/domain/example.com" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/rdap+json")
		_, _ = io.WriteString(w, exampleRDAP)
	}))
	defer registry.Close()

	client, err := whois.New(&whois.Options{
		Bootstrap: []byte(`{"version": "1.0", "services": [[["com"], ["` + registry.URL + `/"]]]}`),
		// Loopback is fine here; a server passes its SSRF-guarded client.
		HTTPClient: registry.Client(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := client.Lookup(context.Background(), whois.Input{Domain: "www.Example.com"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Domain, "from", res.Source)
	fmt.Println("registrar:", res.Registrar.Name, "IANA ID", res.Registrar.IANAID)
	fmt.Println("created:", res.Created, "expires:", res.Expires)
	fmt.Println("status:", res.Status)
	fmt.Println("name servers:", res.NameServers, "DNSSEC signed:", res.DNSSEC.Signed)

	_, err = client.Lookup(context.Background(), whois.Input{Domain: "https://example.com/"})
	fmt.Println(err)
	// Output:
	// example.com from rdap
	// registrar: Example Registrar, Inc. IANA ID 9999
	// created: 1995-08-14T04:00:00Z expires: 2026-08-13T04:00:00Z
	// status: [clientDeleteProhibited clientTransferProhibited]
	// name servers: [a.iana-servers.net b.iana-servers.net] DNSSEC signed: true
	// domain: must be a bare domain name such as example.com, not a URL or an address: "https://example.com/"
}
