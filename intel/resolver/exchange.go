package resolver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
	"github.com/miekg/dns"

	"github.com/webinfra/webinfra/errs"
)

// Sources named in error messages.
const (
	sourceResolver   = "DNS resolver"
	sourceNameServer = "name server"
)

type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// reply is an answer and how it came.
type reply struct {
	msg      *dns.Msg
	resolver string        // the choice's name
	tcp      bool          // answered over TCP after a truncated UDP answer
	took     time.Duration // from the first try to the answer
}

// Exchange sends one question (name, qtype) to the resolver picked by
// choice ("" or DefaultName: Options.Servers; else a name of
// Options.Named) and returns its answer and the choice's name.
//
// The query asks for recursion and carries EDNS0 with a UDPSize-byte UDP
// payload; with dnssec it sets the DO bit and the AD bit (RFC 6840 §5.7),
// so a validating resolver reports the AD flag. A truncated (TC) UDP
// answer is asked again over TCP; a server that fails or does not answer
// is followed by the next, Options.Attempts tries in all. Answers are
// bounded by the protocol: 1232 bytes over UDP, 64 KiB over TCP.
//
// Any rcode is an answer (NXDOMAIN and SERVFAIL are not errors). Errors:
// an unknown choice is errs.KindInvalid ("resolver"); no configured
// servers is errs.KindUnavailable; no answer within Options.Timeout is
// errs.KindTimeout; a refused connection, an answer that cannot be read
// or that answers another question, and an answer still truncated over
// TCP are errs.KindUpstream. Messages name the "DNS resolver", never its
// address. Cancelling ctx returns ctx's error.
func (r *Resolver) Exchange(ctx context.Context, name string, qtype uint16, choice string, dnssec bool) (*dns.Msg, string, error) {
	rep, err := r.exchange(ctx, name, qtype, choice, dnssec)
	if err != nil {
		return nil, "", err
	}
	return rep.msg, rep.resolver, nil
}

func (r *Resolver) exchange(ctx context.Context, name string, qtype uint16, choice string, dnssec bool) (*reply, error) {
	servers, label, err := r.pick(choice)
	if err != nil {
		return nil, err
	}
	if _, ok := dns.IsDomainName(name); !ok || len(dns.Fqdn(name)) > MaxNameLength+1 {
		return nil, errs.Invalid("domain", "not a domain name: %s", quote(name))
	}
	q := question(name, qtype, dnssec, true)
	start := time.Now()
	var last *failure
	for i := range r.attempts {
		msg, tcp, fail := r.ask(ctx, plainDial, servers[i%len(servers)], q)
		if fail == nil {
			return &reply{msg: msg, resolver: label, tcp: tcp, took: time.Since(start)}, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = fail
	}
	return nil, last.error(sourceResolver, r.timeout, r.attempts)
}

// AskAuthority sends a non-recursive question straight to the name
// server at server (on Options.AuthorityPort, through
// Options.AuthorityDial: the address comes from DNS data, so by default
// only public addresses are dialled), once, over UDP and then TCP when
// truncated. Errors are those of Exchange naming the "name server"; a
// refused address is the dialer's error (errs.KindForbidden).
func (r *Resolver) AskAuthority(ctx context.Context, server netip.Addr, name string, qtype uint16) (*dns.Msg, error) {
	addr := netip.AddrPortFrom(server.Unmap(), uint16(r.authPort)).String()
	dial := r.authDial
	if dial == nil {
		dial = guardedDial(uint16(r.authPort))
	}
	msg, _, fail := r.ask(ctx, dial, addr, question(name, qtype, false, false))
	if fail != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fail.error(sourceNameServer, r.timeout, 1)
	}
	return msg, nil
}

func question(name string, qtype uint16, dnssec, recurse bool) *dns.Msg {
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	m.RecursionDesired = recurse
	m.SetEdns0(UDPSize, dnssec)
	m.AuthenticatedData = dnssec
	return m
}

