package dnsintel

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"

	"github.com/miekg/dns"

	"github.com/webinfra/webinfra/errs"
)

// Delegation bounds.
const (
	// maxNameServers bounds the name servers listed.
	maxNameServers = 13
	// maxNSChecked bounds the name servers resolved and asked directly.
	maxNSChecked = 4
	// maxAddresses bounds the addresses listed per name server.
	maxAddresses = 8
	// maxCAAClimb bounds the names asked for CAA, the domain and its
	// parents up to the organizational domain.
	maxCAAClimb = 4
)

// NS is the domain's delegation.
type NS struct {
	Zone    string       `json:"zone,omitempty" example:"example.com" doc:"The zone the domain is in (the owner of its SOA)."`
	Servers []NameServer `json:"servers" doc:"The zone's name servers."`
	SOA     *SOA         `json:"soa,omitempty"`
	Error   string       `json:"error,omitempty"`
}

// NameServer is one of the zone's name servers.
type NameServer struct {
	Host          string   `json:"host" example:"ns1.example.com"`
	Addresses     []string `json:"addresses" doc:"Its A and AAAA addresses (the first 4 servers are resolved)."`
	Checked       bool     `json:"checked" doc:"It was asked directly for the zone's SOA."`
	Authoritative bool     `json:"authoritative" doc:"It answered for the zone with authority (the AA flag)."`
	Serial        uint32   `json:"serial,omitempty" doc:"The SOA serial it answered."`
	Problem       string   `json:"problem,omitempty"`
	silent        bool     // asked, and did not answer
}

// SOA is the zone's start of authority.
type SOA struct {
	Primary    string `json:"primary" example:"ns1.example.com" doc:"MNAME: the primary name server."`
	Contact    string `json:"contact" example:"hostmaster.example.com" doc:"RNAME: the administrator's mailbox, first dot for @."`
	Serial     uint32 `json:"serial" example:"2024010101"`
	Refresh    uint32 `json:"refresh"`
	Retry      uint32 `json:"retry"`
	Expire     uint32 `json:"expire"`
	MinimumTTL uint32 `json:"minimum_ttl" doc:"How long answers of no record are cached (RFC 2308)."`
}

func (q *querier) ns(ctx context.Context, domain string, first *dns.Msg, out *NS) []Finding {
	out.Servers = []NameServer{}
	var found []Finding
	add := func(code, severity, format string, args ...any) {
		found = append(found, Finding{Code: code, Severity: severity, Section: "ns", Message: fmt.Sprintf(format, args...)})
	}
	zone := domain
	if soa := zoneSOA(first); soa != nil {
		zone = host(soa.Hdr.Name)
		out.SOA = &SOA{Primary: host(soa.Ns), Contact: host(soa.Mbox), Serial: soa.Serial, Refresh: soa.Refresh, Retry: soa.Retry, Expire: soa.Expire, MinimumTTL: soa.Minttl}
	} else {
		add("ns_no_soa", SeverityWarning, "No SOA record was found for %s or a zone above it.", domain)
	}
	out.Zone = zone
	msg, err := q.ask(ctx, zone, dns.TypeNS)
	if err != nil {
		out.Error = err.Error()
		return append(found, lookupFailed("ns", "NS", err))
	}
	var hosts []string
	for _, ns := range records[*dns.NS](msg) {
		if h := host(ns.Ns); !slices.Contains(hosts, h) && len(hosts) < maxNameServers {
			hosts = append(hosts, h)
		}
	}
	slices.Sort(hosts)
	switch len(hosts) {
	case 0:
		add("ns_missing", SeverityError, "The zone %s lists no NS records.", zone)
		return found
	case 1:
		add("ns_single", SeverityWarning, "The zone %s has a single name server: when it is down the domain disappears. Use at least two, on separate networks (RFC 1034 §4.1).", zone)
	}
	for _, h := range hosts {
		out.Servers = append(out.Servers, NameServer{Host: h, Addresses: []string{}})
	}
	var wg sync.WaitGroup
	for i := range out.Servers[:min(len(hosts), maxNSChecked)] {
		wg.Go(func() { q.checkNameServer(ctx, zone, &out.Servers[i]) })
	}
	wg.Wait()
	return append(found, nsFindings(zone, out.Servers)...)
}

// zoneSOA is the SOA of a SOA query's answer, or of its authority section
// when the name is not a zone apex.
func zoneSOA(msg *dns.Msg) *dns.SOA {
	if soas := records[*dns.SOA](msg); len(soas) > 0 {
		return soas[0]
	}
	for _, rr := range msg.Ns {
		if soa, ok := rr.(*dns.SOA); ok {
			return soa
		}
	}
	return nil
}

// checkNameServer resolves ns and asks its first address (IPv4 first) for
// the zone's SOA, without recursion.
func (q *querier) checkNameServer(ctx context.Context, zone string, ns *NameServer) {
	addrs := q.addresses(ctx, ns.Host)
	for _, a := range addrs[:min(len(addrs), maxAddresses)] {
		ns.Addresses = append(ns.Addresses, a.String())
	}
	if len(addrs) == 0 {
		ns.Problem = "no address: it cannot be reached"
		return
	}
	msg, err := q.askAuthority(ctx, addrs[0], zone)
	switch {
	case errs.Is(err, errs.KindForbidden):
		ns.Problem = "not asked: its address is not a public one"
	case errors.Is(err, errBudget):
		ns.Problem = "not asked: " + err.Error()
	case err != nil:
		ns.Checked, ns.silent, ns.Problem = true, true, strings.TrimPrefix(err.Error(), "name server ")
	case msg.Rcode != dns.RcodeSuccess || !msg.Authoritative:
		ns.Checked, ns.Problem = true, fmt.Sprintf("answers %s without authority for the zone (lame delegation)", dns.RcodeToString[msg.Rcode])
	default:
		ns.Checked, ns.Authoritative = true, true
		if soas := records[*dns.SOA](msg); len(soas) > 0 {
			ns.Serial = soas[0].Serial
		}
	}
}

