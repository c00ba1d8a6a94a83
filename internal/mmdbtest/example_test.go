package mmdbtest_test

import (
	"fmt"
	"net/netip"
	"os"

	"github.com/oschwald/geoip2-golang/v2"

	"github.com/webinfra/webinfra/internal/mmdbtest"
)

func ExampleWriteASN() {
	dir, err := os.MkdirTemp("", "mmdbtest-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// In a test: path := mmdbtest.WriteASN(t, t.TempDir(), rows...)
	path := mmdbtest.WriteASN(mmdbtest.NoTest, dir, mmdbtest.ASNRow{Network: "1.1.1.0/24", ASN: 13335, Org: "Cloudflare, Inc."})

	reader, err := geoip2.Open(path)
	if err != nil {
		panic(err)
	}
	defer reader.Close()
	rec, err := reader.ASN(netip.MustParseAddr("1.1.1.1"))
	if err != nil {
		panic(err)
	}
	fmt.Println(reader.Metadata().DatabaseType, rec.Network, rec.AutonomousSystemNumber, rec.AutonomousSystemOrganization)
	// Output: GeoLite2-ASN 1.1.1.0/24 13335 Cloudflare, Inc.
}
