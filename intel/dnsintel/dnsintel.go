package dnsintel

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/net/publicsuffix"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/intel/resolver"
)

// Bounds of one Analyze call.
const (
	// MaxQueries bounds the DNS questions of one call (resolver and name
	// server questions alike).
	MaxQueries = 80
	// MaxConcurrent bounds the questions in flight at once.
	MaxConcurrent = 8
	// MaxExtraSelectors bounds Input.DKIMSelectors.
	MaxExtraSelectors = 20
	// MaxDuration bounds one call; questions still unanswered then are
	// noted in their sections.
	MaxDuration = 30 * time.Second
)

// Input names the domain to analyse.
type Input struct {
	Domain        string   `json:"domain" minLength:"1" maxLength:"254" example:"example.com" doc:"The domain (internationalized names are sent as A-labels)."`
	Resolver      string   `json:"resolver,omitempty" enum:"default,cloudflare,google,quad9" doc:"Which resolver answers: default (the server's own), cloudflare, google or quad9."`
	DKIMSelectors []string `json:"dkim_selectors,omitempty" maxItems:"20" example:"[\"s2048\"]" doc:"DKIM selectors to probe besides the common ones, at most 20 (letters, digits, hyphens, underscores; dots for sub-selectors)."`
}

// Severities of a Finding, worst first.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityNotice  = "notice"
)

// Finding is one problem found. Code is stable (snake_case); Message is
// for people.
type Finding struct {
	Code     string `json:"code" example:"spf_too_many_lookups" doc:"Stable snake_case identifier of the kind of problem."`
	Severity string `json:"severity" enum:"error,warning,notice" doc:"error (broken or dangerous), warning (likely to cost deliverability or safety), notice (worth a look)."`
	Section  string `json:"section" enum:"domain,mx,spf,dmarc,dkim,caa,ns,dangling" doc:"The part of the report it is about."`
	Message  string `json:"message" doc:"What is wrong and what to do."`
}

// Report is a domain's mail and delegation set-up as DNS shows it.
type Report struct {
	Domain   string     `json:"domain" example:"example.com" doc:"The domain, in A-labels."`
	Resolver string     `json:"resolver" example:"default" doc:"The resolver that answered, by name."`
	Exists   bool       `json:"exists" doc:"The domain exists in DNS (not NXDOMAIN). When false the other sections are empty."`
	MX       MX         `json:"mx"`
	SPF      SPF        `json:"spf"`
	DMARC    DMARC      `json:"dmarc"`
	DKIM     DKIM       `json:"dkim"`
	CAA      CAA        `json:"caa"`
	NS       NS         `json:"ns"`
	Dangling []Dangling `json:"dangling" doc:"CNAMEs of the domain and its www name that point at a service known for subdomain takeovers and do not resolve: hints, each with why."`
	Findings []Finding  `json:"findings" doc:"Problems, section by section."`
	Queries  int        `json:"queries" doc:"DNS questions this report asked (at most 80)."`
}

// Analyze reads in.Domain's mail and delegation set-up from DNS through r:
// MX, SPF (with its DNS-lookup count), DMARC, DKIM at common selectors,
// CAA, the NS delegation (each name server asked directly whether it
// answers for the zone) and dangling CNAMEs, with findings. At most
// MaxQueries questions, MaxConcurrent at a time.
//
// Bad input is errs.KindInvalid naming "domain", "dkim_selectors[i]" or
// "resolver". The first question (the domain's SOA) failing is the
// resolver's error (errs.KindTimeout, KindUpstream, KindUnavailable);
// a later failure is noted in its section (Error) and as a lookup_failed
// finding. A domain that does not exist is a report with Exists false.
func Analyze(ctx context.Context, r *resolver.Resolver, in Input) (*Report, error) {
	if r == nil {
		return nil, errs.Invalid("resolver", "must not be nil")
	}
	domain, err := resolver.Canonical("domain", in.Domain)
	if err != nil {
		return nil, err
	}
	selectors, err := checkSelectors(domain, in.DKIMSelectors)
	if err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, MaxDuration)
	defer cancel()
	q := newQuerier(r, in.Resolver)
	soa, label, err := q.first(ctx, domain)
	if err != nil {
		return nil, err
	}
	rep := &Report{Domain: domain, Resolver: label, Dangling: []Dangling{}, Findings: []Finding{}}
	if soa.Rcode == dns.RcodeNameError {
		rep.Findings = append(rep.Findings, Finding{Code: "domain_not_found", Severity: SeverityError, Section: "domain",
			Message: fmt.Sprintf("%s does not exist (NXDOMAIN): it has no records at all.", domain)})
		rep.Queries = q.count()
		return rep, nil
	}
	rep.Exists = true
	if soa.Rcode == dns.RcodeServerFailure {
		rep.Findings = append(rep.Findings, Finding{Code: "domain_servfail", Severity: SeverityError, Section: "domain",
			Message: fmt.Sprintf("The resolver answers SERVFAIL for %s: a broken DNSSEC chain or name servers that do not answer. Most lookups below will fail the same way.", domain)})
	}
	org := orgDomain(domain)
	sections := []func() []Finding{
		func() []Finding { return q.mx(ctx, domain, &rep.MX) },
		func() []Finding { return q.spf(ctx, domain, &rep.SPF) },
		func() []Finding { return q.dmarc(ctx, domain, org, &rep.DMARC) },
		func() []Finding { return q.dkim(ctx, domain, selectors, &rep.DKIM) },
		func() []Finding { return q.caa(ctx, domain, org, &rep.CAA) },
		func() []Finding { return q.ns(ctx, domain, soa, &rep.NS) },
		func() []Finding { return q.dangling(ctx, domain, &rep.Dangling) },
	}
	found := make([][]Finding, len(sections))
	var wg sync.WaitGroup
	for i, section := range sections {
		wg.Go(func() { found[i] = section() })
	}
	wg.Wait()
	if parent.Err() != nil {
		return nil, parent.Err()
	}
	for _, f := range found {
		rep.Findings = append(rep.Findings, f...)
	}
	rep.Queries = q.count()
	return rep, nil
}

