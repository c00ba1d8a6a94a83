package dnstest

import (
	"strings"

	"github.com/miekg/dns"
)

// maxChain is the most CNAME hops followed inside the records.
const maxChain = 8

// records are the parsed zone, by owner name.
type records struct {
	byName map[string][]dns.RR
	exists map[string]bool // owner names and their ancestors (empty non-terminals answer NODATA, not NXDOMAIN)
	soas   []*dns.SOA
}

func parseZone(zone string) (*records, error) {
	recs := &records{byName: map[string][]dns.RR{}, exists: map[string]bool{}}
	zp := dns.NewZoneParser(strings.NewReader(zone), ".", "dnstest")
	for rr, ok := zp.Next(); ok; rr, ok = zp.Next() {
		name := canonical(rr.Header().Name)
		rr.Header().Name = name
		recs.byName[name] = append(recs.byName[name], rr)
		for i, end := 0, false; !end; i, end = dns.NextLabel(name, i) {
			recs.exists[name[i:]] = true
		}
		if soa, ok := rr.(*dns.SOA); ok {
			recs.soas = append(recs.soas, soa)
		}
	}
	return recs, zp.Err()
}

// answer fills reply for q as a recursive resolver would: the records of
// q's type at the name, following CNAMEs within the records; NXDOMAIN when
// the (last) name does not exist; the enclosing zone's SOA in the
// authority section when no record answers; AA when q's name is under a
// zone whose SOA the server holds. RRSIG records covering the type go
// along when do (the DNSSEC OK bit) is set.
func (r *records) answer(reply *dns.Msg, q dns.Question, do bool) {
	name := canonical(q.Name)
	reply.Authoritative = r.zoneOf(name) != nil
	for range maxChain {
		if !r.exists[name] {
			reply.Rcode = dns.RcodeNameError
			break
		}
		found, cname := r.lookup(name, q.Qtype, do)
		reply.Answer = append(reply.Answer, found...)
		if cname == "" {
			break
		}
		name = cname
	}
	if !hasType(reply.Answer, q.Qtype) {
		if soa := r.zoneOf(name); soa != nil {
			reply.Ns = append(reply.Ns, soa)
		}
	}
}

// lookup returns the records of type qtype at name, or the CNAME there and
// its target when it has none of that type.
func (r *records) lookup(name string, qtype uint16, do bool) (found []dns.RR, cname string) {
	var alias *dns.CNAME
	for _, rr := range r.byName[name] {
		switch {
		case rr.Header().Rrtype == qtype:
			found = append(found, dns.Copy(rr))
		case do && rr.Header().Rrtype == dns.TypeRRSIG && rr.(*dns.RRSIG).TypeCovered == qtype:
			found = append(found, dns.Copy(rr))
		case rr.Header().Rrtype == dns.TypeCNAME:
			alias = rr.(*dns.CNAME)
		}
	}
	if len(found) > 0 || alias == nil || qtype == dns.TypeCNAME {
		return found, ""
	}
	return []dns.RR{dns.Copy(alias)}, canonical(alias.Target)
}

// zoneOf returns the SOA of the closest zone holding name, or nil.
func (r *records) zoneOf(name string) *dns.SOA {
	var best *dns.SOA
	for _, soa := range r.soas {
		if dns.IsSubDomain(soa.Hdr.Name, name) && (best == nil || dns.CountLabel(soa.Hdr.Name) > dns.CountLabel(best.Hdr.Name)) {
			best = soa
		}
	}
	if best == nil {
		return nil
	}
	return dns.Copy(best).(*dns.SOA)
}

func hasType(rrs []dns.RR, qtype uint16) bool {
	for _, rr := range rrs {
		if rr.Header().Rrtype == qtype {
			return true
		}
	}
	return false
}
