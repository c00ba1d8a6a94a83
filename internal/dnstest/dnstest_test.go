package dnstest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

const zone = `
$ORIGIN example.test.
$TTL 300
@        SOA  ns1 hostmaster 7 7200 900 1209600 60
@        NS   ns1
ns1      A    127.0.0.1
@        A    192.0.2.1
a.b.c    TXT  "deep"
loop1    CNAME loop2
loop2    CNAME loop1
gone     CNAME nowhere.example.test.
fail     A    192.0.2.9
`

func exchange(t *testing.T, addr, name string, qtype uint16, network string, edns uint16) *dns.Msg {
	t.Helper()
	q := new(dns.Msg).SetQuestion(name, qtype)
	if edns > 0 {
		q.SetEdns0(edns, true)
	}
	c := dns.Client{Net: network}
	reply, _, err := c.Exchange(q, addr)
	if err != nil {
		t.Fatalf("%s %s over %s: %v", name, dns.TypeToString[qtype], network, err)
	}
	return reply
}

func TestAnswers(t *testing.T) {
	t.Parallel()
	srv := Start(t, zone)
	srv.ServFail("fail.example.test")
	cases := []struct {
		name    string
		qtype   uint16
		rcode   int
		answers int
		soa     bool
	}{
		{"example.test.", dns.TypeA, dns.RcodeSuccess, 1, false},
		{"EXAMPLE.test.", dns.TypeMX, dns.RcodeSuccess, 0, true},      // NODATA
		{"b.c.example.test.", dns.TypeTXT, dns.RcodeSuccess, 0, true}, // empty non-terminal
		{"a.b.c.example.test.", dns.TypeTXT, dns.RcodeSuccess, 1, false},
		{"none.example.test.", dns.TypeA, dns.RcodeNameError, 0, true},
		{"gone.example.test.", dns.TypeA, dns.RcodeNameError, 1, true}, // the CNAME, then NXDOMAIN
		{"loop1.example.test.", dns.TypeA, dns.RcodeSuccess, maxChain, true},
		{"fail.example.test.", dns.TypeA, dns.RcodeServerFailure, 0, false},
		{"other.invalid.", dns.TypeA, dns.RcodeNameError, 0, false},
	}
	for _, c := range cases {
		reply := exchange(t, srv.Addr(), c.name, c.qtype, "udp", 0)
		if reply.Rcode != c.rcode || len(reply.Answer) != c.answers || (len(reply.Ns) == 1) != c.soa {
			t.Errorf("%s %s: rcode %s, %d answers, %d authority; want %s, %d, soa %v",
				c.name, dns.TypeToString[c.qtype], dns.RcodeToString[reply.Rcode], len(reply.Answer), len(reply.Ns),
				dns.RcodeToString[c.rcode], c.answers, c.soa)
		}
	}
	if got := srv.Queries(); got != len(cases) {
		t.Errorf("Queries = %d, want %d", got, len(cases))
	}
}

func TestTruncation(t *testing.T) {
	t.Parallel()
	var big strings.Builder
	big.WriteString("$ORIGIN big.test.\n")
	for i := range 20 {
		fmt.Fprintf(&big, "@ 60 TXT \"%d %s\"\n", i, strings.Repeat("x", 100))
	}
	srv := Start(t, big.String())
	cases := []struct {
		network string
		edns    uint16
		tc      bool
		want    int
	}{
		{"udp", 0, true, -1},
		{"udp", 1232, true, -1},
		{"udp", 4096, false, 20},
		{"tcp", 0, false, 20},
	}
	for _, c := range cases {
		reply := exchange(t, srv.Addr(), "big.test.", dns.TypeTXT, c.network, c.edns)
		if reply.Truncated != c.tc || (c.want >= 0 && len(reply.Answer) != c.want) || (c.tc && len(reply.Answer) >= 20) {
			t.Errorf("%s, EDNS %d: TC %v with %d answers", c.network, c.edns, reply.Truncated, len(reply.Answer))
		}
	}
	srv.SetMode(AlwaysTruncate)
	if reply := exchange(t, srv.Addr(), "big.test.", dns.TypeTXT, "tcp", 0); !reply.Truncated {
		t.Error("AlwaysTruncate: no TC over TCP")
	}
	log := srv.Log()
	if len(log) != 5 || !log[3].TCP || log[0].TCP || log[0].Type != "TXT" || log[0].Name != "big.test." {
		t.Errorf("Log = %+v", log)
	}
}

func TestModes(t *testing.T) {
	t.Parallel()
	srv := Start(t, zone)
	srv.Sign("example.test")
	q := new(dns.Msg).SetQuestion("example.test.", dns.TypeA)
	q.SetEdns0(1232, true)
	reply, err := dns.Exchange(q, srv.Addr())
	if err != nil || !reply.AuthenticatedData {
		t.Errorf("signed zone with DO: AD %v, err %v", reply != nil && reply.AuthenticatedData, err)
	}
	plain := new(dns.Msg).SetQuestion("example.test.", dns.TypeA)
	if reply, err := dns.Exchange(plain, srv.Addr()); err != nil || reply.AuthenticatedData {
		t.Errorf("signed zone without DO or AD: AD set, err %v", err)
	}

	srv.SetMode(Garbage)
	if _, err := dns.Exchange(plain, srv.Addr()); err == nil {
		t.Error("Garbage: the reply parsed")
	}
	srv.SetMode(Silent)
	c := dns.Client{Timeout: 50 * time.Millisecond}
	if _, _, err := c.Exchange(plain, srv.Addr()); err == nil {
		t.Error("Silent: got an answer")
	}
}

func TestBadZone(t *testing.T) {
	t.Parallel()
	if _, err := New("127.0.0.1:0", "example.test. IN A not-an-address"); err == nil {
		t.Error("a zone that does not parse was served")
	}
}
