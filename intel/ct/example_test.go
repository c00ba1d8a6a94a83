package ct_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/intel/ct"
	"github.com/webinfra/webinfra/intel/ct/cttest"
)

// Subdomains lists the names certificates were issued for, from a
// crt.sh-compatible log (here a loopback peer).
func ExampleClient_Subdomains() {
	log := cttest.NewServer(
		cttest.Entry{ID: 2, IssuerCAID: 7, IssuerName: "C=US, O=Let's Encrypt, CN=R3", CommonName: "www.example.com",
			NameValue: "www.example.com\n*.api.example.com\nother.org", NotBefore: "2024-06-01T10:00:00", NotAfter: "2024-08-30T09:59:59", SerialNumber: "04ab"},
		cttest.Entry{ID: 1, IssuerCAID: 7, IssuerName: "C=US, O=Let's Encrypt, CN=R3", CommonName: "www.example.com",
			NameValue: "www.example.com\n*.api.example.com\nother.org", NotBefore: "2024-06-01T10:00:00", NotAfter: "2024-08-30T09:59:59", SerialNumber: "04ab"},
	)
	defer log.Close()
	client, err := ct.New(&ct.Options{BaseURL: log.URL + "/"})
	if err != nil {
		panic(err)
	}
	s, err := client.Subdomains(context.Background(), ct.SubdomainsInput{Domain: "example.com"})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Certificates, "certificate")
	for _, n := range s.Subdomains {
		fmt.Println(n.Name, "wildcard:", n.Wildcard)
	}
	// Output:
	// 1 certificate
	// api.example.com wildcard: true
	// www.example.com wildcard: false
}
