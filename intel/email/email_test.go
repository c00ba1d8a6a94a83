package email

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/resolver"
	"github.com/webinfra/webinfra/internal/dnstest"
)

const zone = `
$TTL 300
$ORIGIN good.test.
@        MX    20 mx2
@        MX    10 mx
mx       A     127.0.0.1
mx2      A     127.0.0.1
$ORIGIN mailinator.com.
@        MX    10 mx.good.test.
$ORIGIN gmail.com.
@        MX    5 mx.good.test.
$ORIGIN nullmx.test.
@        MX    0 .
$ORIGIN implicit.test.
@        A     127.0.0.1
$ORIGIN nomail.test.
@        TXT   "no mail here"
$ORIGIN xn--bcher-kva.test.
@        MX    10 mx.good.test.
$ORIGIN fail.test.
@        MX    10 mx.good.test.
$ORIGIN noaddr.test.
@        MX    10 mx.noaddr.test.
`

func setup(t *testing.T) (*dnstest.Server, *resolver.Resolver) {
	t.Helper()
	srv := dnstest.Start(t, zone)
	srv.ServFail("fail.test")
	r, err := resolver.New(&resolver.Options{Servers: []string{srv.Addr()}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return srv, r
}

func TestSyntax(t *testing.T) {
	t.Parallel()
	srv, r := setup(t)
	cases := []struct{ in, reason string }{
		{"plainaddress", "no @"},
		{"@good.test", "local part (before @) is empty"},
		{"jane@", "domain (after @) is empty"},
		{"jane..doe@good.test", "two in a row"},
		{"jane,doe@good.test", "not an address (RFC 5322)"},
		{"Jane <jane@good.test>", "bare address"},
		{"jane@mailhost", "no dot"},
		{"jane@printer.local", "multicast DNS"},
		{"jane@[192.0.2.1]", "address literals"},
		{"jane@exa mple.com", "domain (after @) has a space"},
		{"ja ne@good.test", "must be quoted"},
		{"jane@-bad.test", "domain is not valid"},
		{strings.Repeat("a", 65) + "@good.test", "longer than 64"},
		{"jane@good.test\r\nRCPT TO:<x@y.test>", "control characters"},
		{"a@b@good.test", "more than one @"},
	}
	for _, c := range cases {
		res, err := Verify(context.Background(), r, Input{Email: c.in}, nil)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if res.SyntaxValid || res.Verdict != Undeliverable || !strings.Contains(res.SyntaxReason, c.reason) {
			t.Errorf("%q: valid %v, verdict %s, reason %q; want a reason with %q", c.in, res.SyntaxValid, res.Verdict, res.SyntaxReason, c.reason)
		}
	}
	if srv.Queries() != 0 {
		t.Errorf("%d DNS queries for addresses that are not ones", srv.Queries())
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	_, r := setup(t)
	cases := []struct {
		email, normalized, source, verdict, reason string
		mx                                         int
		disposable, role, free                     bool
	}{
		{"Jane.Doe@Good.Test", "Jane.Doe@good.test", MXFromRecords, Deliverable, "not checked", 2, false, false, false},
		{" info+x@good.test ", "info+x@good.test", MXFromRecords, Risky, "role", 2, false, true, false},
		{"x@mailinator.com", "x@mailinator.com", MXFromRecords, Risky, "disposable", 1, true, false, false},
		{"someone@gmail.com", "someone@gmail.com", MXFromRecords, Deliverable, "not checked", 1, false, false, true},
		{"x@nullmx.test", "x@nullmx.test", MXNull, Undeliverable, "null MX", 0, false, false, false},
		{"x@implicit.test", "x@implicit.test", MXImplicit, Deliverable, "implicit MX", 1, false, false, false},
		{"x@nomail.test", "x@nomail.test", MXNone, Undeliverable, "no MX record and no address", 0, false, false, false},
		{"x@nowhere.test", "x@nowhere.test", MXNone, Undeliverable, "does not exist", 0, false, false, false},
		{"x@fail.test", "x@fail.test", MXNone, Unknown, "SERVFAIL", 0, false, false, false},
		{"jürgen@Bücher.test", "jürgen@xn--bcher-kva.test", MXFromRecords, Deliverable, "", 1, false, false, false},
		{`"john doe"@good.test`, `"john doe"@good.test`, MXFromRecords, Deliverable, "", 2, false, false, false},
	}
	for _, c := range cases {
		res, err := Verify(context.Background(), r, Input{Email: c.email}, nil)
		if err != nil {
			t.Errorf("%s: %v", c.email, err)
			continue
		}
		got := fmt.Sprint(res.Normalized, res.MXSource, res.Verdict, len(res.MX), res.Disposable, res.RoleAccount, res.FreeProvider)
		want := fmt.Sprint(c.normalized, c.source, c.verdict, c.mx, c.disposable, c.role, c.free)
		if got != want || !strings.Contains(strings.Join(res.Reasons, "; "), c.reason) || !res.SyntaxValid || res.SMTP != nil {
			t.Errorf("%s:\n got %s %q\nwant %s, a reason with %q", c.email, got, res.Reasons, want, c.reason)
		}
	}
}

func TestMXOrder(t *testing.T) {
	t.Parallel()
	_, r := setup(t)
	res, err := Verify(context.Background(), r, Input{Email: "a@good.test"}, nil)
	if err != nil || res.MX[0] != (MXHost{"mx.good.test", 10}) || res.MX[1] != (MXHost{"mx2.good.test", 20}) || res.Domain != "good.test" || res.LocalPart != "a" {
		t.Errorf("%+v, %v", res, err)
	}
}

// smtpServer is a mail server on loopback that answers RCPT TO from a
// list of mailboxes (nil: every address), or with rcptReply.
type smtpServer struct {
	port      int
	greeting  string
	mailboxes map[string]bool
	rcptReply string
	mu        sync.Mutex
	commands  []string
}

func startSMTP(t *testing.T, s *smtpServer) *smtpServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.port = l.Addr().(*net.TCPAddr).Port
	if s.greeting == "" {
		s.greeting = "220 mx.good.test ESMTP ready"
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { s.serve(conn) })
		}
	})
	return s
}

