package mmdbtest

import (
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmind/mmdbwriter/mmdbtype"
	"github.com/oschwald/geoip2-golang/v2"
	"github.com/oschwald/maxminddb-golang/v2"
)

func TestWriteCityReadsBackWithGeoIP2(t *testing.T) {
	t.Parallel()
	reader, err := geoip2.Open(WriteCity(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if got := reader.Metadata().DatabaseType; got != "GeoIP2-City" {
		t.Fatalf("database type %q", got)
	}
	for _, row := range CityFixture {
		addr := netip.MustParsePrefix(row.Network).Addr().Next()
		rec, err := reader.City(addr)
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		if rec.Country.ISOCode != row.CountryCode || rec.City.Names.English != row.City || rec.Location.TimeZone != row.TimeZone ||
			rec.Traits.Network.String() != row.Network {
			t.Errorf("%s: %+v, want %+v", addr, rec, row)
		}
	}
}

func TestWriteLocationDBSplitsByFamily(t *testing.T) {
	t.Parallel()
	v4, v6 := WriteLocationDB(t, t.TempDir())
	for _, tt := range []struct {
		path, dbType string
		ipVersion    uint
		ip           string
	}{
		{v4, "city ipv4", 4, "81.2.69.142"},
		{v6, "city ipv6", 6, "2606:4700::1"},
	} {
		reader, err := maxminddb.Open(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if reader.Metadata.DatabaseType != tt.dbType || reader.Metadata.IPVersion != tt.ipVersion {
			t.Errorf("%s: metadata %+v", tt.dbType, reader.Metadata)
		}
		var rec map[string]any
		if err := reader.Lookup(netip.MustParseAddr(tt.ip)).Decode(&rec); err != nil {
			t.Fatal(err)
		}
		if _, ok := rec["latitude"].(float32); !ok || rec["country_code"] == "" || len(rec) != 8 {
			t.Errorf("%s: record %v is not in the ip-location-db shape", tt.ip, rec)
		}
		reader.Close()
	}
}

func TestWritersRefuseReservedNetworks(t *testing.T) {
	t.Parallel()
	for _, network := range []string{"10.0.0.0/8", "192.168.1.0/24", "2001:db8::/32", "fe80::/10"} {
		_, err := buildTree("GeoIP2-City", 6, []RawRow{{Network: network, Record: mmdbtype.Map{}}})
		if err == nil || !strings.Contains(err.Error(), "reserved network") {
			t.Errorf("%s: err = %v, want a reserved-network refusal", network, err)
		}
	}
}

func TestWriteASNFromCSV(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v4 := filepath.Join(dir, "asn-ipv4.csv")
	v6 := filepath.Join(dir, "asn-ipv6.csv")
	writeText(t, v4, `1.0.0.0,1.0.0.255,13335,"Cloudflare, Inc."
1.0.4.0,1.0.7.255,38803,Gtelecom Pty Ltd
8.8.4.0,8.8.8.255,15169,Google LLC
10.0.0.0,10.0.0.255,64512,Private Co
`)
	writeText(t, v6, "2606:4700::,2606:4700:ffff:ffff:ffff:ffff:ffff:ffff,13335,\"Cloudflare, Inc.\"\n")
	reader, err := maxminddb.Open(WriteASNFromCSV(t, dir, v4, v6))
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	var got []string
	for res := range reader.Networks() {
		var rec geoip2.ASN
		if err := res.Decode(&rec); err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Prefix().String()+" "+rec.AutonomousSystemOrganization)
	}
	slices.Sort(got)
	want := []string{
		"1.0.0.0/24 Cloudflare, Inc.",
		"1.0.4.0/22 Gtelecom Pty Ltd",
		"2606:4700::/32 Cloudflare, Inc.",
		"8.8.4.0/22 Google LLC", // a range that is not one CIDR becomes the prefixes covering it
		"8.8.8.0/24 Google LLC",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("networks\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFindPackageLayouts(t *testing.T) {
	t.Parallel()
	for _, layout := range []string{"node_modules/@ip-location-db/asn", "@ip-location-db/asn", "asn"} {
		dir := t.TempDir()
		pkg := filepath.Join(dir, filepath.FromSlash(layout))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		writeText(t, filepath.Join(pkg, "package.json"), `{"name":"@ip-location-db/asn","version":"2.3.2026061719"}`)
		if got := findPackage(dir, NPMASNPackage); got != pkg {
			t.Errorf("%s: found %q", layout, got)
		}
		if got := packageVersion(t, pkg); got != "2.3.2026061719" {
			t.Errorf("%s: version %q", layout, got)
		}
	}
	if got := findPackage(t.TempDir(), NPMCityPackage); got != "" {
		t.Errorf("an empty directory holds %q", got)
	}
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
