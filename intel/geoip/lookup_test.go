package geoip_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/maxmind/mmdbwriter/mmdbtype"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/geoip"
	"github.com/webinfra/webinfra/internal/mmdbtest"
)

// openFixtures opens the MaxMind-schema fixtures: the city database and
// the ASN database of package mmdbtest.
func openFixtures(t testing.TB) *geoip.DB {
	t.Helper()
	dir := t.TempDir()
	return mustOpen(t, geoip.Options{CityPath: mmdbtest.WriteCity(t, dir), ASNPath: mmdbtest.WriteASN(t, dir)})
}

func mustOpen(t testing.TB, opts geoip.Options) *geoip.DB {
	t.Helper()
	db, err := geoip.Open(opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func ptr(f float64) *float64 { return &f }

func TestLookupMaxMindSchema(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	tests := []struct {
		ip   string
		want geoip.Location
	}{
		{"81.2.69.142", geoip.Location{
			IP: "81.2.69.142", Found: true, CountryCode: "GB", Country: "United Kingdom", Region: "England", RegionCode: "ENG",
			City: "Bracknell", Postal: "RG12", Latitude: ptr(51.4036), Longitude: ptr(-0.7618), AccuracyRadiusKM: 20,
			TimeZone: "Europe/London", ASN: 20712, ASNOrg: "Andrews & Arnold Ltd", Network: "81.2.69.128/25",
			ASNNetwork: "81.2.69.0/24", Sources: []string{"city", "asn"},
		}},
		{"89.160.20.112", geoip.Location{
			IP: "89.160.20.112", Found: true, CountryCode: "SE", Country: "Sweden", Region: "Östergötland County", RegionCode: "E",
			City: "Linköping", Postal: "583 30", Latitude: ptr(58.4167), Longitude: ptr(15.6167), AccuracyRadiusKM: 76,
			TimeZone: "Europe/Stockholm", ASN: 29518, ASNOrg: "Bredband2 AB", Network: "89.160.20.0/24",
			ASNNetwork: "89.160.0.0/17", Sources: []string{"city", "asn"},
		}},
		{"2606:4700::1111", geoip.Location{
			IP: "2606:4700::1111", Found: true, CountryCode: "US", Country: "United States", Region: "California", RegionCode: "CA",
			City: "San Francisco", Postal: "94107", Latitude: ptr(37.7697), Longitude: ptr(-122.3933), AccuracyRadiusKM: 1000,
			TimeZone: "America/Los_Angeles", ASN: 13335, ASNOrg: "Cloudflare, Inc.", Network: "2606:4700::/32",
			ASNNetwork: "2606:4700::/32", Sources: []string{"city", "asn"},
		}},
		{"::ffff:8.8.8.8", geoip.Location{ // IPv4-mapped: looked up as IPv4
			IP: "8.8.8.8", Found: true, CountryCode: "US", Country: "United States", Latitude: ptr(37.751), Longitude: ptr(-97.822),
			AccuracyRadiusKM: 1000, TimeZone: "America/Chicago", ASN: 15169, ASNOrg: "Google LLC", Network: "8.8.8.0/24",
			ASNNetwork: "8.8.8.0/24", Sources: []string{"city", "asn"},
		}},
		{" 1.0.0.1 ", geoip.Location{ // only the ASN database holds it
			IP: "1.0.0.1", Found: true, ASN: 13335, ASNOrg: "Cloudflare, Inc.", ASNNetwork: "1.0.0.0/24", Sources: []string{"asn"},
		}},
		{"9.9.9.9", geoip.Location{IP: "9.9.9.9", Sources: []string{}}},     // in neither: an answer, not an error
		{"192.0.0.9", geoip.Location{IP: "192.0.0.9", Sources: []string{}}}, // a globally reachable anycast address inside 192.0.0.0/24
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			t.Parallel()
			got, err := db.Lookup(geoip.GeoIPInput{IP: tt.ip})
			if err != nil {
				t.Fatalf("Lookup: %v", err)
			}
			assertJSONEqual(t, got, tt.want)
		})
	}
}

