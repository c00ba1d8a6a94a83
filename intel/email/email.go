package email

import (
	"context"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/miekg/dns"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/resolver"
)

// Defaults and bounds.
const (
	// DefaultSMTPPort is the port of the SMTP probe.
	DefaultSMTPPort = 25
	// DefaultTimeout bounds the SMTP probe's conversation with one server.
	DefaultTimeout = 10 * time.Second
	// DefaultHeloName is the name the probe greets with.
	DefaultHeloName = "localhost"
	// MaxMXHosts bounds the mail exchangers listed.
	MaxMXHosts = 10
)

// Verdicts.
const (
	Deliverable   = "deliverable"
	Undeliverable = "undeliverable"
	Risky         = "risky"
	Unknown       = "unknown"
)

// Where the mail exchangers came from (Result.MXSource).
const (
	MXFromRecords = "mx"       // MX records
	MXImplicit    = "implicit" // no MX; the domain's own address (RFC 5321 §5.1)
	MXNull        = "null"     // a null MX (RFC 7505): no mail accepted
	MXNone        = "none"     // no MX and no address, or no such domain
)

// Input is the address to verify.
type Input struct {
	Email    string `json:"email" minLength:"1" maxLength:"320" example:"jane.doe@example.com" doc:"The address (a bare addr-spec: no display name). Anything that is not an address is answered with syntax_valid false."`
	Resolver string `json:"resolver,omitempty" enum:"default,cloudflare,google,quad9" doc:"Which resolver answers the domain's DNS questions: default (the server's own), cloudflare, google or quad9."`
}

// Options tune Verify. The zero value (or nil) means defaults: no SMTP
// probe.
type Options struct {
	// SMTPProbe asks the domain's mail server whether it accepts the
	// address, and a random one (catch-all). Off by default: it connects
	// to third-party servers on port 25, which many networks block and
	// some servers hold against the asker.
	SMTPProbe bool
	// Dial opens the probe's connections; the address is the mail
	// server's IP, found in DNS that anyone can publish. nil: a dialer
	// that refuses every address but public unicast ones. A server passes
	// fetch.Fetcher.DialService; tests pass a plain dialer for loopback.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// SMTPPort is the mail servers' port; 0: DefaultSMTPPort.
	SMTPPort int
	// HeloName is the name sent with EHLO; empty: DefaultHeloName. Set a
	// name whose A record is the server's address: many mail servers
	// refuse others.
	HeloName string
	// MailFrom is the probe's MAIL FROM address; empty: the null sender
	// (<>).
	MailFrom string
	// Timeout bounds the conversation with one mail server; 0:
	// DefaultTimeout.
	Timeout time.Duration
}

// Result is what is known of an address.
type Result struct {
	Email        string   `json:"email" doc:"The input."`
	Normalized   string   `json:"normalized,omitempty" example:"jane.doe@example.com" doc:"The address with its domain in lower-case A-labels (the local part keeps its case)."`
	SyntaxValid  bool     `json:"syntax_valid"`
	SyntaxReason string   `json:"syntax_reason,omitempty" doc:"Why the input is not an address."`
	LocalPart    string   `json:"local_part,omitempty" example:"jane.doe"`
	Domain       string   `json:"domain,omitempty" example:"example.com" doc:"In A-labels."`
	MX           []MXHost `json:"mx" doc:"Where mail for the domain goes, by preference: its MX hosts, or the domain itself (implicit MX)."`
	MXSource     string   `json:"mx_source,omitempty" enum:"mx,implicit,null,none" doc:"mx: MX records; implicit: none, so the domain's own address; null: a null MX (accepts no mail); none: no MX and no address, or no such domain."`
	Disposable   bool     `json:"disposable" doc:"The domain is a disposable-address service."`
	RoleAccount  bool     `json:"role_account" doc:"The local part names a role (admin, info, support, noreply, ...), not a person."`
	FreeProvider bool     `json:"free_provider" doc:"The domain is a free mailbox provider (gmail.com, outlook.com, ...)."`
	SMTP         *SMTP    `json:"smtp" doc:"The mail server's answers; null unless the SMTP probe is on."`
	Verdict      string   `json:"verdict" enum:"deliverable,undeliverable,risky,unknown"`
	Reasons      []string `json:"reasons" doc:"Why the verdict."`
}

// MXHost is one mail exchanger.
type MXHost struct {
	Host       string `json:"host" example:"mx1.example.com"`
	Preference int    `json:"preference" example:"10"`
}

