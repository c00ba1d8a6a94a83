package geoip_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/intel/geoip"
	"github.com/webinfra/webinfra/internal/mmdbtest"
)

// openRealData opens the real databases of the npm packages
// (mmdbtest.LoadNPM: skipped without $WEBINFRA_TEST_GEOIP_DIR, failed
// under CI=true).
func openRealData(t testing.TB) (*geoip.DB, *mmdbtest.NPMData) {
	t.Helper()
	data := mmdbtest.LoadNPM(t)
	return mustOpen(t, geoip.Options{CityPath: strings.Join(data.CityPaths, ","), ASNPath: data.ASNPath}), data
}

func TestRealData(t *testing.T) {
	t.Parallel()
	data := mmdbtest.LoadNPM(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	db := mustOpen(t, geoip.Options{CityPath: strings.Join(data.CityPaths, ","), ASNPath: data.ASNPath})
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	stats := db.IndexStats()
	t.Logf("%s %s + %s %s: Open %v; ASN index of %d networks, %d ASNs in %v, heap +%.1f MiB",
		mmdbtest.NPMCityPackage, data.CityVersion, mmdbtest.NPMASNPackage, data.ASNVersion,
		took.Round(time.Millisecond), stats.Networks, stats.ASNs, stats.Took.Round(time.Millisecond),
		float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20))
	if stats.Networks < 100_000 || stats.ASNs < 10_000 {
		t.Fatalf("the real ASN database looks too small: %+v", stats)
	}

	t.Run("lookups", func(t *testing.T) {
		tests := []struct {
			ip, country, city string
			asn               uint32
			orgPrefix         string
		}{
			{"81.2.69.142", "GB", "Bracknell", 20712, "Andrews"},
			{"8.8.8.8", "US", "", 15169, "Google"},
			{"1.1.1.1", "", "", 13335, "Cloudflare"},
			{"2606:4700:4700::1111", "", "", 13335, "Cloudflare"},
			{"2001:4860:4860::8888", "", "", 15169, "Google"},
		}
		for _, tt := range tests {
			got, err := db.Lookup(geoip.GeoIPInput{IP: tt.ip})
			if err != nil {
				t.Fatalf("%s: %v", tt.ip, err)
			}
			t.Logf("%s: %s %q %q %s AS%d %q", tt.ip, got.CountryCode, got.Region, got.City, got.TimeZone, got.ASN, got.ASNOrg)
			if (tt.country != "" && got.CountryCode != tt.country) || (tt.city != "" && got.City != tt.city) ||
				got.ASN != tt.asn || !strings.HasPrefix(got.ASNOrg, tt.orgPrefix) {
				t.Errorf("%s = %+v; want %s %s AS%d %s...", tt.ip, got, tt.country, tt.city, tt.asn, tt.orgPrefix)
			}
		}
	})

	t.Run("asn", func(t *testing.T) {
		for _, tt := range []struct{ asn, prefix string }{{"AS13335", "1.1.1.0/24"}, {"AS15169", "8.8.8.0/24"}} {
			got, err := db.ASN(geoip.ASNInput{ASN: tt.asn})
			if err != nil {
				t.Fatalf("%s: %v", tt.asn, err)
			}
			t.Logf("%s %q: %d prefixes (%d IPv4, %d IPv6), %d IPv4 addresses", tt.asn, got.Name, got.PrefixCount, len(got.PrefixesV4), len(got.PrefixesV6), got.Addresses)
			if !slices.Contains(got.PrefixesV4, tt.prefix) || len(got.PrefixesV6) == 0 {
				t.Errorf("%s: no %s or no IPv6 prefix in %v", tt.asn, tt.prefix, got.PrefixesV4)
			}
		}
	})
}

// publicIPs returns n public addresses spread over the IPv4 and IPv6
// space, a mix a bulk caller might send.
func publicIPs(n int) []string {
	ips := make([]string, n)
	for i := range ips {
		if i%4 == 3 {
			ips[i] = fmt.Sprintf("2a0%d:%x::%x", i%10, i*97, i)
		} else {
			ips[i] = fmt.Sprintf("%d.%d.%d.%d", 1+i*2%222, i*37%256, i*11%256, 1+i%250)
		}
	}
	return ips
}

func benchmarkBulk(b *testing.B, db *geoip.DB) {
	in := geoip.BulkInput{IPs: publicIPs(geoip.MaxBulk)}
	got, err := db.Bulk(in)
	if err != nil || got.Failed != 0 {
		b.Fatalf("Bulk: %v, %d failed: %+v", err, got.Failed, got.Results)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := db.Bulk(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBulk100 looks up 100 public addresses in one call (the issue's
// budget: under 5 ms).
func BenchmarkBulk100(b *testing.B) {
	b.Run("fixture", func(b *testing.B) { benchmarkBulk(b, openFixtures(b)) })
	b.Run("real", func(b *testing.B) {
		db, _ := openRealData(b)
		benchmarkBulk(b, db)
	})
}