// serve answers one conversation, at most 20 commands within 5 seconds.
func (s *smtpServer) serve(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	in := textproto.NewReader(bufio.NewReader(io.LimitReader(conn, 64<<10)))
	say := func(line string) { fmt.Fprintf(conn, "%s\r\n", line) }
	say(s.greeting)
	if !strings.HasPrefix(s.greeting, "220") {
		return
	}
	for range 20 {
		line, err := in.ReadLine()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.commands = append(s.commands, line)
		s.mu.Unlock()
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			say("250-mx.good.test hello\r\n250 8BITMIME")
		case "MAIL", "RSET", "NOOP":
			say("250 2.1.0 OK")
		case "RCPT":
			say(s.rcpt(arg))
		case "QUIT":
			say("221 2.0.0 bye")
			return
		default:
			say("502 5.5.2 unknown command")
		}
	}
}

func (s *smtpServer) rcpt(arg string) string {
	if s.rcptReply != "" {
		return s.rcptReply
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(arg, "TO:"), "<"), ">")
	local, _, _ := strings.Cut(addr, "@")
	if s.mailboxes == nil || s.mailboxes[local] {
		return "250 2.1.5 OK"
	}
	return "550 5.1.1 <" + addr + ">: no such user"
}

func (s *smtpServer) transcript() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.commands, " | ")
}

func TestSMTPProbe(t *testing.T) {
	t.Parallel()
	_, r := setup(t)
	var d net.Dialer
	cases := []struct {
		name     string
		server   *smtpServer
		email    string
		verdict  string
		rcpt     int
		catchAll string
		reason   string
	}{
		{"mailbox exists", &smtpServer{mailboxes: map[string]bool{"alice": true}}, "alice@good.test", Deliverable, 250, "false", "accepts the address"},
		{"no such mailbox", &smtpServer{mailboxes: map[string]bool{"alice": true}}, "bob@good.test", Undeliverable, 550, "<nil>", "refuses the address: 550 5.1.1"},
		{"catch-all", &smtpServer{}, "anyone@good.test", Risky, 250, "true", "catch-all"},
		{"greylisting", &smtpServer{rcptReply: "450 4.2.0 greylisted, try later"}, "alice@good.test", Unknown, 450, "<nil>", "deferred"},
		{"policy refusal", &smtpServer{rcptReply: "550 5.7.1 client host blocked"}, "alice@good.test", Unknown, 550, "<nil>", "by policy"},
		{"refused greeting", &smtpServer{greeting: "554 5.3.2 no service"}, "alice@good.test", Unknown, 0, "<nil>", "554"},
		{"implicit MX", &smtpServer{mailboxes: map[string]bool{"alice": true}}, "alice@implicit.test", Deliverable, 250, "false", "implicit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := startSMTP(t, c.server)
			res, err := Verify(context.Background(), r, Input{Email: c.email}, &Options{SMTPProbe: true, Dial: d.DialContext, SMTPPort: srv.port, HeloName: "probe.test", MailFrom: "verify@probe.test"})
			if err != nil {
				t.Fatal(err)
			}
			s := res.SMTP
			catchAll := "<nil>"
			if s != nil && s.CatchAll != nil {
				catchAll = strconv.FormatBool(*s.CatchAll)
			}
			if s == nil || !s.Connected || res.Verdict != c.verdict || s.RcptCode != c.rcpt || catchAll != c.catchAll || !strings.Contains(strings.Join(res.Reasons, "; "), c.reason) {
				t.Errorf("verdict %s %q, smtp %+v (catch-all %s); want %s, rcpt %d, catch-all %s, a reason with %q", res.Verdict, res.Reasons, s, catchAll, c.verdict, c.rcpt, c.catchAll, c.reason)
			}
			if tr := srv.transcript(); s != nil && s.Greeting == 220 && (!strings.HasPrefix(tr, "EHLO probe.test | MAIL FROM:<verify@probe.test>") || strings.Contains(tr, "DATA") || !strings.HasSuffix(tr, "QUIT")) {
				t.Errorf("conversation %s", tr)
			}
		})
	}
}

