package dnsintel_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/intel/dnsintel"
	"github.com/webinfra/webinfra/intel/resolver"
	"github.com/webinfra/webinfra/internal/dnstest"
)

// Analyze reads a domain's set-up; here a DNS server on loopback stands
// in for the resolver.
func ExampleAnalyze() {
	srv, err := dnstest.New("127.0.0.1:0", `
$ORIGIN example.test.
$TTL 300
@       SOA ns1 hostmaster 1 7200 900 1209600 300
@       NS  ns1
@       NS  ns2
@       MX  10 mail
@       TXT "v=spf1 include:_spf.example.test ~all"
_spf    TXT "v=spf1 a mx ip4:192.0.2.0/24 ?all"
_dmarc  TXT "v=DMARC1; p=none"
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	r, err := resolver.New(&resolver.Options{Servers: []string{srv.Addr()}})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := dnsintel.Analyze(context.Background(), r, dnsintel.Input{Domain: "example.test"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("SPF:", rep.SPF.Record, "-", rep.SPF.Lookups, "lookups")
	for _, f := range rep.Findings {
		fmt.Println(f.Severity, f.Code)
	}
	// Output:
	// SPF: v=spf1 include:_spf.example.test ~all - 3 lookups
	// warning dmarc_policy_none
	// notice dmarc_no_reports
	// notice dkim_not_found
	// notice caa_missing
	// error ns_no_address
	// error ns_no_address
}
