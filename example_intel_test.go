package webinfra_test

import (
	"fmt"
	"os"

	"github.com/webinfra/webinfra"
	"github.com/webinfra/webinfra/internal/mmdbtest"
)

// GeoIP reads the MaxMind-format databases the configuration names; here
// small ones written for the example.
func ExampleClient_GeoIP() {
	dir, err := os.MkdirTemp("", "geoip-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	c, err := webinfra.New(&webinfra.Options{Intel: &webinfra.IntelConfig{
		GeoIPCityDB: mmdbtest.WriteCity(mmdbtest.NoTest, dir),
		GeoIPASNDB:  mmdbtest.WriteASN(mmdbtest.NoTest, dir),
	}})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	loc, err := c.GeoIP(webinfra.GeoIPInput{IP: "81.2.69.142"})
	if err != nil {
		panic(err)
	}
	fmt.Println(loc.CountryCode, loc.City, loc.TimeZone, loc.ASN, loc.ASNOrg)
	_, err = c.GeoIP(webinfra.GeoIPInput{IP: "192.168.1.1"})
	fmt.Println(err)
	// Output:
	// GB Bracknell Europe/London 20712 Andrews & Arnold Ltd
	// ip: 192.168.1.1 is a private-use address (192.168.0.0/16, RFC 1918); not looked up
}
