package resolver_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/intel/resolver"
	"github.com/webinfra/webinfra/internal/dnstest"
)

// Lookup answers one question; here a DNS server on loopback stands in
// for the resolver.
func ExampleResolver_Lookup() {
	srv, err := dnstest.New("127.0.0.1:0", `
$ORIGIN example.test.
@ 300 IN MX 10 mail
@ 300 IN MX 20 backup
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
	res, err := r.Lookup(context.Background(), resolver.LookupInput{Domain: "Example.Test", Type: "mx"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Domain, res.Type, res.Rcode, "from", res.Resolver)
	for _, a := range res.Answers {
		fmt.Println(*a.Priority, a.Target, a.TTL)
	}
	// Output:
	// example.test MX NOERROR from default
	// 10 mail.example.test 300
	// 20 backup.example.test 300
}

// Canonical checks a domain name and converts it to A-labels.
func ExampleCanonical() {
	for _, name := range []string{"Bücher.Example.", "_dmarc.example.com", "exa mple.com"} {
		fmt.Println(resolver.Canonical("domain", name))
	}
	// Output:
	// xn--bcher-kva.example <nil>
	// _dmarc.example.com <nil>
	//  domain: label "exa mple" has a character other than letters, digits, hyphens and underscores
}