func TestLookupLocationDBSchema(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v4, v6 := mmdbtest.WriteLocationDB(t, dir)
	db := mustOpen(t, geoip.Options{CityPath: v4 + "," + v6})
	tests := []struct {
		ip   string
		want geoip.Location
	}{
		{"81.2.69.142", geoip.Location{
			IP: "81.2.69.142", Found: true, CountryCode: "GB", Country: "United Kingdom", Region: "England", City: "Bracknell",
			Postal: "RG12", Latitude: ptr(51.4036), Longitude: ptr(-0.7618), TimeZone: "Europe/London",
			Network: "81.2.69.128/25", Sources: []string{"city"},
		}},
		{"2606:4700::1", geoip.Location{ // from the second (IPv6) file
			IP: "2606:4700::1", Found: true, CountryCode: "US", Country: "United States", Region: "California",
			City: "San Francisco", Postal: "94107", Latitude: ptr(37.7697), Longitude: ptr(-122.3933),
			TimeZone: "America/Los_Angeles", Network: "2606:4700::/32", Sources: []string{"city"},
		}},
		{"8.8.8.8", geoip.Location{
			IP: "8.8.8.8", Found: true, CountryCode: "US", Country: "United States", Latitude: ptr(37.751), Longitude: ptr(-97.822),
			TimeZone: "America/Chicago", Network: "8.8.8.0/24", Sources: []string{"city"},
		}},
		{"2001:4860::8888", geoip.Location{IP: "2001:4860::8888", Sources: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			t.Parallel()
			got, err := db.Lookup(geoip.GeoIPInput{IP: tt.ip})
			if err != nil {
				t.Fatalf("Lookup: %v", err)
			}
			assertJSONEqual(t, got, tt.want)
		})
	}
}

func TestLookupAnswersWithTheDatabasesItHas(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	city, asn := mmdbtest.WriteCity(t, dir), mmdbtest.WriteASN(t, dir)
	tests := []struct {
		name        string
		opts        geoip.Options
		wantSources []string
	}{
		{"city only", geoip.Options{CityPath: city}, []string{"city"}},
		{"asn only", geoip.Options{ASNPath: asn}, []string{"asn"}},
		{"both", geoip.Options{CityPath: city, ASNPath: asn}, []string{"city", "asn"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := mustOpen(t, tt.opts)
			got, err := db.Lookup(geoip.GeoIPInput{IP: "8.8.8.8"})
			if err != nil {
				t.Fatalf("Lookup: %v", err)
			}
			if !got.Found || !slices.Equal(got.Sources, tt.wantSources) {
				t.Fatalf("found %v, sources %v; want %v", got.Found, got.Sources, tt.wantSources)
			}
			if (got.ASN != 0) != slices.Contains(tt.wantSources, "asn") || (got.CountryCode != "") != slices.Contains(tt.wantSources, "city") {
				t.Fatalf("answered from a database it does not have: %+v", got)
			}
		})
	}
}

func TestWithoutDatabasesCallsNameTheFlags(t *testing.T) {
	t.Parallel()
	empty := mustOpen(t, geoip.Options{})
	cityOnly := mustOpen(t, geoip.Options{CityPath: mmdbtest.WriteCity(t, t.TempDir())})
	var nilDB *geoip.DB
	calls := []struct {
		name  string
		call  func() error
		flags []string
	}{
		{"lookup", func() error { _, err := empty.Lookup(geoip.GeoIPInput{IP: "8.8.8.8"}); return err }, []string{geoip.CityFlag, geoip.CityEnv, geoip.ASNFlag}},
		{"bulk", func() error { _, err := empty.Bulk(geoip.BulkInput{IPs: []string{"8.8.8.8"}}); return err }, []string{geoip.CityFlag, geoip.ASNFlag}},
		{"asn", func() error { _, err := empty.ASN(geoip.ASNInput{ASN: "AS13335"}); return err }, []string{geoip.ASNFlag, geoip.ASNEnv}},
		{"asn with only a city database", func() error { _, err := cityOnly.ASN(geoip.ASNInput{ASN: "13335"}); return err }, []string{geoip.ASNFlag}},
		{"nil lookup", func() error { _, err := nilDB.Lookup(geoip.GeoIPInput{IP: "8.8.8.8"}); return err }, []string{geoip.CityFlag}},
		{"nil asn", func() error { _, err := nilDB.ASN(geoip.ASNInput{ASN: "13335"}); return err }, []string{geoip.ASNFlag}},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.call()
			if !errs.Is(err, errs.KindUnavailable) {
				t.Fatalf("err = %v, want unavailable", err)
			}
			for _, flag := range tt.flags {
				if !strings.Contains(err.Error(), flag) {
					t.Errorf("%q does not name %s", err, flag)
				}
			}
		})
	}
}

