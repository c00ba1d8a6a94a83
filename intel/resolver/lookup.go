package resolver

import (
	"context"
	"net/netip"
	"strconv"
	"strings"

	"github.com/miekg/dns"

	"github.com/webinfra/webinfra/errs"
)

// MaxRecords is the most records a LookupResult lists per section.
const MaxRecords = 256

// LookupInput is one DNS question.
type LookupInput struct {
	Domain   string `json:"domain" minLength:"1" maxLength:"254" example:"example.com" doc:"The name to look up (internationalized names are sent as A-labels), or an IPv4 or IPv6 address, which is looked up by its reverse name (in-addr.arpa, ip6.arpa), type PTR unless another is asked."`
	Type     string `json:"type,omitempty" maxLength:"12" example:"MX" doc:"Record type by name: A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV, PTR, DS, DNSKEY, HTTPS, SVCB, NAPTR, TLSA, ... or TYPEnnn. Default A (PTR for an address). ANY is refused (RFC 8482): ask for each type."`
	Resolver string `json:"resolver,omitempty" enum:"default,cloudflare,google,quad9" example:"cloudflare" doc:"Which resolver answers: default (the server's own), cloudflare, google or quad9. Resolvers are chosen by name only, never by address."`
	DNSSEC   bool   `json:"dnssec,omitempty" doc:"Ask for DNSSEC (DO and AD bits): authenticated then says whether the resolver validated the answer, and RRSIG records come along."`
}

// LookupResult is the resolver's answer.
type LookupResult struct {
	Domain        string   `json:"domain" example:"example.com" doc:"The name asked, in A-labels (the reverse name for an address)."`
	Type          string   `json:"type" example:"MX"`
	Resolver      string   `json:"resolver" example:"default" doc:"The resolver that answered, by name."`
	Rcode         string   `json:"rcode" example:"NOERROR" doc:"The response code: NOERROR, NXDOMAIN (no such name), SERVFAIL (the resolver could not get an answer, e.g. a DNSSEC failure), REFUSED, ... An answer, not an error."`
	Authenticated bool     `json:"authenticated" doc:"The AD flag: the resolver validated the answer with DNSSEC. Only meaningful with dnssec and a validating resolver."`
	Truncated     bool     `json:"truncated" doc:"The UDP answer was truncated (TC), so the query was asked again over TCP; the records are complete."`
	Answers       []Record `json:"answers" doc:"The answer section, CNAMEs of the chain first."`
	Authority     []Record `json:"authority" doc:"The authority section: the zone's SOA on NXDOMAIN or an empty answer; its minimum TTL is how long the absence is cached."`
	Omitted       int      `json:"omitted,omitempty" doc:"Records left out past the 256 listed per section."`
	QueryTimeMS   int64    `json:"query_time_ms" doc:"Time to the answer, retries included."`
}

// Record is one resource record.
type Record struct {
	Name     string `json:"name" example:"example.com" doc:"Owner name, without the trailing dot."`
	Type     string `json:"type" example:"MX"`
	TTL      uint32 `json:"ttl" example:"300" doc:"Seconds the record may be cached (as the resolver counts it down)."`
	Value    string `json:"value" example:"10 mail.example.com." doc:"The record data in zone-file presentation format."`
	Priority *int   `json:"priority,omitempty" doc:"MX preference, SRV priority, HTTPS/SVCB priority, NAPTR order."`
	Weight   *int   `json:"weight,omitempty" doc:"SRV weight."`
	Port     *int   `json:"port,omitempty" doc:"SRV port."`
	Target   string `json:"target,omitempty" doc:"The name the record points to (MX exchange, CNAME, NS, PTR, SRV, HTTPS/SVCB target, SOA primary), without the trailing dot."`
	Flags    *int   `json:"flags,omitempty" doc:"CAA flags, DNSKEY flags."`
	Tag      string `json:"tag,omitempty" doc:"CAA property tag (issue, issuewild, iodef)."`
	Text     string `json:"text,omitempty" doc:"TXT strings joined, or the CAA value."`
	KeyTag   *int   `json:"key_tag,omitempty" doc:"DS, DNSKEY and RRSIG key tag."`
}

// metaTypes cannot be asked as a plain question.
var metaTypes = map[uint16]string{
	dns.TypeANY:   "ANY is refused: resolvers answer it with little or nothing (RFC 8482); ask for each type you need",
	dns.TypeAXFR:  "zone transfers are not lookups",
	dns.TypeIXFR:  "zone transfers are not lookups",
	dns.TypeMAILA: "MAILA is obsolete",
	dns.TypeMAILB: "MAILB is obsolete",
	dns.TypeOPT:   "OPT is a pseudo-record, not a type to ask",
	dns.TypeTSIG:  "TSIG is a pseudo-record, not a type to ask",
	dns.TypeTKEY:  "TKEY is a meta type, not a type to ask",
	dns.TypeNone:  "type 0 is reserved",
}

// Lookup answers one question: in.Domain's records of in.Type from the
// resolver in.Resolver names. NXDOMAIN, SERVFAIL and the other rcodes are
// answers. Bad input is errs.KindInvalid naming "domain", "type" or
// "resolver"; the resolver's failures are those of Exchange.
func (r *Resolver) Lookup(ctx context.Context, in LookupInput) (*LookupResult, error) {
	name, defaultType, err := lookupName(in.Domain)
	if err != nil {
		return nil, err
	}
	qtype, err := ParseType(in.Type, defaultType)
	if err != nil {
		return nil, err
	}
	rep, err := r.exchange(ctx, name, qtype, in.Resolver, in.DNSSEC)
	if err != nil {
		return nil, err
	}
	res := &LookupResult{
		Domain:        strings.TrimSuffix(name, "."),
		Type:          TypeName(qtype),
		Resolver:      rep.resolver,
		Rcode:         RcodeName(rep.msg.Rcode),
		Authenticated: rep.msg.AuthenticatedData,
		Truncated:     rep.tcp,
		QueryTimeMS:   rep.took.Milliseconds(),
	}
	res.Answers, res.Omitted = records(rep.msg.Answer)
	var omitted int
	res.Authority, omitted = records(rep.msg.Ns)
	res.Omitted += omitted
	return res, nil
}

