package dnstest_test

import (
	"fmt"

	"github.com/miekg/dns"

	"github.com/webinfra/webinfra/internal/dnstest"
)

// A server answers from master-file text; tests usually call Start(t, zone).
func ExampleNew() {
	srv, err := dnstest.New("127.0.0.1:0", `
$ORIGIN example.test.
$TTL 300
@    SOA ns1 hostmaster 1 7200 900 1209600 300
@    MX  10 mail
www  CNAME @
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	q := new(dns.Msg).SetQuestion("www.example.test.", dns.TypeMX)
	reply, err := dns.Exchange(q, srv.Addr())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dns.RcodeToString[reply.Rcode], "authoritative:", reply.Authoritative)
	for _, rr := range reply.Answer {
		fmt.Println(rr)
	}
	fmt.Println("queries:", srv.Queries())
	// Output:
	// NOERROR authoritative: true
	// www.example.test.	300	IN	CNAME	example.test.
	// example.test.	300	IN	MX	10 mail.example.test.
	// queries: 1
}
