package mmdbtest

import (
	"fmt"
	"net"
	"os"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// TB is the part of testing.TB the writers use; testing.T and testing.B
// are one, and NoTest serves Example functions.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// NoTest is a TB for Example functions, which have no testing.T: Fatalf
// panics.
var NoTest TB = noTest{}

type noTest struct{}

func (noTest) Helper() {}

func (noTest) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// CityRow is one network of a GeoIP2-City database.
type CityRow struct {
	Network          string // CIDR, e.g. "81.2.69.128/25"
	CountryCode      string // ISO 3166-1 alpha-2, e.g. "GB"
	Country          string // English name
	RegionCode       string // ISO 3166-2 subdivision code without the country, e.g. "ENG"
	Region           string // English name of the first subdivision
	City             string
	Postal           string
	Latitude         float64 // written when Latitude or Longitude is not 0
	Longitude        float64
	AccuracyRadiusKM uint16
	TimeZone         string
}

// LocationRow is one network of an ip-location-db city database.
type LocationRow struct {
	Network     string // CIDR
	CountryCode string
	State1      string // first-level subdivision name
	State2      string // second-level subdivision name
	City        string
	Postcode    string
	Latitude    float32
	Longitude   float32
	Timezone    string
}

// ASNRow is one network of a GeoLite2-ASN database.
type ASNRow struct {
	Network string // CIDR
	ASN     uint32
	Org     string
}

// RawRow is one network of a database written by WriteRaw.
type RawRow struct {
	Network string
	Record  mmdbtype.DataType
}

// CityFixture is what WriteCity writes when given no rows.
var CityFixture = []CityRow{
	{Network: "1.1.1.0/24", CountryCode: "AU", Country: "Australia", Latitude: -33.494, Longitude: 143.2104, AccuracyRadiusKM: 1000, TimeZone: "Australia/Sydney"},
	{Network: "8.8.8.0/24", CountryCode: "US", Country: "United States", Latitude: 37.751, Longitude: -97.822, AccuracyRadiusKM: 1000, TimeZone: "America/Chicago"},
	{Network: "81.2.69.128/25", CountryCode: "GB", Country: "United Kingdom", RegionCode: "ENG", Region: "England", City: "Bracknell", Postal: "RG12", Latitude: 51.4036, Longitude: -0.7618, AccuracyRadiusKM: 20, TimeZone: "Europe/London"},
	{Network: "89.160.20.0/24", CountryCode: "SE", Country: "Sweden", RegionCode: "E", Region: "Östergötland County", City: "Linköping", Postal: "583 30", Latitude: 58.4167, Longitude: 15.6167, AccuracyRadiusKM: 76, TimeZone: "Europe/Stockholm"},
	{Network: "2001:4860::/32", CountryCode: "US", Country: "United States", Latitude: 37.751, Longitude: -97.822, AccuracyRadiusKM: 1000, TimeZone: "America/Chicago"},
	{Network: "2606:4700::/32", CountryCode: "US", Country: "United States", RegionCode: "CA", Region: "California", City: "San Francisco", Postal: "94107", Latitude: 37.7697, Longitude: -122.3933, AccuracyRadiusKM: 1000, TimeZone: "America/Los_Angeles"},
}

// LocationFixture is what WriteLocationDB writes when given no rows.
var LocationFixture = []LocationRow{
	{Network: "8.8.8.0/24", CountryCode: "US", Latitude: 37.751, Longitude: -97.822, Timezone: "America/Chicago"},
	{Network: "81.2.69.128/25", CountryCode: "GB", State1: "England", State2: "Bracknell Forest", City: "Bracknell", Postcode: "RG12", Latitude: 51.4036, Longitude: -0.7618, Timezone: "Europe/London"},
	{Network: "2606:4700::/32", CountryCode: "US", State1: "California", City: "San Francisco", Postcode: "94107", Latitude: 37.7697, Longitude: -122.3933, Timezone: "America/Los_Angeles"},
}

// ASNFixture is what WriteASN writes when given no rows.
var ASNFixture = []ASNRow{
	{Network: "1.0.0.0/24", ASN: 13335, Org: "Cloudflare, Inc."},
	{Network: "1.1.1.0/24", ASN: 13335, Org: "Cloudflare, Inc."},
	{Network: "104.16.0.0/13", ASN: 13335, Org: "Cloudflare, Inc."},
	{Network: "2606:4700::/32", ASN: 13335, Org: "Cloudflare, Inc."},
	{Network: "8.8.4.0/24", ASN: 15169, Org: "Google LLC"},
	{Network: "8.8.8.0/24", ASN: 15169, Org: "Google LLC"},
	{Network: "2001:4860::/32", ASN: 15169, Org: "Google LLC"},
	{Network: "81.2.69.0/24", ASN: 20712, Org: "Andrews & Arnold Ltd"},
	{Network: "89.160.0.0/17", ASN: 29518, Org: "Bredband2 AB"},
}

// WriteCity writes a GeoIP2-City database (IPv6 tree, IPv4 aliased) into
// dir and returns its path. No rows means CityFixture.
func WriteCity(tb TB, dir string, rows ...CityRow) string {
	tb.Helper()
	if len(rows) == 0 {
		rows = CityFixture
	}
	raw := make([]RawRow, len(rows))
	for i, r := range rows {
		raw[i] = RawRow{Network: r.Network, Record: cityRecord(r)}
	}
	return WriteRaw(tb, dir, "GeoIP2-City", 6, raw...)
}

// WriteLocationDB writes an ip-location-db city database as that project
// ships it: an IPv4-only file (type "city ipv4") with the IPv4 rows and
// an IPv6 file (type "city ipv6") with the IPv6 rows. No rows means
// LocationFixture.
func WriteLocationDB(tb TB, dir string, rows ...LocationRow) (v4Path, v6Path string) {
	tb.Helper()
	if len(rows) == 0 {
		rows = LocationFixture
	}
	var v4, v6 []RawRow
	for _, r := range rows {
		row := RawRow{Network: r.Network, Record: locationRecord(r)}
		if isIPv4Network(tb, r.Network) {
			v4 = append(v4, row)
		} else {
			v6 = append(v6, row)
		}
	}
	return WriteRaw(tb, dir, "city ipv4", 4, v4...), WriteRaw(tb, dir, "city ipv6", 6, v6...)
}

// WriteASN writes a GeoLite2-ASN database into dir and returns its path.
// No rows means ASNFixture.
func WriteASN(tb TB, dir string, rows ...ASNRow) string {
	tb.Helper()
	if len(rows) == 0 {
		rows = ASNFixture
	}
	raw := make([]RawRow, len(rows))
	for i, r := range rows {
		raw[i] = RawRow{Network: r.Network, Record: asnRecord(r.ASN, r.Org)}
	}
	return WriteRaw(tb, dir, "GeoLite2-ASN", 6, raw...)
}

// WriteRaw writes a database of the given type and IP version (4 or 6)
// holding rows into dir and returns its path. A reserved network fails
// the test, as mmdbwriter refuses it.
func WriteRaw(tb TB, dir, databaseType string, ipVersion int, rows ...RawRow) string {
	tb.Helper()
	tree, err := buildTree(databaseType, ipVersion, rows)
	if err != nil {
		tb.Fatalf("mmdbtest: %v", err)
	}
	return writeTree(tb, dir, tree)
}

func buildTree(databaseType string, ipVersion int, rows []RawRow) (*mmdbwriter.Tree, error) {
	tree, err := newTree(databaseType, ipVersion)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		_, network, err := net.ParseCIDR(r.Network)
		if err != nil {
			return nil, fmt.Errorf("network %q: %w", r.Network, err)
		}
		if err := tree.Insert(network, r.Record); err != nil {
			return nil, fmt.Errorf("insert %s: %w", r.Network, err)
		}
	}
	return tree, nil
}

