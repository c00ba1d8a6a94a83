package special

import (
	"net/netip"
)

// Range is a row of the IANA special-purpose address registries
// (https://www.iana.org/assignments/iana-ipv4-special-registry,
// https://www.iana.org/assignments/iana-ipv6-special-registry), of the
// multicast registries or of the IPv6 address space registry.
type Range struct {
	Prefix netip.Prefix
	What   string // a noun phrase: "a private-use address"
	RFC    string // where the range is defined: "RFC 1918"
	// Public marks a more specific block the registry lists as globally
	// reachable inside a reserved one (an anycast service, AS112); such
	// addresses are looked up like any public one.
	Public bool
}

func special(prefix, what, rfc string) Range {
	return Range{Prefix: netip.MustParsePrefix(prefix), What: what, RFC: rfc}
}

func public(prefix, what, rfc string) Range {
	r := special(prefix, what, rfc)
	r.Public = true
	return r
}

// specialRanges is every range an address may not be looked up in, with
// the globally reachable blocks the registries carve out of them. The
// longest matching prefix decides (specialRangeOf). The rows follow the
// registries; "Globally Reachable: False" rows are reserved here.
var specialRanges = []Range{
	// IPv4 special-purpose registry.
	special("0.0.0.0/8", "a \"this network\" address", "RFC 791"),
	special("10.0.0.0/8", "a private-use address", "RFC 1918"),
	special("100.64.0.0/10", "a shared (carrier-grade NAT) address", "RFC 6598"),
	special("127.0.0.0/8", "a loopback address", "RFC 1122"),
	special("169.254.0.0/16", "a link-local address", "RFC 3927"),
	special("172.16.0.0/12", "a private-use address", "RFC 1918"),
	special("192.0.0.0/24", "an IETF protocol assignment", "RFC 6890"),
	public("192.0.0.9/32", "the PCP anycast address", "RFC 7723"),
	public("192.0.0.10/32", "the TURN anycast address", "RFC 8155"),
	special("192.0.2.0/24", "a documentation address (TEST-NET-1)", "RFC 5737"),
	special("192.88.99.0/24", "a deprecated 6to4 relay anycast address", "RFC 7526"),
	special("192.168.0.0/16", "a private-use address", "RFC 1918"),
	special("198.18.0.0/15", "a benchmarking address", "RFC 2544"),
	special("198.51.100.0/24", "a documentation address (TEST-NET-2)", "RFC 5737"),
	special("203.0.113.0/24", "a documentation address (TEST-NET-3)", "RFC 5737"),
	special("224.0.0.0/4", "a multicast address", "RFC 5771"),
	special("240.0.0.0/4", "a reserved address", "RFC 1112"),
	special("255.255.255.255/32", "the limited broadcast address", "RFC 919"),

	// IPv6: everything outside the global unicast space 2000::/3 is
	// reserved by the IETF (IPv6 address space registry), apart from the
	// special-purpose blocks below.
	special("::/0", "an address outside the IPv6 global unicast space 2000::/3", "RFC 4291"),
	public("2000::/3", "a global unicast address", "RFC 4291"),
	special("::/128", "the unspecified address", "RFC 4291"),
	special("::1/128", "the loopback address", "RFC 4291"),
	public("64:ff9b::/96", "an IPv4/IPv6 translation address", "RFC 6052"),
	special("64:ff9b:1::/48", "a local-use IPv4/IPv6 translation address", "RFC 8215"),
	special("100::/64", "a discard-only address", "RFC 6666"),
	special("100:0:0:1::/64", "a dummy IPv6 address", "RFC 9780"),
	special("2001::/23", "an IETF protocol assignment", "RFC 2928"),
	public("2001::/32", "a Teredo address", "RFC 4380"),
	public("2001:1::1/128", "the PCP anycast address", "RFC 7723"),
	public("2001:1::2/128", "the TURN anycast address", "RFC 8155"),
	public("2001:1::3/128", "the DNS-SD service registration protocol anycast address", "RFC 9665"),
	special("2001:2::/48", "a benchmarking address", "RFC 5180"),
	public("2001:3::/32", "an AMT address", "RFC 7450"),
	public("2001:4:112::/48", "an AS112 address", "RFC 7535"),
	special("2001:10::/28", "a deprecated ORCHID address", "RFC 4843"),
	public("2001:20::/28", "an ORCHIDv2 address", "RFC 7343"),
	public("2001:30::/28", "a drone remote ID address", "RFC 9374"),
	special("2001:db8::/32", "a documentation address", "RFC 3849"),
	special("3fff::/20", "a documentation address", "RFC 9637"),
	special("5f00::/16", "a segment routing (SRv6) SID", "RFC 9602"),
	special("fc00::/7", "a unique-local address", "RFC 4193"),
	special("fe80::/10", "a link-local address", "RFC 4291"),
	special("ff00::/8", "a multicast address", "RFC 4291"),
}

// specialRangeOf returns the most specific row of specialRanges holding
// addr (an unmapped address), or false when none does.
func specialRangeOf(addr netip.Addr) (Range, bool) {
	var best Range
	found := false
	for _, r := range specialRanges {
		if r.Prefix.Contains(addr) && (!found || r.Prefix.Bits() > best.Prefix.Bits()) {
			best, found = r, true
		}
	}
	return best, found
}

// IP returns the special-purpose range that keeps addr from being
// looked up or asked about (private, loopback, link-local, shared CGNAT, documentation,
// benchmarking, multicast, reserved ...), or false when addr is public.
// An IPv4-mapped IPv6 address is judged as its IPv4 address.
func IP(addr netip.Addr) (Range, bool) {
	r, ok := specialRangeOf(addr.Unmap())
	if !ok || r.Public {
		return Range{}, false
	}
	return r, true
}
