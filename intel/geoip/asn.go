package geoip

import (
	"bytes"
	"cmp"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/webinfra/webinfra/errs"
)

// ASNInput names the autonomous system to describe.
type ASNInput struct {
	ASN string `json:"asn" minLength:"1" maxLength:"32" example:"AS13335" doc:"An AS number: AS13335, as13335, 13335, or asdot 1.10 (RFC 5396). Reserved, private-use and documentation numbers are refused (422)."`
}

// ASNInfo is an autonomous system as the ASN database holds it.
type ASNInfo struct {
	ASN         uint32   `json:"asn" example:"13335"`
	Name        string   `json:"name" example:"Cloudflare, Inc." doc:"The operator, as the ASN database names it."`
	PrefixesV4  []string `json:"prefixes_v4" example:"[\"1.1.1.0/24\"]" doc:"Every IPv4 network the database maps to the AS, in address order, as the database splits them."`
	PrefixesV6  []string `json:"prefixes_v6" example:"[\"2606:4700::/32\"]" doc:"Every IPv6 network the database maps to the AS, in address order."`
	PrefixCount int      `json:"prefix_count" example:"2" doc:"len(prefixes_v4) + len(prefixes_v6)."`
	Addresses   uint64   `json:"addresses" example:"256" doc:"IPv4 addresses the IPv4 networks cover."`
}

// asnEntry is one AS of the index.
type asnEntry struct {
	name   string
	v4, v6 []packedPrefix
}

// packedPrefix is a network of the index. netip.Prefix carries a zone
// pointer; the index holds about a million networks, and slices without
// pointers cost the garbage collector nothing to scan (17 bytes a
// network, not 32).
type packedPrefix struct {
	addr [16]byte // netip.Addr.As16: an IPv4 address IPv4-mapped
	bits uint8    // the prefix length in its own family
}

func packPrefix(p netip.Prefix) packedPrefix {
	return packedPrefix{addr: p.Addr().As16(), bits: uint8(p.Bits())}
}

func (p packedPrefix) prefix() netip.Prefix {
	return netip.PrefixFrom(netip.AddrFrom16(p.addr).Unmap(), int(p.bits))
}

func comparePacked(a, b packedPrefix) int {
	return cmp.Or(bytes.Compare(a.addr[:], b.addr[:]), cmp.Compare(a.bits, b.bits))
}

// asnRecord is the GeoLite2-ASN schema (GeoIP2-ISP adds isp).
type asnRecord struct {
	Number uint32 `maxminddb:"autonomous_system_number"`
	Org    string `maxminddb:"autonomous_system_organization,maxsize:1024"`
	ISP    string `maxminddb:"isp,maxsize:1024"`
}

func (r asnRecord) name() string {
	if r.Org != "" {
		return r.Org
	}
	return r.ISP
}

// ASN describes an autonomous system: its operator and every network the
// ASN database maps to it, from the index Open built (no lookup walks the
// database).
//
// Errors: a number that does not parse, or a reserved, private-use or
// documentation one (see ReservedASN), is errs.Invalid("asn", ...) naming
// its RFC; no ASN database is errs.KindUnavailable naming ASNFlag; an AS
// the database does not hold is errs.KindNotFound.
func (db *DB) ASN(in ASNInput) (*ASNInfo, error) {
	asn, err := ParseASN(in.ASN)
	if err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errNoASNDatabase()
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	switch {
	case db.closed:
		return nil, errClosed()
	case len(db.asn) == 0:
		return nil, errNoASNDatabase()
	}
	entry, ok := db.index[asn]
	if !ok {
		return nil, errs.NotFound("AS%d is not in the ASN database: it maps no network to it", asn)
	}
	info := &ASNInfo{ASN: asn, Name: entry.name, PrefixesV4: prefixStrings(entry.v4), PrefixesV6: prefixStrings(entry.v6)}
	info.PrefixCount = len(entry.v4) + len(entry.v6)
	for _, p := range entry.v4 {
		info.Addresses += 1 << (32 - p.bits)
	}
	return info, nil
}