func newTree(databaseType string, ipVersion int) (*mmdbwriter.Tree, error) {
	return mmdbwriter.New(mmdbwriter.Options{
		DatabaseType: databaseType,
		IPVersion:    ipVersion,
		RecordSize:   28,
		Languages:    []string{"en"},
		Description:  map[string]string{"en": "webinfra test fixture"},
	})
}

// writeTree writes tree to a new file in dir and returns its path.
func writeTree(tb TB, dir string, tree *mmdbwriter.Tree) string {
	tb.Helper()
	f, err := os.CreateTemp(dir, "fixture-*.mmdb")
	if err != nil {
		tb.Fatalf("mmdbtest: %v", err)
	}
	defer f.Close()
	if _, err := tree.WriteTo(f); err != nil {
		tb.Fatalf("mmdbtest: write %s: %v", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		tb.Fatalf("mmdbtest: close %s: %v", f.Name(), err)
	}
	return f.Name()
}

func isIPv4Network(tb TB, cidr string) bool {
	tb.Helper()
	ip, _, err := net.ParseCIDR(cidr)
	if err != nil {
		tb.Fatalf("mmdbtest: network %q: %v", cidr, err)
	}
	return ip.To4() != nil
}

// cityRecord is r in the GeoIP2-City schema, with only the fields r has,
// as MaxMind writes them.
func cityRecord(r CityRow) mmdbtype.Map {
	rec := mmdbtype.Map{}
	if r.CountryCode != "" {
		country := mmdbtype.Map{"iso_code": mmdbtype.String(r.CountryCode)}
		if r.Country != "" {
			country["names"] = englishName(r.Country)
		}
		rec["country"], rec["registered_country"] = country, country
	}
	if r.Region != "" || r.RegionCode != "" {
		sub := mmdbtype.Map{"iso_code": mmdbtype.String(r.RegionCode), "names": englishName(r.Region)}
		rec["subdivisions"] = mmdbtype.Slice{sub}
	}
	if r.City != "" {
		rec["city"] = mmdbtype.Map{"names": englishName(r.City)}
	}
	if r.Postal != "" {
		rec["postal"] = mmdbtype.Map{"code": mmdbtype.String(r.Postal)}
	}
	loc := mmdbtype.Map{}
	if r.Latitude != 0 || r.Longitude != 0 {
		loc["latitude"], loc["longitude"] = mmdbtype.Float64(r.Latitude), mmdbtype.Float64(r.Longitude)
	}
	if r.AccuracyRadiusKM != 0 {
		loc["accuracy_radius"] = mmdbtype.Uint16(r.AccuracyRadiusKM)
	}
	if r.TimeZone != "" {
		loc["time_zone"] = mmdbtype.String(r.TimeZone)
	}
	if len(loc) > 0 {
		rec["location"] = loc
	}
	return rec
}

func englishName(name string) mmdbtype.Map {
	return mmdbtype.Map{"en": mmdbtype.String(name)}
}

// locationRecord is r in the ip-location-db schema: every field present,
// empty strings included, coordinates as float32, as that project writes
// them.
func locationRecord(r LocationRow) mmdbtype.Map {
	return mmdbtype.Map{
		"country_code": mmdbtype.String(r.CountryCode),
		"state1":       mmdbtype.String(r.State1),
		"state2":       mmdbtype.String(r.State2),
		"city":         mmdbtype.String(r.City),
		"postcode":     mmdbtype.String(r.Postcode),
		"latitude":     mmdbtype.Float32(r.Latitude),
		"longitude":    mmdbtype.Float32(r.Longitude),
		"timezone":     mmdbtype.String(r.Timezone),
	}
}

func asnRecord(asn uint32, org string) mmdbtype.Map {
	return mmdbtype.Map{
		"autonomous_system_number":       mmdbtype.Uint32(asn),
		"autonomous_system_organization": mmdbtype.String(org),
	}
}