func TestSMTPProbeFailures(t *testing.T) {
	t.Parallel()
	_, r := setup(t)
	var d net.Dialer
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closedPort := closed.Addr().(*net.TCPAddr).Port
	closed.Close()
	cases := []struct {
		name  string
		email string
		opts  Options
		error string
	}{
		{"connection refused", "alice@good.test", Options{Dial: d.DialContext, SMTPPort: closedPort}, "refused the connection"},
		{"loopback refused by the default dialer", "alice@good.test", Options{SMTPPort: closedPort}, "SSRF guard"},
		{"mail server without address", "alice@noaddr.test", Options{Dial: d.DialContext, SMTPPort: closedPort}, "has no address"},
	}
	for _, c := range cases {
		c.opts.SMTPProbe = true
		res, err := Verify(context.Background(), r, Input{Email: c.email}, &c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.SMTP == nil || res.SMTP.Connected || !strings.Contains(res.SMTP.Error, c.error) || res.Verdict != Unknown {
			t.Errorf("%s: verdict %s, smtp %+v; want unknown with an error about %q", c.name, res.Verdict, res.SMTP, c.error)
		}
		if strings.Contains(res.SMTP.Error, strconv.Itoa(closedPort)) {
			t.Errorf("%s: the error names the address: %s", c.name, res.SMTP.Error)
		}
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	_, r := setup(t)
	for _, in := range []Input{{Email: ""}, {Email: "   "}, {Email: strings.Repeat("a", 311) + "@good.test"}} {
		if _, err := Verify(context.Background(), r, in, nil); !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != "email" {
			t.Errorf("%.20q: %v, want invalid email", in.Email, err)
		}
	}
	if _, err := Verify(context.Background(), r, Input{Email: "a@good.test", Resolver: "10.0.0.1"}, nil); errs.FieldOf(err) != "resolver" {
		t.Errorf("a resolver by address: %v", err)
	}
	for _, c := range []struct {
		mode dnstest.Mode
		kind errs.Kind
	}{{dnstest.Silent, errs.KindTimeout}, {dnstest.Garbage, errs.KindUpstream}, {dnstest.AlwaysTruncate, errs.KindUpstream}} {
		srv := dnstest.Start(t, zone)
		srv.SetMode(c.mode)
		r, _ := resolver.New(&resolver.Options{Servers: []string{srv.Addr()}, Timeout: 100 * time.Millisecond, Attempts: 1})
		_, err := Verify(context.Background(), r, Input{Email: "a@good.test"}, nil)
		if !errs.Is(err, c.kind) || !strings.Contains(err.Error(), "DNS resolver") || strings.Contains(err.Error(), srv.Port()) {
			t.Errorf("mode %d: %v, want %s naming the DNS resolver", c.mode, err, c.kind)
		}
	}
}

func TestLists(t *testing.T) {
	t.Parallel()
	for domain, want := range map[string]bool{"mailinator.com": true, "eu.mailinator.com": true, "guerrillamail.com": true, "gmail.com": false, "com": false} {
		if IsDisposable(domain) != want {
			t.Errorf("IsDisposable(%q) = %v", domain, !want)
		}
	}
	for local, want := range map[string]bool{"postmaster": true, "No.Reply+x": true, "Info": true, "jane": false, "admins": false} {
		if IsRoleAccount(local) != want {
			t.Errorf("IsRoleAccount(%q) = %v", local, !want)
		}
	}
	if !IsFreeProvider("outlook.com") || IsFreeProvider("example.com") {
		t.Error("IsFreeProvider")
	}
	if n := len(disposableSet()); n < 8000 {
		t.Errorf("%d disposable domains", n)
	}
}
