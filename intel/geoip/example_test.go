package geoip_test

import (
	"fmt"
	"net/netip"
	"os"

	"github.com/webinfra/webinfra/intel/geoip"
	"github.com/webinfra/webinfra/internal/mmdbtest"
)

func Example() {
	dir, err := os.MkdirTemp("", "geoip-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	db, err := geoip.Open(geoip.Options{
		CityPath: mmdbtest.WriteCity(mmdbtest.NoTest, dir), // GeoIP2-City schema fixtures
		ASNPath:  mmdbtest.WriteASN(mmdbtest.NoTest, dir),  // GeoLite2-ASN schema fixtures
	})
	if err != nil {
		panic(err)
	}
	defer db.Close()

	loc, err := db.Lookup(geoip.GeoIPInput{IP: "81.2.69.142"})
	if err != nil {
		panic(err)
	}
	fmt.Println(loc.Country, "/", loc.City, "/", loc.TimeZone, "/", loc.Network, "/", loc.ASN, loc.ASNOrg, loc.Sources)

	_, err = db.Lookup(geoip.GeoIPInput{IP: "192.168.1.1"})
	fmt.Println(err)

	as, err := db.ASN(geoip.ASNInput{ASN: "AS13335"})
	if err != nil {
		panic(err)
	}
	fmt.Println(as.Name, as.PrefixesV4, as.PrefixesV6)

	bulk, err := db.Bulk(geoip.BulkInput{IPs: []string{"8.8.8.8", "10.0.0.1", "9.9.9.9"}})
	if err != nil {
		panic(err)
	}
	fmt.Println("answered", bulk.Answered, "failed", bulk.Failed)
	// Output:
	// United Kingdom / Bracknell / Europe/London / 81.2.69.128/25 / 20712 Andrews & Arnold Ltd [city asn]
	// ip: 192.168.1.1 is a private-use address (192.168.0.0/16, RFC 1918); not looked up
	// Cloudflare, Inc. [1.0.0.0/24 1.1.1.0/24 104.16.0.0/13] [2606:4700::/32]
	// answered 2 failed 1
}

func ExampleReserved() {
	for _, ip := range []string{"100.64.0.1", "2001:db8::1", "192.0.0.9", "8.8.8.8"} {
		if r, reserved := geoip.Reserved(netip.MustParseAddr(ip)); reserved {
			fmt.Printf("%s: %s (%s)\n", ip, r.What, r.RFC)
		} else {
			fmt.Printf("%s: public\n", ip)
		}
	}
	// Output:
	// 100.64.0.1: a shared (carrier-grade NAT) address (RFC 6598)
	// 2001:db8::1: a documentation address (RFC 3849)
	// 192.0.0.9: public
	// 8.8.8.8: public
}
