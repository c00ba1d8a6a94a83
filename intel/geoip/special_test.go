package geoip_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/geoip"
)

func TestPrivateAndReservedAddressesAreNotLookedUp(t *testing.T) {
	t.Parallel()
	db := openFixtures(t)
	tests := []struct{ ip, want string }{
		{"10.1.2.3", "private-use address (10.0.0.0/8, RFC 1918)"},
		{"172.31.255.255", "private-use address (172.16.0.0/12, RFC 1918)"},
		{"192.168.1.1", "private-use address (192.168.0.0/16, RFC 1918)"},
		{"100.64.0.1", "carrier-grade NAT) address (100.64.0.0/10, RFC 6598)"},
		{"127.0.0.1", "loopback address (127.0.0.0/8, RFC 1122)"},
		{"169.254.169.254", "link-local address (169.254.0.0/16, RFC 3927)"},
		{"0.0.0.0", "(0.0.0.0/8, RFC 791)"},
		{"192.0.0.1", "IETF protocol assignment (192.0.0.0/24, RFC 6890)"},
		{"192.0.2.1", "documentation address (TEST-NET-1) (192.0.2.0/24, RFC 5737)"},
		{"198.51.100.7", "TEST-NET-2"},
		{"203.0.113.200", "TEST-NET-3"},
		{"198.19.0.1", "benchmarking address (198.18.0.0/15, RFC 2544)"},
		{"192.88.99.1", "RFC 7526"},
		{"224.0.0.251", "multicast address (224.0.0.0/4, RFC 5771)"},
		{"240.0.0.1", "reserved address (240.0.0.0/4, RFC 1112)"},
		{"255.255.255.255", "limited broadcast address (255.255.255.255/32, RFC 919)"},
		{"::ffff:10.0.0.1", "private-use address (10.0.0.0/8, RFC 1918)"}, // IPv4-mapped: judged as IPv4
		{"::", "unspecified address (::/128, RFC 4291)"},
		{"::1", "loopback address (::1/128, RFC 4291)"},
		{"fe80::1", "link-local address (fe80::/10, RFC 4291)"},
		{"fd12:3456::1", "unique-local address (fc00::/7, RFC 4193)"},
		{"ff02::1", "multicast address (ff00::/8, RFC 4291)"},
		{"2001:db8::1", "documentation address (2001:db8::/32, RFC 3849)"},
		{"3fff::1", "documentation address (3fff::/20, RFC 9637)"},
		{"2001:2::1", "benchmarking address (2001:2::/48, RFC 5180)"},
		{"2001:5::1", "IETF protocol assignment (2001::/23, RFC 2928)"},
		{"100::1", "discard-only address (100::/64, RFC 6666)"},
		{"64:ff9b:1::1", "RFC 8215"},
		{"5f00::1", "RFC 9602"},
		{"4000::1", "outside the IPv6 global unicast space 2000::/3"},
		{"fec0::1", "outside the IPv6 global unicast space"}, // deprecated site-local
	}
	for _, tt := range tests {
		t.Run(tt.ip, func(t *testing.T) {
			t.Parallel()
			_, err := db.Lookup(geoip.GeoIPInput{IP: tt.ip})
			if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != "ip" {
				t.Fatalf("err = %v, want invalid ip", err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasSuffix(err.Error(), "; not looked up") {
				t.Fatalf("%q does not say %q; not looked up", err, tt.want)
			}
		})
	}
}

func TestPublicAddressesInsideSpecialBlocksAreLookedUp(t *testing.T) {
	t.Parallel()
	// The registries mark these globally reachable, though they sit inside
	// (or beside) reserved blocks.
	for _, ip := range []string{
		"192.0.0.9", "192.0.0.10", "192.31.196.1", "192.52.193.1", "192.175.48.1",
		"2001::1", "2001:1::1", "2001:1::3", "2001:3::1", "2001:4:112::1", "2001:20::1", "2001:30::1",
		"2002:808:808::1", "64:ff9b::808:808", "2620:4f:8000::1", "1.1.1.1", "2606:4700::1111",
	} {
		addr := netip.MustParseAddr(ip)
		if r, reserved := geoip.Reserved(addr); reserved {
			t.Errorf("%s refused as %s (%s, %s)", ip, r.What, r.Prefix, r.RFC)
		}
	}
}

func TestReservedASNs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		asn      uint32
		reserved bool
		rfc      string
	}{
		{0, true, "RFC 7607"},
		{1, false, ""},
		{112, false, ""}, // AS112 is a real, anycast service
		{13335, false, ""},
		{23456, true, "RFC 6793"},
		{64495, false, ""},
		{64496, true, "RFC 5398"},
		{64511, true, "RFC 5398"},
		{64512, true, "RFC 6996"},
		{65534, true, "RFC 6996"},
		{65535, true, "RFC 7300"},
		{65536, true, "RFC 5398"},
		{65551, true, "RFC 5398"},
		{65552, true, "IANA"},
		{131071, true, "IANA"},
		{131072, false, ""},
		{4199999999, false, ""},
		{4200000000, true, "RFC 6996"},
		{4294967294, true, "RFC 6996"},
		{4294967295, true, "RFC 7300"},
	}
	for _, tt := range tests {
		r, reserved := geoip.ReservedASN(tt.asn)
		if reserved != tt.reserved || !strings.Contains(r.RFC, tt.rfc) {
			t.Errorf("ReservedASN(%d) = %+v, %v; want reserved %v (%s)", tt.asn, r, reserved, tt.reserved, tt.rfc)
		}
	}
}