// ask sends q to server over UDP, and again over TCP when the answer is
// truncated.
func (r *Resolver) ask(ctx context.Context, dial dialFunc, server string, q *dns.Msg) (*dns.Msg, bool, *failure) {
	msg, fail := r.send(ctx, dial, "udp", server, q)
	if fail != nil || !msg.Truncated {
		return msg, false, fail
	}
	msg, fail = r.send(ctx, dial, "tcp", server, q)
	if fail == nil && msg.Truncated {
		return nil, true, &failure{kind: failTruncated}
	}
	return msg, true, fail
}

// send is one try: dial, write, read one answer, within r.timeout.
func (r *Resolver) send(ctx context.Context, dial dialFunc, network, server string, q *dns.Msg) (*dns.Msg, *failure) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	conn, err := dial(ctx, network, server)
	if err != nil {
		return nil, classify(err)
	}
	defer conn.Close()
	// miekg/dns reads until a deadline; cancelling ctx must end it too.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	q = q.Copy()
	q.Id = dns.Id()
	c := dns.Client{Net: network, Timeout: r.timeout}
	msg, _, err := c.ExchangeWithConnContext(ctx, q, &dns.Conn{Conn: conn})
	if err != nil {
		return nil, classify(err)
	}
	return msg, check(q, msg)
}

// check refuses an answer that is not a reply to q.
func check(q, msg *dns.Msg) *failure {
	if !msg.Response {
		return &failure{kind: failGarbage, detail: "the answer is not a response"}
	}
	if len(msg.Question) == 0 && msg.Rcode != dns.RcodeSuccess {
		return nil // FORMERR, REFUSED, NOTIMP may come without the question
	}
	want := q.Question[0]
	if len(msg.Question) != 1 || !strings.EqualFold(msg.Question[0].Name, want.Name) || msg.Question[0].Qtype != want.Qtype {
		return &failure{kind: failGarbage, detail: "the answer is for another question"}
	}
	return nil
}

func plainDial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// guardedDial dials public unicast addresses on port only.
func guardedDial(port uint16) dialFunc {
	g := ssrf.New(ssrf.WithPorts(port), ssrf.WithNetworks("udp4", "udp6", "tcp4", "tcp6"))
	d := net.Dialer{Control: g.Safe}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil && errors.Is(err, ssrf.ErrProhibitedIP) {
			return nil, errs.Wrap(errs.KindForbidden, ssrf.ErrProhibitedIP, "refused: the name server's address is not a public one (SSRF guard)")
		}
		return conn, err
	}
}

// How a try failed.
const (
	failTimeout = iota
	failRefused
	failNetwork
	failGarbage
	failTruncated
	failForbidden
)

// failure is a failed try, described without the server's address.
type failure struct {
	kind   int
	detail string
	err    error // failForbidden: the dialer's error, returned as it is
}

// classify describes a transport error without its addresses (a
// *net.OpError prints both ends).
func classify(err error) *failure {
	var netErr net.Error
	var dnsErr *dns.Error
	switch {
	case errs.Is(err, errs.KindForbidden):
		return &failure{kind: failForbidden, err: err}
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return &failure{kind: failTimeout}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &failure{kind: failRefused, detail: "connection refused"}
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return &failure{kind: failRefused, detail: "network unreachable"}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return &failure{kind: failNetwork, detail: "the connection closed before an answer"}
	case errors.As(err, &dnsErr):
		return &failure{kind: failGarbage, detail: dnsErr.Error()} // miekg/dns's own messages hold no address
	}
	return &failure{kind: failNetwork, detail: "network error"}
}

// error is the failure as the caller sees it, naming source.
func (f *failure) error(source string, timeout time.Duration, tries int) error {
	switch f.kind {
	case failTimeout:
		if tries > 1 {
			return errs.New(errs.KindTimeout, "%s did not answer within %s (%d tries)", source, timeout, tries)
		}
		return errs.New(errs.KindTimeout, "%s did not answer within %s", source, timeout)
	case failTruncated:
		return errs.New(errs.KindUpstream, "%s sent a truncated answer even over TCP", source)
	case failGarbage:
		return errs.New(errs.KindUpstream, "%s sent an answer that cannot be read: %s", source, f.detail)
	case failForbidden:
		return f.err
	case failRefused:
		return errs.New(errs.KindUpstream, "%s could not be reached: %s", source, f.detail)
	}
	return errs.New(errs.KindUpstream, "%s failed: %s", source, f.detail)
}
