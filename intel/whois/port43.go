package whois

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	likexian "github.com/likexian/whois"

	"github.com/webinfra/webinfra/errs"
)

// whoisPort is the only port a referral may send us to.
const whoisPort = "43"

// maxWhoisConnections bounds one lookup: IANA, the registry, and one
// referral (likexian/whois follows a single referral, so the depth is 2).
const maxWhoisConnections = 3

var (
	errAnswerTooLarge   = errors.New("whois answer over the size limit")
	errTooManyReferrals = errors.New("too many whois connections")
	errReferralPort     = errors.New("whois referral to a port other than 43")
)

// lookupWhois asks whois for domain with likexian/whois: IANA names the
// registry's server, whose answer may refer to the registrar's; with
// WhoisServer set, that one server only. The text is parsed with
// likexian/whois-parser.
func (c *Client) lookupWhois(ctx context.Context, domain string) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	conns := &whoisConnector{ctx: ctx, dial: c.dial, override: c.whoisServer, maxBytes: c.maxWhoisBytes}
	client := likexian.NewClient().SetDialer(conns).SetTimeout(c.timeout).SetDisableStats(true)
	var servers []string
	if c.whoisServer != "" {
		client.SetDisableReferral(true)
		servers = []string{c.whoisServer}
	}
	text, err := queryWhois(client, domain, servers)
	if err != nil && (text == "" || !conns.onlyReferralFailed()) {
		return nil, conns.failure(err, domain, c.timeout)
	}
	res, err := parseWhois(domain, text)
	if err != nil {
		return nil, err
	}
	if c.whoisServer == "" {
		res.WhoisServer = conns.lastAnswered()
	}
	return res, nil
}

// queryWhois runs the library's query. Its referral parser slices past
// the end of an answer whose last line is a referral with no newline, so
// a panic there is an upstream's garbage, not ours.
func queryWhois(client *likexian.Client, domain string, servers []string) (text string, err error) {
	defer func() {
		if recover() != nil {
			text, err = "", notWhoisData()
		}
	}()
	return client.Whois(domain, servers...)
}

// notWhoisData is the error for an answer that parses to nothing.
func notWhoisData() error {
	return errs.New(errs.KindUpstream, "whois server answered something that is not whois data")
}

// whoisConnector is the library's dialer (golang.org/x/net/proxy.Dialer):
// it dials with the lookup's context through Options.Dial (the SSRF
// guard), only to port 43, at most maxWhoisConnections times, and hands
// back connections that stop at the lookup's deadline and at maxBytes.
type whoisConnector struct {
	ctx      context.Context
	dial     DialFunc
	override string // the operator's server: every query goes there, dialled directly
	maxBytes int64

	mu       sync.Mutex
	dials    []string // hosts dialled, in order
	answered []bool   // per dial: its answer was read to the end
	tooLarge bool
}

func (w *whoisConnector) Dial(network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	index := len(w.dials)
	w.dials = append(w.dials, strings.ToLower(host))
	w.answered = append(w.answered, false)
	w.mu.Unlock()
	if index >= maxWhoisConnections {
		return nil, errTooManyReferrals
	}
	var conn net.Conn
	if w.override != "" {
		var d net.Dialer
		conn, err = d.DialContext(w.ctx, network, w.override)
	} else {
		if port != whoisPort {
			return nil, errReferralPort
		}
		conn, err = w.dial(w.ctx, network, addr)
	}
	if err != nil {
		return nil, err
	}
	return newBoundedConn(w, conn, index), nil
}

// onlyReferralFailed says the registry answered in full and only the
// registrar's referral failed. likexian/whois then returns the registry's
// text with the referral's error: the text stands.
func (w *whoisConnector) onlyReferralFailed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.override == "" && len(w.dials) == maxWhoisConnections && w.answered[1]
}

// failure turns the library's error into ours, using what the connector
// saw (an oversize answer) to tell the cases apart.
func (w *whoisConnector) failure(err error, domain string, timeout time.Duration) error {
	w.mu.Lock()
	tooLarge := w.tooLarge
	w.mu.Unlock()
	switch {
	case errs.Is(err, errs.KindUpstream):
		return err
	case tooLarge:
		return errs.New(errs.KindUpstream, "whois server answered more than %d bytes", w.maxBytes)
	case errors.Is(err, likexian.ErrWhoisServerNotFound):
		return errs.New(errs.KindUnavailable, "no whois server is known for .%s", domain[strings.LastIndexByte(domain, '.')+1:])
	case errors.Is(err, errTooManyReferrals), errors.Is(err, errReferralPort):
		return errs.New(errs.KindUpstream, "whois server referred the query somewhere it may not go")
	}
	return transportError(err, "whois server", timeout)
}

// lastAnswered is the last server whose answer was read whole.
func (w *whoisConnector) lastAnswered() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.dials) - 1; i >= 0; i-- {
		if w.answered[i] {
			return w.dials[i]
		}
	}
	return ""
}

// boundedConn is a whois connection held to the lookup: its deadlines
// never pass the context's, cancelling the context unblocks it, and
// reading more than maxBytes fails with errAnswerTooLarge.
type boundedConn struct {
	net.Conn
	owner    *whoisConnector
	index    int       // of the dial in owner.dials
	deadline time.Time // the context's; zero when it has none
	read     int64
	stop     func() bool
}

func newBoundedConn(owner *whoisConnector, conn net.Conn, index int) *boundedConn {
	c := &boundedConn{Conn: conn, owner: owner, index: index}
	c.deadline, _ = owner.ctx.Deadline()
	_ = conn.SetDeadline(c.deadline)
	c.stop = context.AfterFunc(owner.ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	return c
}

func (c *boundedConn) Read(p []byte) (int, error) {
	limit := c.owner.maxBytes
	if c.read > limit {
		return 0, errAnswerTooLarge
	}
	if room := limit + 1 - c.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.Conn.Read(p)
	c.read += int64(n)
	if c.read > limit {
		c.owner.mu.Lock()
		c.owner.tooLarge = true
		c.owner.mu.Unlock()
		return n, errAnswerTooLarge
	}
	if errors.Is(err, io.EOF) && c.read > 0 {
		c.owner.mu.Lock()
		c.owner.answered[c.index] = true
		c.owner.mu.Unlock()
	}
	return n, err
}

func (c *boundedConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(c.clamp(t)) }
func (c *boundedConn) SetReadDeadline(t time.Time) error  { return c.Conn.SetReadDeadline(c.clamp(t)) }
func (c *boundedConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(c.clamp(t)) }

// clamp keeps a deadline the library sets within the context's, and in
// the past once the context is done.
func (c *boundedConn) clamp(t time.Time) time.Time {
	if c.owner.ctx.Err() != nil {
		return time.Unix(1, 0)
	}
	if !c.deadline.IsZero() && (t.IsZero() || t.After(c.deadline)) {
		return c.deadline
	}
	return t
}

func (c *boundedConn) Close() error {
	c.stop()
	return c.Conn.Close()
}