// ParseASN reads an AS number as a caller writes it (AS13335, as13335,
// 13335, asdot 1.10) and refuses the reserved ones; its errors are
// errs.Invalid("asn", ...).
func ParseASN(text string) (uint32, error) {
	digits := strings.TrimSpace(text)
	if len(digits) >= 2 && strings.EqualFold(digits[:2], "AS") {
		digits = strings.TrimSpace(digits[2:])
	}
	asn, ok := parseASNumber(digits)
	if !ok {
		return 0, errs.Invalid("asn", "not an AS number: %q (give AS13335 or 13335)", truncate(text, 40))
	}
	if r, reserved := ReservedASN(asn); reserved {
		return 0, errs.Invalid("asn", "AS%d is %s (%s); not looked up", asn, r.What, r.RFC)
	}
	return asn, nil
}

// parseASNumber reads asplain ("65546") or asdot ("1.10", RFC 5396).
func parseASNumber(s string) (uint32, bool) {
	high, low, dotted := strings.Cut(s, ".")
	if !dotted {
		return parseDecimal(s, 32)
	}
	h, okH := parseDecimal(high, 16)
	l, okL := parseDecimal(low, 16)
	return h<<16 | l, okH && okL
}

func parseDecimal(s string, bits int) (uint32, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false // ParseUint would take "+1"
	}
	n, err := strconv.ParseUint(s, 10, bits)
	return uint32(n), err == nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func prefixStrings(prefixes []packedPrefix) []string {
	out := make([]string, len(prefixes))
	for i, p := range prefixes {
		out[i] = p.prefix().String()
	}
	return out
}

// buildIndex reads every network of the ASN databases once into a map
// from AS number to operator and networks. No library keeps this reverse
// index: an mmdb answers address -> record only. Records are decoded once
// per distinct record (by data offset), not once per network.
func buildIndex(dbs []*database) (map[uint32]*asnEntry, int, error) {
	index := map[uint32]*asnEntry{}
	networks := 0
	for _, d := range dbs {
		decoded := map[uintptr]asnRecord{}
		for res := range d.reader.Networks() {
			if err := res.Err(); err != nil {
				return nil, 0, errs.Wrap(errs.KindUnavailable, err, "%s %s: a corrupt database", ASNFlag, d.name)
			}
			if networks++; networks > MaxIndexedNetworks {
				return nil, 0, errs.New(errs.KindUnavailable, "%s %s: more than %d networks", ASNFlag, d.name, MaxIndexedNetworks)
			}
			rec, seen := decoded[res.Offset()]
			if !seen {
				if err := res.Decode(&rec); err != nil {
					return nil, 0, errs.Wrap(errs.KindUnavailable, err, "%s %s: a record of %s cannot be read", ASNFlag, d.name, res.Prefix())
				}
				decoded[res.Offset()] = rec
			}
			addToIndex(index, rec, res.Prefix())
		}
	}
	for _, e := range index {
		e.v4, e.v6 = sortPrefixes(e.v4), sortPrefixes(e.v6)
	}
	return index, networks, nil
}

func addToIndex(index map[uint32]*asnEntry, rec asnRecord, prefix netip.Prefix) {
	if rec.Number == 0 || !prefix.IsValid() {
		return // a network without an AS (AS0 means "not routed")
	}
	e := index[rec.Number]
	if e == nil {
		e = &asnEntry{}
		index[rec.Number] = e
	}
	if e.name == "" {
		e.name = rec.name()
	}
	if prefix.Addr().Is4() {
		e.v4 = append(e.v4, packPrefix(prefix))
	} else {
		e.v6 = append(e.v6, packPrefix(prefix))
	}
}

// sortPrefixes orders prefixes by address, then length, without
// duplicates (several files may hold the same network), in a slice of
// its own length (append's spare capacity would add half again).
func sortPrefixes(prefixes []packedPrefix) []packedPrefix {
	if len(prefixes) == 0 {
		return nil
	}
	slices.SortFunc(prefixes, comparePacked)
	return slices.Clone(slices.Compact(prefixes))
}