// lookupName returns the name to ask for s (an address becomes its
// reverse name) and the default type.
func lookupName(s string) (string, uint16, error) {
	if ip, err := netip.ParseAddr(strings.TrimSpace(s)); err == nil {
		if err := checkAddr("domain", ip.WithZone("").Unmap()); err != nil {
			return "", 0, err
		}
		rev, err := dns.ReverseAddr(ip.WithZone("").Unmap().String())
		if err != nil {
			return "", 0, errs.Invalid("domain", "cannot reverse address %s", ip)
		}
		return rev, dns.TypePTR, nil
	}
	name, err := Canonical("domain", s)
	return name, dns.TypeA, err
}

// ParseType reads a record type by name ("mx", "TYPE65") for a question;
// empty means def. Meta types (ANY, AXFR, OPT, ...) are refused with the
// reason. Errors are errs.KindInvalid naming "type".
func ParseType(s string, def uint16) (uint16, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "" {
		return def, nil
	}
	t, ok := dns.StringToType[s]
	if !ok && strings.HasPrefix(s, "TYPE") {
		n, err := strconv.ParseUint(s[len("TYPE"):], 10, 16)
		t, ok = uint16(n), err == nil
	}
	if !ok {
		return 0, errs.Invalid("type", "unknown record type %q", clip(s, 20))
	}
	if why, meta := metaTypes[t]; meta {
		return 0, errs.Invalid("type", "%s", why)
	}
	return t, nil
}

// TypeName is a type's mnemonic, or TYPEnnn (RFC 3597).
func TypeName(t uint16) string {
	if s, ok := dns.TypeToString[t]; ok {
		return s
	}
	return "TYPE" + strconv.Itoa(int(t))
}

// RcodeName is an rcode's mnemonic, or RCODEnnn.
func RcodeName(rcode int) string {
	if s, ok := dns.RcodeToString[rcode]; ok {
		return s
	}
	return "RCODE" + strconv.Itoa(rcode)
}

// records converts a section, at most MaxRecords records (OPT records,
// which are not data, are skipped), and counts those left out.
func records(rrs []dns.RR) ([]Record, int) {
	out := []Record{}
	omitted := 0
	for _, rr := range rrs {
		if rr.Header().Rrtype == dns.TypeOPT {
			continue
		}
		if len(out) == MaxRecords {
			omitted++
			continue
		}
		out = append(out, ToRecord(rr))
	}
	return out, omitted
}

// ToRecord converts a resource record, reading the fields of common
// types.
func ToRecord(rr dns.RR) Record {
	h := rr.Header()
	rec := Record{
		Name:  strings.TrimSuffix(h.Name, "."),
		Type:  TypeName(h.Rrtype),
		TTL:   h.Ttl,
		Value: strings.TrimPrefix(rr.String(), h.String()),
	}
	num := func(n int) *int { return &n }
	target := func(s string) string { return strings.TrimSuffix(s, ".") }
	switch v := rr.(type) {
	case *dns.MX:
		rec.Priority, rec.Target = num(int(v.Preference)), target(v.Mx)
	case *dns.SRV:
		rec.Priority, rec.Weight, rec.Port, rec.Target = num(int(v.Priority)), num(int(v.Weight)), num(int(v.Port)), target(v.Target)
	case *dns.CNAME:
		rec.Target = target(v.Target)
	case *dns.NS:
		rec.Target = target(v.Ns)
	case *dns.PTR:
		rec.Target = target(v.Ptr)
	case *dns.DNAME:
		rec.Target = target(v.Target)
	case *dns.SOA:
		rec.Target = target(v.Ns)
	case *dns.HTTPS:
		rec.Priority, rec.Target = num(int(v.Priority)), target(v.Target)
	case *dns.SVCB:
		rec.Priority, rec.Target = num(int(v.Priority)), target(v.Target)
	case *dns.NAPTR:
		rec.Priority, rec.Target = num(int(v.Order)), target(v.Replacement)
	case *dns.CAA:
		rec.Flags, rec.Tag, rec.Text = num(int(v.Flag)), v.Tag, v.Value
	case *dns.TXT:
		rec.Text = TXTString(v)
	case *dns.DNSKEY:
		rec.Flags, rec.KeyTag = num(int(v.Flags)), num(int(v.KeyTag()))
	case *dns.DS:
		rec.KeyTag = num(int(v.KeyTag))
	case *dns.RRSIG:
		rec.KeyTag = num(int(v.KeyTag))
	}
	return rec
}

// TXTString is a TXT record's strings joined (RFC 7208 §3.3, RFC 6376
// §3.6.2.2), with the presentation escapes miekg/dns adds (\", \\,
// \DDD) undone.
func TXTString(rr *dns.TXT) string {
	var b strings.Builder
	for _, s := range rr.Txt {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c != '\\' || i+1 == len(s) {
				b.WriteByte(c)
				continue
			}
			if i+3 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) {
				n, _ := strconv.Atoi(s[i+1 : i+4])
				b.WriteByte(byte(n))
				i += 3
				continue
			}
			b.WriteByte(s[i+1])
			i++
		}
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
