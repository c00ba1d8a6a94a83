package email_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/intel/email"
	"github.com/webinfra/webinfra/intel/resolver"
	"github.com/webinfra/webinfra/internal/dnstest"
)

// Verify checks an address by its syntax, its domain's mail exchangers
// and the lists; here a DNS server on loopback stands in for the
// resolver.
func ExampleVerify() {
	srv, err := dnstest.New("127.0.0.1:0", `
example.test.    300 IN MX 10 mx.example.test.
nullmx.test.     300 IN MX 0 .
mailinator.com.  300 IN MX 10 mail.mailinator.com.
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
	for _, addr := range []string{"Jane@Example.Test", "support@example.test", "x@mailinator.com", "x@nullmx.test", "not an address"} {
		res, err := email.Verify(context.Background(), r, email.Input{Email: addr}, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %s (%s)\n", addr, res.Verdict, res.Reasons[0])
	}
	// Output:
	// Jane@Example.Test: deliverable (the domain accepts mail; the mailbox itself was not checked (SMTP probe off))
	// support@example.test: risky (the address names a role, not a person)
	// x@mailinator.com: risky (the domain is a disposable-address service)
	// x@nullmx.test: undeliverable (the domain accepts no mail (null MX, RFC 7505))
	// not an address: undeliverable (not a valid address: no @: an address is local-part@domain)
}
