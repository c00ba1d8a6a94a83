package geoip_test

import (
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/geoip"
	"github.com/webinfra/webinfra/internal/mmdbtest"
)

func TestASNListsTheOperatorAndEveryPrefix(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	cloudflare := &geoip.ASNInfo{
		ASN: 13335, Name: "Cloudflare, Inc.",
		PrefixesV4:  []string{"1.0.0.0/24", "1.1.1.0/24", "104.16.0.0/13"},
		PrefixesV6:  []string{"2606:4700::/32"},
		PrefixCount: 4, Addresses: 256 + 256 + 1<<19,
	}
	google := &geoip.ASNInfo{
		ASN: 15169, Name: "Google LLC",
		PrefixesV4:  []string{"8.8.4.0/24", "8.8.8.0/24"},
		PrefixesV6:  []string{"2001:4860::/32"},
		PrefixCount: 3, Addresses: 512,
	}
	tests := []struct {
		asn  string
		want *geoip.ASNInfo
	}{
		{"AS13335", cloudflare},
		{"as13335", cloudflare},
		{"13335", cloudflare},
		{" AS 13335 ", cloudflare},
		{"0.13335", cloudflare}, // asdot
		{"AS15169", google},
		{"29518", &geoip.ASNInfo{ASN: 29518, Name: "Bredband2 AB", PrefixesV4: []string{"89.160.0.0/17"}, PrefixesV6: []string{}, PrefixCount: 1, Addresses: 1 << 15}},
	}
	for _, tt := range tests {
		t.Run(tt.asn, func(t *testing.T) {
			t.Parallel()
			got, err := db.ASN(geoip.ASNInput{ASN: tt.asn})
			if err != nil {
				t.Fatalf("ASN: %v", err)
			}
			assertJSONEqual(t, got, tt.want)
		})
	}
	if stats := db.IndexStats(); stats.Networks != len(mmdbtest.ASNFixture) || stats.ASNs != 4 {
		t.Errorf("IndexStats = %+v, want %d networks of 4 ASNs", stats, len(mmdbtest.ASNFixture))
	}
}

func TestASNErrors(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	tests := []struct {
		asn  string
		kind errs.Kind
		want string
	}{
		{"", errs.KindInvalid, "not an AS number"},
		{"AS", errs.KindInvalid, "not an AS number"},
		{"ASX1", errs.KindInvalid, "not an AS number"},
		{"-1", errs.KindInvalid, "not an AS number"},
		{"+13335", errs.KindInvalid, "not an AS number"},
		{"4294967296", errs.KindInvalid, "not an AS number"},
		{"1.65536", errs.KindInvalid, "not an AS number"},
		{"AS13335.", errs.KindInvalid, "not an AS number"},
		{strings.Repeat("9", 200), errs.KindInvalid, "..."},
		{"AS0", errs.KindInvalid, "AS0 is reserved (RFC 7607); not looked up"},
		{"AS23456", errs.KindInvalid, "AS_TRANS"},
		{"AS64500", errs.KindInvalid, "reserved for documentation (RFC 5398)"},
		{"AS65001", errs.KindInvalid, "reserved for private use (RFC 6996)"},
		{"1.0", errs.KindInvalid, "AS65536 is reserved for documentation"},
		{"AS4200000001", errs.KindInvalid, "reserved for private use (RFC 6996)"},
		{"AS4294967295", errs.KindInvalid, "RFC 7300"},
		{"AS3356", errs.KindNotFound, "AS3356 is not in the ASN database"},
	}
	for _, tt := range tests {
		t.Run(tt.asn, func(t *testing.T) {
			t.Parallel()
			_, err := db.ASN(geoip.ASNInput{ASN: tt.asn})
			if !errs.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v (%s), want %s: %q", err, errs.KindOf(err), tt.kind, tt.want)
			}
			if tt.kind == errs.KindInvalid && errs.FieldOf(err) != "asn" {
				t.Fatalf("field %q, want asn", errs.FieldOf(err))
			}
		})
	}
}

func TestASNIndexMergesFilesAndSortsPrefixes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// Two files (as a split IPv4/IPv6 pair would be), rows out of order,
	// one network in both.
	first := mmdbtest.WriteASN(t, dir,
		mmdbtest.ASNRow{Network: "104.16.0.0/13", ASN: 13335, Org: "Cloudflare, Inc."},
		mmdbtest.ASNRow{Network: "1.1.1.0/24", ASN: 13335, Org: "Cloudflare, Inc."},
	)
	second := mmdbtest.WriteASN(t, dir,
		mmdbtest.ASNRow{Network: "2a06:98c0::/29", ASN: 13335, Org: "Cloudflare, Inc."},
		mmdbtest.ASNRow{Network: "2606:4700::/32", ASN: 13335, Org: "Cloudflare, Inc."},
		mmdbtest.ASNRow{Network: "1.1.1.0/24", ASN: 13335, Org: "Cloudflare, Inc."},
		mmdbtest.ASNRow{Network: "1.0.0.0/24", ASN: 13335, Org: "Cloudflare, Inc."},
	)
	db := mustOpen(t, geoip.Options{ASNPath: first + "," + second})
	got, err := db.ASN(geoip.ASNInput{ASN: "AS13335"})
	if err != nil {
		t.Fatal(err)
	}
	assertJSONEqual(t, got, &geoip.ASNInfo{
		ASN: 13335, Name: "Cloudflare, Inc.",
		PrefixesV4:  []string{"1.0.0.0/24", "1.1.1.0/24", "104.16.0.0/13"},
		PrefixesV6:  []string{"2606:4700::/32", "2a06:98c0::/29"},
		PrefixCount: 5, Addresses: 256 + 256 + 1<<19,
	})
}