func TestLookupRefusesInvalidAddresses(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	tests := []struct{ ip, want string }{
		{"", "required"},
		{"example.com", "not an IP address"},
		{"1.2.3", "not an IP address"},
		{"1.2.3.4/24", "not an IP address"},
		{strings.Repeat("1", 100), "longer than 64"},
		{"fe80::1%eth0", "zone"},
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			t.Parallel()
			_, err := db.Lookup(geoip.GeoIPInput{IP: tt.ip})
			if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != "ip" || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v (kind %s, field %q), want invalid ip: %q", err, errs.KindOf(err), errs.FieldOf(err), tt.want)
			}
		})
	}
}

func TestCorruptRecordsAreUpstreamErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	city := mmdbtest.WriteRaw(t, dir, "GeoIP2-City", 6,
		mmdbtest.RawRow{Network: "8.8.8.0/24", Record: mmdbtype.Map{"country": mmdbtype.String("not a map")}},
		mmdbtest.RawRow{Network: "1.1.1.0/24", Record: mmdbtype.Map{"location": mmdbtype.Map{
			"latitude": mmdbtype.Float64(math.NaN()), "longitude": mmdbtype.Float64(500), "time_zone": mmdbtype.String("Etc/UTC"),
		}}},
	)
	db := mustOpen(t, geoip.Options{CityPath: city})
	_, err := db.Lookup(geoip.GeoIPInput{IP: "8.8.8.8"})
	if !errs.Is(err, errs.KindUpstream) || !strings.Contains(err.Error(), "GeoIP database") || strings.Contains(err.Error(), dir) {
		t.Fatalf("err = %v, want an upstream error naming the GeoIP database and not its path", err)
	}
	got, err := db.Lookup(geoip.GeoIPInput{IP: "1.1.1.1"})
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	if got.Latitude != nil || got.Longitude != nil || got.TimeZone != "Etc/UTC" {
		t.Fatalf("a NaN or out-of-range position must be dropped, the rest kept: %+v", got)
	}
	if _, err := json.Marshal(got); err != nil {
		t.Fatalf("the answer must encode: %v", err)
	}
}

func TestCloseEndsLookups(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	var wg sync.WaitGroup
	for range 8 { // concurrent readers, then Close: -race checks the locking
		wg.Go(func() {
			for range 50 {
				if _, err := db.Bulk(geoip.BulkInput{IPs: []string{"8.8.8.8", "2606:4700::1"}}); err != nil && !errs.Is(err, errs.KindUnavailable) {
					t.Errorf("Bulk: %v", err)
				}
			}
		})
	}
	wg.Wait()
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := db.Lookup(geoip.GeoIPInput{IP: "8.8.8.8"}); !errs.Is(err, errs.KindUnavailable) {
		t.Fatalf("Lookup after Close: %v, want unavailable", err)
	}
	if _, err := db.ASN(geoip.ASNInput{ASN: "13335"}); !errs.Is(err, errs.KindUnavailable) {
		t.Fatalf("ASN after Close: %v, want unavailable", err)
	}
}

// assertJSONEqual compares as the API answers, so pointers compare by value.
func assertJSONEqual(t *testing.T, got, want any) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Fatalf("got  %s\nwant %s", g, w)
	}
}