// addresses resolves name's A and AAAA records, IPv4 first.
func (q *querier) addresses(ctx context.Context, name string) []netip.Addr {
	var v4, v6 []netip.Addr
	var wg sync.WaitGroup
	wg.Go(func() {
		if msg, err := q.ask(ctx, name, dns.TypeA); err == nil {
			for _, a := range records[*dns.A](msg) {
				if ip, ok := netip.AddrFromSlice(a.A); ok {
					v4 = append(v4, ip.Unmap())
				}
			}
		}
	})
	wg.Go(func() {
		if msg, err := q.ask(ctx, name, dns.TypeAAAA); err == nil {
			for _, a := range records[*dns.AAAA](msg) {
				if ip, ok := netip.AddrFromSlice(a.AAAA); ok {
					v6 = append(v6, ip)
				}
			}
		}
	})
	wg.Wait()
	return append(v4, v6...)
}

func nsFindings(zone string, servers []NameServer) []Finding {
	var found []Finding
	add := func(code, severity, format string, args ...any) {
		found = append(found, Finding{Code: code, Severity: severity, Section: "ns", Message: fmt.Sprintf(format, args...)})
	}
	serials := map[uint32]bool{}
	for _, s := range servers[:min(len(servers), maxNSChecked)] {
		switch {
		case len(s.Addresses) == 0:
			add("ns_no_address", SeverityError, "Name server %s has no A or AAAA record: resolvers cannot reach it.", s.Host)
		case s.Authoritative:
			serials[s.Serial] = true
		case s.silent:
			add("ns_not_answering", SeverityError, "Name server %s %s.", s.Host, s.Problem)
		case s.Checked:
			add("ns_lame", SeverityError, "Name server %s %s: resolvers asking it get no answer for %s.", s.Host, s.Problem, zone)
		}
	}
	if len(serials) > 1 {
		add("ns_serial_mismatch", SeverityNotice, "The name servers answer different SOA serials: some have not picked up the zone's last change.")
	}
	return found
}

// CAA is which certificate authorities may issue for the domain
// (RFC 8659).
type CAA struct {
	Name      string      `json:"name,omitempty" example:"example.com" doc:"Where the records were found: the domain or the closest parent with some (RFC 8659 §3)."`
	Records   []CAARecord `json:"records"`
	Issue     []string    `json:"issue" doc:"CAs allowed to issue certificates (\";\" alone: none)."`
	IssueWild []string    `json:"issuewild" doc:"CAs allowed to issue wildcard certificates."`
	IODEF     []string    `json:"iodef" doc:"Where CAs report refused requests."`
	Error     string      `json:"error,omitempty"`
}

// CAARecord is one CAA record.
type CAARecord struct {
	Flags int    `json:"flags" doc:"128: critical (a CA that does not know the tag must not issue)."`
	Tag   string `json:"tag" example:"issue"`
	Value string `json:"value" example:"letsencrypt.org"`
}

func (q *querier) caa(ctx context.Context, domain, org string, out *CAA) []Finding {
	out.Records, out.Issue, out.IssueWild, out.IODEF = []CAARecord{}, []string{}, []string{}, []string{}
	name := domain
	for range maxCAAClimb {
		msg, err := q.ask(ctx, name, dns.TypeCAA)
		if err != nil {
			out.Error = err.Error()
			return []Finding{lookupFailed("caa", "CAA", err)}
		}
		if caas := records[*dns.CAA](msg); len(caas) > 0 {
			out.Name = name
			return readCAA(caas, out)
		}
		if name == org || !strings.Contains(name, ".") {
			break
		}
		_, name, _ = strings.Cut(name, ".")
	}
	return []Finding{{Code: "caa_missing", Severity: SeverityNotice, Section: "caa",
		Message: "No CAA records: any certificate authority may issue certificates for the domain. Name the CAs you use (CAA 0 issue \"letsencrypt.org\")."}}
}

func readCAA(caas []*dns.CAA, out *CAA) []Finding {
	var found []Finding
	for _, c := range caas {
		tag := strings.ToLower(c.Tag)
		out.Records = append(out.Records, CAARecord{Flags: int(c.Flag), Tag: tag, Value: c.Value})
		switch tag {
		case "issue":
			out.Issue = append(out.Issue, c.Value)
		case "issuewild":
			out.IssueWild = append(out.IssueWild, c.Value)
		case "iodef":
			out.IODEF = append(out.IODEF, c.Value)
		case "issuemail", "issuevmc", "contactemail", "contactphone":
		default:
			if c.Flag&128 != 0 {
				found = append(found, Finding{Code: "caa_unknown_critical", Severity: SeverityWarning, Section: "caa",
					Message: fmt.Sprintf("A critical CAA record has the tag %q, which CAs do not know: they must refuse to issue any certificate.", clip(tag, 40))})
			}
		}
	}
	return found
}
