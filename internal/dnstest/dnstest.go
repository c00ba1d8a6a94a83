package dnstest

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/miekg/dns"
)

// Mode is how the server treats every query.
type Mode int

// The modes of SetMode.
const (
	// Answer from the records (the default).
	Answer Mode = iota
	// Silent never answers: the client's timeout decides.
	Silent
	// AlwaysTruncate sets TC on every answer and drops its records, over
	// TCP too, where truncation is not allowed.
	AlwaysTruncate
	// Garbage replies with the query's ID and a header claiming records,
	// followed by bytes that are not a DNS message.
	Garbage
)

// Query is one query the server received.
type Query struct {
	Name string // lower case, fully qualified
	Type string // "A", "MX", ...
	TCP  bool
}

// Server is a DNS server on loopback. Its knobs are safe to turn while it
// runs.
type Server struct {
	addr    string
	records *records
	udp     *dns.Server
	tcp     *dns.Server

	mu       sync.Mutex
	mode     Mode
	signed   []string // zones answered with the AD bit
	servfail map[string]bool
	log      []Query
	onQuery  func(Query)
}

// Start parses zone (RFC 1035 master-file text: $ORIGIN and $TTL work,
// relative names need an $ORIGIN), serves it on 127.0.0.1 over UDP and
// TCP on one free port, and shuts the server down when tb ends. A zone
// that does not parse fails the test.
func Start(tb testing.TB, zone string) *Server {
	tb.Helper()
	s, err := New("127.0.0.1:0", zone)
	if err != nil {
		tb.Fatalf("dnstest: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

var errZone = errors.New("zone does not parse")

// New serves zone at addr ("127.0.0.2:5353"; port 0 picks a free one)
// over UDP and TCP on the same port. The caller must Close it. Start is
// the usual way in a test; New is for a second server on a chosen address
// (say, a name server at 127.0.0.2 on the first server's port).
func New(addr, zone string) (*Server, error) {
	recs, err := parseZone(zone)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errZone, err)
	}
	var pc net.PacketConn
	var l net.Listener
	for try := 0; ; try++ {
		if pc, err = net.ListenPacket("udp", addr); err != nil {
			return nil, err
		}
		if l, err = net.Listen("tcp", pc.LocalAddr().String()); err == nil {
			break
		}
		pc.Close()
		// A free UDP port may be taken for TCP: with port 0, pick another.
		if !strings.HasSuffix(addr, ":0") || try == 9 {
			return nil, err
		}
	}
	s := &Server{addr: pc.LocalAddr().String(), records: recs, servfail: map[string]bool{}}
	s.udp = s.serve(&dns.Server{PacketConn: pc})
	s.tcp = s.serve(&dns.Server{Listener: l})
	return s, nil
}

// serve starts srv with s as its handler and returns once it listens.
func (s *Server) serve(srv *dns.Server) *dns.Server {
	started := make(chan struct{})
	srv.Handler = s
	srv.NotifyStartedFunc = func() { close(started) }
	// Let any message through to ServeDNS: a test may send odd ones.
	srv.MsgAcceptFunc = func(dns.Header) dns.MsgAcceptAction { return dns.MsgAccept }
	go srv.ActivateAndServe()
	<-started
	return srv
}

// Addr is the "127.0.0.1:port" the server answers on, over UDP and TCP.
func (s *Server) Addr() string { return s.addr }

// Port is the server's port.
func (s *Server) Port() string {
	_, port, _ := net.SplitHostPort(s.addr)
	return port
}

// Close shuts the server down.
func (s *Server) Close() {
	s.udp.Shutdown()
	s.tcp.Shutdown()
}

// SetMode changes how every later query is treated.
func (s *Server) SetMode(m Mode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = m
}

// Sign makes the answers for the given zones (each name and every name
// under it) carry the AD bit when the query sets DO or AD, as a
// validating resolver does for signed data.
func (s *Server) Sign(zones ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, z := range zones {
		s.signed = append(s.signed, canonical(z))
	}
}

// ServFail makes queries for the given names (exactly these names) answer
// SERVFAIL.
func (s *Server) ServFail(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		s.servfail[canonical(n)] = true
	}
}

// OnQuery calls f with every query received, before it is answered (on
// the server's goroutine: f must not block).
func (s *Server) OnQuery(f func(Query)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onQuery = f
}

// Queries is how many queries the server has received, over UDP and TCP.
func (s *Server) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.log)
}

// Log lists the queries received, in order.
func (s *Server) Log() []Query {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Query(nil), s.log...)
}

// ServeDNS answers one query (dns.Handler).
func (s *Server) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	_, isTCP := w.LocalAddr().(*net.TCPAddr)
	if len(req.Question) != 1 {
		reply := new(dns.Msg)
		reply.SetRcodeFormatError(req)
		w.WriteMsg(reply)
		return
	}
	q := req.Question[0]
	name := canonical(q.Name)
	s.mu.Lock()
	query := Query{Name: name, Type: dns.TypeToString[q.Qtype], TCP: isTCP}
	s.log = append(s.log, query)
	mode, servfail, signed, onQuery := s.mode, s.servfail[name], s.isSigned(name), s.onQuery
	s.mu.Unlock()
	if onQuery != nil {
		onQuery(query)
	}

	switch mode {
	case Silent:
		return
	case Garbage:
		w.Write(garbage(req.Id))
		return
	}
	reply := new(dns.Msg)
	reply.SetReply(req)
	reply.RecursionAvailable = true
	if servfail {
		reply.Rcode = dns.RcodeServerFailure
	} else {
		s.records.answer(reply, q, req.IsEdns0() != nil && req.IsEdns0().Do())
	}
	reply.AuthenticatedData = signed && !servfail && (req.AuthenticatedData || (req.IsEdns0() != nil && req.IsEdns0().Do()))
	size := dns.MinMsgSize
	if opt := req.IsEdns0(); opt != nil {
		size = max(size, int(opt.UDPSize()))
		reply.SetEdns0(opt.UDPSize(), opt.Do())
	}
	switch {
	case mode == AlwaysTruncate:
		reply.Truncated = true
		reply.Answer, reply.Ns = nil, nil
	case !isTCP:
		reply.Truncate(size)
	}
	w.WriteMsg(reply)
}

func (s *Server) isSigned(name string) bool {
	for _, z := range s.signed {
		if dns.IsSubDomain(z, name) {
			return true
		}
	}
	return false
}

// garbage is a reply header (id, QR, one question, five answers) followed
// by bytes that do not parse as a question.
func garbage(id uint16) []byte {
	msg := []byte{byte(id >> 8), byte(id), 0x81, 0x80, 0, 1, 0, 5, 0, 0, 0, 0}
	return append(msg, 0xc0, 0xff, 0xc0, 0xff, 0x3f, 'g', 'a', 'r', 'b', 'a', 'g', 'e')
}

// canonical is a name as the server keys it: lower case, fully qualified.
func canonical(name string) string { return strings.ToLower(dns.Fqdn(name)) }