// Verify checks in.Email: its syntax, its domain's mail exchangers (MX,
// else the implicit MX, a null MX meaning no mail) through r, the
// disposable-domain, role-account and free-provider lists, and, with
// Options.SMTPProbe, what the mail server answers for it and for a random
// address (catch-all). The verdict is undeliverable when the syntax, the
// domain or the mail server rules the address out; risky for disposable
// domains, role accounts and catch-all servers; unknown when the
// resolver answers neither yes nor no (SERVFAIL) or the probe, when on,
// got no answer for the address (no connection, 4xx, a policy refusal);
// deliverable otherwise (without the probe: the domain accepts mail).
//
// Input that is not an address is a Result with SyntaxValid false; only
// an empty or over-long (more than MaxLength bytes) input is
// errs.KindInvalid ("email"), an unknown resolver name KindInvalid
// ("resolver"). The resolver's failures are its errors (errs.KindTimeout,
// KindUpstream, KindUnavailable, naming the DNS resolver); the SMTP
// probe's failures are reported in Result.SMTP, never as errors.
func Verify(ctx context.Context, r *resolver.Resolver, in Input, opts *Options) (*Result, error) {
	if r == nil {
		return nil, errs.Invalid("resolver", "must not be nil")
	}
	s := strings.TrimSpace(in.Email)
	switch {
	case s == "":
		return nil, errs.Invalid("email", "an address is required")
	case len(s) > MaxLength:
		return nil, errs.Invalid("email", "longer than %d bytes: no address is", MaxLength)
	}
	o := defaults(opts)
	res := &Result{Email: in.Email, MX: []MXHost{}, Reasons: []string{}}
	addr, reason := parse(s)
	if reason != "" {
		res.SyntaxReason, res.Verdict = reason, Undeliverable
		res.Reasons = append(res.Reasons, "not a valid address: "+reason)
		return res, nil
	}
	res.SyntaxValid, res.Normalized, res.LocalPart, res.Domain = true, addr.normalized(), addr.local, addr.domain
	res.Disposable, res.RoleAccount, res.FreeProvider = IsDisposable(addr.domain), IsRoleAccount(addr.local), IsFreeProvider(addr.domain)
	rcode, err := mailExchangers(ctx, r, in.Resolver, res)
	if err != nil {
		return nil, err
	}
	if o.SMTPProbe && (res.MXSource == MXFromRecords || res.MXSource == MXImplicit) {
		res.SMTP = probe(ctx, r, in.Resolver, res, o)
	}
	res.Verdict, res.Reasons = verdict(res, rcode)
	return res, nil
}

func defaults(opts *Options) Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.SMTPPort <= 0 || o.SMTPPort > 65535 {
		o.SMTPPort = DefaultSMTPPort
	}
	if o.HeloName == "" {
		o.HeloName = DefaultHeloName
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// mailExchangers fills res.MX and res.MXSource and returns the MX
// answer's rcode.
func mailExchangers(ctx context.Context, r *resolver.Resolver, choice string, res *Result) (int, error) {
	msg, _, err := r.Exchange(ctx, res.Domain, dns.TypeMX, choice, false)
	if err != nil {
		return 0, err
	}
	res.MXSource = MXNone
	if msg.Rcode != dns.RcodeSuccess {
		return msg.Rcode, nil
	}
	for _, rr := range msg.Answer {
		if mx, ok := rr.(*dns.MX); ok && len(res.MX) < MaxMXHosts {
			res.MX = append(res.MX, MXHost{Host: strings.ToLower(strings.TrimSuffix(mx.Mx, ".")), Preference: int(mx.Preference)})
		}
	}
	slices.SortStableFunc(res.MX, func(a, b MXHost) int { return a.Preference - b.Preference })
	switch {
	case len(res.MX) == 1 && res.MX[0].Host == "":
		res.MX, res.MXSource = []MXHost{}, MXNull
	case len(res.MX) > 0:
		res.MXSource = MXFromRecords
	default:
		addrs, err := addresses(ctx, r, choice, res.Domain, 1)
		if err != nil {
			return 0, err
		}
		if len(addrs) > 0 {
			res.MX, res.MXSource = []MXHost{{Host: res.Domain}}, MXImplicit
		}
	}
	return dns.RcodeSuccess, nil
}

// addresses resolves host's A records, then its AAAA records when it has
// none, at most limit.
func addresses(ctx context.Context, r *resolver.Resolver, choice, host string, limit int) ([]string, error) {
	var out []string
	for _, qtype := range []uint16{dns.TypeA, dns.TypeAAAA} {
		msg, _, err := r.Exchange(ctx, host, qtype, choice, false)
		if err != nil {
			return nil, err
		}
		for _, rr := range msg.Answer {
			switch a := rr.(type) {
			case *dns.A:
				out = append(out, a.A.String())
			case *dns.AAAA:
				out = append(out, a.AAAA.String())
			}
		}
		if len(out) > 0 {
			return out[:min(len(out), limit)], nil
		}
	}
	return nil, nil
}

// verdict weighs what is known.
func verdict(res *Result, rcode int) (string, []string) {
	var reasons []string
	switch {
	case rcode == dns.RcodeNameError:
		return Undeliverable, []string{"the domain " + res.Domain + " does not exist (NXDOMAIN)"}
	case rcode != dns.RcodeSuccess:
		return Unknown, []string{"the resolver could not answer for the domain (" + resolver.RcodeName(rcode) + ")"}
	case res.MXSource == MXNull:
		return Undeliverable, []string{"the domain accepts no mail (null MX, RFC 7505)"}
	case res.MXSource == MXNone:
		return Undeliverable, []string{"the domain has no MX record and no address: it cannot receive mail"}
	}
	risky := false
	v, why, decided := smtpVerdict(res.SMTP)
	switch {
	case decided && v == Undeliverable:
		return Undeliverable, []string{why}
	case decided && v == Risky:
		risky = true
	}
	if why != "" {
		reasons = append(reasons, why)
	}
	if res.Disposable {
		risky, reasons = true, append(reasons, "the domain is a disposable-address service")
	}
	if res.RoleAccount {
		risky, reasons = true, append(reasons, "the address names a role, not a person")
	}
	if res.MXSource == MXImplicit {
		reasons = append(reasons, "the domain has no MX record; mail goes to its own address (implicit MX)")
	}
	switch {
	case risky:
		return Risky, reasons
	case res.SMTP != nil && !decided:
		return Unknown, reasons
	case res.SMTP == nil:
		reasons = append(reasons, "the domain accepts mail; the mailbox itself was not checked (SMTP probe off)")
	}
	return Deliverable, reasons
}