// checkSelectors returns the common selectors and then the extra ones
// (checked, lower case, deduplicated).
func checkSelectors(domain string, extra []string) ([]string, error) {
	if len(extra) > MaxExtraSelectors {
		return nil, errs.Invalid("dkim_selectors", "at most %d selectors, got %d", MaxExtraSelectors, len(extra))
	}
	out := append([]string(nil), CommonSelectors...)
	seen := map[string]bool{}
	for _, s := range out {
		seen[s] = true
	}
	for i, s := range extra {
		field := fmt.Sprintf("dkim_selectors[%d]", i)
		sel, err := resolver.Canonical(field, s)
		if err != nil {
			return nil, err
		}
		if len(sel)+len("._domainkey.")+len(domain) > resolver.MaxNameLength {
			return nil, errs.Invalid(field, "too long: the selector's name under %s passes %d bytes", domain, resolver.MaxNameLength)
		}
		if !seen[sel] {
			seen[sel] = true
			out = append(out, sel)
		}
	}
	return out, nil
}

// orgDomain is the registrable domain (public suffix + 1), where DMARC
// and CAA lookups stop climbing.
func orgDomain(domain string) string {
	org, err := publicsuffix.EffectiveTLDPlusOne(domain)
	if err != nil {
		return domain
	}
	return org
}

// errBudget is the answer of a question past MaxQueries.
var errBudget = errors.New("not asked: the report's budget of 80 DNS questions is spent")

// querier asks the questions of one report within its bounds.
type querier struct {
	r      *resolver.Resolver
	choice string
	sem    chan struct{}
	mu     sync.Mutex
	used   int
}

func newQuerier(r *resolver.Resolver, choice string) *querier {
	return &querier{r: r, choice: choice, sem: make(chan struct{}, MaxConcurrent)}
}

// first asks the domain's SOA, the question whose failure fails the call.
func (q *querier) first(ctx context.Context, domain string) (*dns.Msg, string, error) {
	q.take()
	return q.r.Exchange(ctx, domain, dns.TypeSOA, q.choice, false)
}

func (q *querier) take() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.used >= MaxQueries {
		return false
	}
	q.used++
	return true
}

func (q *querier) count() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.used
}

// ask asks the resolver one question within the budget.
func (q *querier) ask(ctx context.Context, name string, qtype uint16) (*dns.Msg, error) {
	if !q.take() {
		return nil, errBudget
	}
	select {
	case q.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-q.sem }()
	msg, _, err := q.r.Exchange(ctx, name, qtype, q.choice, false)
	return msg, slow(err)
}

// errSlow is the answer of a question cut by MaxDuration.
var errSlow = errors.New("not answered: the report's 30 seconds were spent")

func slow(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return errSlow
	}
	return err
}

// askAuthority asks a name server directly within the budget.
func (q *querier) askAuthority(ctx context.Context, server netip.Addr, zone string) (*dns.Msg, error) {
	if !q.take() {
		return nil, errBudget
	}
	select {
	case q.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-q.sem }()
	msg, err := q.r.AskAuthority(ctx, server, zone, dns.TypeSOA)
	return msg, slow(err)
}

// records returns the answer records of type T.
func records[T dns.RR](msg *dns.Msg) []T {
	var out []T
	if msg == nil {
		return nil
	}
	for _, rr := range msg.Answer {
		if v, ok := rr.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// txts returns the TXT strings at a name, each record's strings joined.
func txts(msg *dns.Msg) []string {
	var out []string
	for _, rr := range records[*dns.TXT](msg) {
		out = append(out, resolver.TXTString(rr))
	}
	return out
}

// lookupFailed is the finding of a question that got no answer.
func lookupFailed(section, what string, err error) Finding {
	return Finding{Code: "lookup_failed", Severity: SeverityWarning, Section: section,
		Message: fmt.Sprintf("The %s lookup failed (%v), so this section is incomplete.", what, err)}
}

// host is a name without its trailing dot, lower case.
func host(name string) string { return strings.ToLower(strings.TrimSuffix(name, ".")) }
