package geoip

import (
	"net/netip"

	"github.com/webinfra/webinfra/internal/special"
)

// SpecialRange is a row of the IANA special-purpose address registries
// (internal/special holds the table, shared with the DNS lookups).
type SpecialRange = special.Range

// Reserved returns the special-purpose range that keeps addr from being
// looked up (private, loopback, link-local, shared CGNAT, documentation,
// benchmarking, multicast, reserved ...), or false when addr is public.
// An IPv4-mapped IPv6 address is judged as its IPv4 address.
func Reserved(addr netip.Addr) (SpecialRange, bool) { return special.IP(addr) }

// SpecialASN is a row of the IANA special-purpose AS numbers registry
// (https://www.iana.org/assignments/iana-as-numbers-special-registry) or
// a reserved block of the AS numbers registry.
type SpecialASN struct {
	First, Last uint32
	What        string
	RFC         string // the RFC (or registry) that defines it
}

var specialASNs = []SpecialASN{
	{0, 0, "reserved", "RFC 7607"},
	{23456, 23456, "AS_TRANS, the 2-byte stand-in for 4-byte ASNs", "RFC 6793"},
	{64496, 64511, "reserved for documentation", "RFC 5398"},
	{64512, 65534, "reserved for private use", "RFC 6996"},
	{65535, 65535, "reserved", "RFC 7300"},
	{65536, 65551, "reserved for documentation", "RFC 5398"},
	{65552, 131071, "reserved by IANA", "IANA AS numbers registry"},
	{4200000000, 4294967294, "reserved for private use", "RFC 6996"},
	{4294967295, 4294967295, "reserved", "RFC 7300"},
}

// ReservedASN returns the registry row that keeps asn from being looked
// up, or false when asn may be routed on the Internet.
func ReservedASN(asn uint32) (SpecialASN, bool) {
	for _, r := range specialASNs {
		if asn >= r.First && asn <= r.Last {
			return r, true
		}
	}
	return SpecialASN{}, false
}
