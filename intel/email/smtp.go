package email

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/smtp"
	"net/textproto"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/resolver"
)

// Probe bounds.
const (
	// maxProbeHosts is how many mail exchangers the probe tries, in
	// preference order, until one answers.
	maxProbeHosts = 2
	// maxSMTPRead bounds what one conversation reads from a server.
	maxSMTPRead = 64 << 10
	// maxReplyText bounds a server reply kept in the result.
	maxReplyText = 200
)

// SMTP is what a mail server answered the probe.
type SMTP struct {
	Host        string `json:"host" example:"mx1.example.com" doc:"The mail exchanger asked."`
	Connected   bool   `json:"connected" doc:"A connection was made."`
	Greeting    int    `json:"greeting_code,omitempty" example:"220" doc:"The server's greeting code."`
	RcptCode    int    `json:"rcpt_code,omitempty" example:"250" doc:"The reply to RCPT TO for the address: 250 accepted, 550 no such mailbox, 4xx try later."`
	RcptMessage string `json:"rcpt_message,omitempty" doc:"The reply's text, cut to 200 characters."`
	Accepted    bool   `json:"accepted" doc:"The server accepted the address."`
	CatchAll    *bool  `json:"catch_all" doc:"The server accepted a random address at the domain too, so its yes says nothing of this mailbox; null when not asked or not known."`
	Error       string `json:"error,omitempty" doc:"Why the conversation stopped before an answer for the address."`
}

// probe asks the first mail exchangers that answer, in preference order.
// No mail is sent: the conversation ends after RCPT TO.
func probe(ctx context.Context, r *resolver.Resolver, choice string, res *Result, o Options) *SMTP {
	var last *SMTP
	for _, mx := range res.MX[:min(len(res.MX), maxProbeHosts)] {
		s := &SMTP{Host: mx.Host}
		last = s
		addrs, err := addresses(ctx, r, choice, mx.Host, 1)
		if err != nil {
			s.Error = "the mail server's address could not be resolved: " + err.Error()
			continue
		}
		if len(addrs) == 0 {
			s.Error = "the mail server's name has no address"
			continue
		}
		converse(ctx, addrs[0], res.Normalized, res.Domain, o, s)
		if s.Connected {
			break
		}
	}
	return last
}

// converse greets the server at ip, gives MAIL FROM, then RCPT TO the
// address and, when accepted, a random address at the domain, and quits.
// The grammar is net/smtp's; this adds the bounds and the reading of the
// replies.
func converse(ctx context.Context, ip, rcpt, domain string, o Options, s *SMTP) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	dial := o.Dial
	if dial == nil {
		dial = guardedDial(uint16(o.SMTPPort))
	}
	conn, err := dial(ctx, "tcp", net.JoinHostPort(ip, strconv.Itoa(o.SMTPPort)))
	if err != nil {
		s.Error = describe(err, o.Timeout)
		return
	}
	defer conn.Close()
	s.Connected = true
	deadline, _ := ctx.Deadline()
	conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c, err := smtp.NewClient(&cappedConn{Conn: conn, left: maxSMTPRead}, s.Host)
	if err != nil {
		s.Greeting, _ = reply(err)
		s.Error = "the server's greeting: " + describe(err, o.Timeout)
		return
	}
	defer c.Close()
	s.Greeting = 220
	if err := c.Hello(o.HeloName); err != nil {
		s.Error = "EHLO: " + describe(err, o.Timeout)
		return
	}
	if err := c.Mail(o.MailFrom); err != nil {
		s.Error = "MAIL FROM: " + describe(err, o.Timeout)
		return
	}
	err = c.Rcpt(rcpt)
	if s.RcptCode, s.RcptMessage = reply(err); err == nil {
		s.RcptCode, s.Accepted = 250, true
	} else if s.RcptCode == 0 {
		s.Error = "RCPT TO: " + describe(err, o.Timeout)
		return
	}
	if s.Accepted {
		err := c.Rcpt(strings.ToLower(rand.Text()[:16]) + "@" + domain)
		code, _ := reply(err)
		switch {
		case err == nil:
			s.CatchAll = new(true)
		case code >= 500:
			s.CatchAll = new(false)
		}
	}
	c.Quit()
}

// reply reads an SMTP reply error's code and text.
func reply(err error) (int, string) {
	var tpErr *textproto.Error
	if errors.As(err, &tpErr) {
		return tpErr.Code, cleanText(tpErr.Msg)
	}
	return 0, ""
}

// describe says why a step failed, without addresses (a *net.OpError
// prints both ends).
func describe(err error, timeout time.Duration) string {
	var netErr net.Error
	switch code, msg := reply(err); {
	case code != 0:
		return fmt.Sprintf("the server answered %d %s", code, msg)
	case errs.Is(err, errs.KindForbidden):
		return err.Error()
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Sprintf("the mail server did not answer within %s", timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the mail server refused the connection"
	case errors.Is(err, errTooLong):
		return errTooLong.Error()
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return "the mail server closed the connection"
	}
	return "the mail server could not be reached"
}

// enhancedPolicy matches an enhanced status code of a policy refusal
// (RFC 3463 5.7.x: blocked sender, spam filter), which says nothing of
// the mailbox.
var enhancedPolicy = regexp.MustCompile(`^5\.7\.\d{1,3}\b`)

// smtpVerdict is what the probe decided, if anything.
func smtpVerdict(s *SMTP) (verdict, why string, decided bool) {
	switch {
	case s == nil:
		return "", "", false
	case s.Accepted && s.CatchAll != nil && *s.CatchAll:
		return Risky, "the mail server accepts any address at the domain (catch-all), so its yes says nothing of this mailbox", true
	case s.Accepted:
		return Deliverable, "the mail server accepts the address", true
	case s.RcptCode >= 500 && !enhancedPolicy.MatchString(s.RcptMessage):
		return Undeliverable, fmt.Sprintf("the mail server refuses the address: %d %s", s.RcptCode, s.RcptMessage), true
	case s.RcptCode >= 500:
		return "", fmt.Sprintf("the mail server refused to say, by policy: %d %s", s.RcptCode, s.RcptMessage), false
	case s.RcptCode >= 400:
		return "", fmt.Sprintf("the mail server deferred the answer (%d %s): greylisting or a busy server", s.RcptCode, s.RcptMessage), false
	}
	return "", "the SMTP probe got no answer for the address: " + s.Error, false
}

// cleanText keeps a server's reply printable and short.
func cleanText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxReplyText {
		s = string(r[:maxReplyText]) + "…"
	}
	return strings.TrimSpace(s)
}

var errTooLong = errors.New("the mail server sent more than 64 KiB")

// cappedConn ends reading after a fixed number of bytes.
type cappedConn struct {
	net.Conn
	left int
}

func (c *cappedConn) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errTooLong
	}
	n, err := c.Conn.Read(p[:min(len(p), c.left)])
	c.left -= n
	return n, err
}

// guardedDial dials public unicast addresses on port only.
func guardedDial(port uint16) func(ctx context.Context, network, addr string) (net.Conn, error) {
	g := ssrf.New(ssrf.WithPorts(port))
	d := net.Dialer{Control: g.Safe}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil && errors.Is(err, ssrf.ErrProhibitedIP) {
			return nil, errs.Wrap(errs.KindForbidden, ssrf.ErrProhibitedIP, "refused: the mail server's address is not a public one (SSRF guard)")
		}
		return conn, err
	}
}
