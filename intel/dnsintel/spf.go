package dnsintel

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/miekg/dns"
)

// SPF bounds. No SPF library is among the module's dependencies, and the
// evaluators that exist check a sender's IP; what is wanted here is the
// record's shape and its lookup count, so the walk is written here.
const (
	// MaxSPFLookups is RFC 7208 §4.6.4's limit on DNS-querying terms.
	MaxSPFLookups = 10
	// MaxSPFVoidLookups is §4.6.4's limit on lookups answering nothing.
	MaxSPFVoidLookups = 2
	// maxSPFFetches bounds the include and redirect targets fetched.
	maxSPFFetches = 12
	// maxSPFDepth bounds the include nesting followed.
	maxSPFDepth = 10
	// maxSPFSteps bounds the includes walked (a diamond of includes is
	// walked once per path, as an evaluator would).
	maxSPFSteps = 100
	// maxSPFTerms bounds the terms read from one record.
	maxSPFTerms = 100
)

// SPF is the domain's SPF policy (RFC 7208).
type SPF struct {
	Record      string      `json:"record,omitempty" example:"v=spf1 include:_spf.google.com ~all"`
	Mechanisms  []Mechanism `json:"mechanisms" doc:"The record's terms, in order."`
	Lookups     int         `json:"lookups" doc:"DNS-querying terms (include, a, mx, ptr, exists, redirect), counted through every include as RFC 7208 §4.6.4 does; more than 10 is a permanent error."`
	VoidLookups int         `json:"void_lookups" doc:"Included or redirected names that answered no record; more than 2 is a permanent error."`
	OverLimit   bool        `json:"over_limit" doc:"Lookups is over 10: receivers fail the SPF check (permerror)."`
	All         string      `json:"all,omitempty" example:"~all" doc:"The all term with its qualifier (-all, ~all, ?all, +all), through redirect= when the record has none."`
	Includes    []Include   `json:"includes" doc:"Each include and redirect followed, depth first."`
	Complete    bool        `json:"complete" doc:"Every include was followed; when false (a macro, a failed lookup, a bound), lookups is a lower bound."`
	Error       string      `json:"error,omitempty"`
}

// Mechanism is one term of an SPF record.
type Mechanism struct {
	Qualifier string `json:"qualifier,omitempty" example:"~" doc:"+ pass, - fail, ~ softfail, ? neutral; empty for a modifier."`
	Name      string `json:"name" example:"include" doc:"all, include, a, mx, ptr, ip4, ip6, exists, or a modifier (redirect, exp, ...)."`
	Value     string `json:"value,omitempty" example:"_spf.google.com"`
}

// Include is one include or redirect target.
type Include struct {
	Domain  string `json:"domain" example:"_spf.google.com"`
	Via     string `json:"via" enum:"include,redirect"`
	From    string `json:"from" doc:"The name whose record names it."`
	Record  string `json:"record,omitempty"`
	Lookups int    `json:"lookups" doc:"Lookups its record costs, its own includes counted."`
	Problem string `json:"problem,omitempty" doc:"Why it was not followed or counts against the record."`
}

// spfTarget is a fetched include or redirect target.
type spfTarget struct {
	records []string // its SPF records
	void    bool     // NXDOMAIN or no TXT record at all
	err     error
}

// spfWalk counts a record's lookups through its includes.
type spfWalk struct {
	ctx      context.Context
	q        *querier
	out      *SPF
	mu       sync.Mutex
	cache    map[string]*spfTarget
	fetched  int
	steps    int
	problems map[string]string // finding code → message, first of each
}

func (q *querier) spf(ctx context.Context, domain string, out *SPF) []Finding {
	out.Mechanisms, out.Includes, out.Complete = []Mechanism{}, []Include{}, true
	msg, err := q.ask(ctx, domain, dns.TypeTXT)
	if err != nil {
		out.Error, out.Complete = err.Error(), false
		return []Finding{lookupFailed("spf", "SPF", err)}
	}
	recs := withPrefix(txts(msg), "v=spf1")
	if len(recs) == 0 {
		return []Finding{{Code: "spf_missing", Severity: SeverityWarning, Section: "spf",
			Message: "No SPF record: receivers cannot tell which servers may send as this domain. Publish one (v=spf1 ... -all), or v=spf1 -all if it sends no mail."}}
	}
	w := &spfWalk{ctx: ctx, q: q, out: out, cache: map[string]*spfTarget{}, problems: map[string]string{}}
	if len(recs) > 1 {
		w.problem("spf_multiple", "%d SPF records: receivers fail the check (permerror, RFC 7208 §4.5). Merge them into one.", len(recs))
	}
	out.Record = recs[0]
	out.Mechanisms = parseSPF(recs[0])
	out.Lookups = w.walk(domain, out.Mechanisms, []string{domain})
	out.OverLimit = out.Lookups > MaxSPFLookups
	out.All = w.all(out.Mechanisms, 0)
	return w.findings()
}

// walk returns the lookups terms cost, following include and redirect.
func (w *spfWalk) walk(domain string, terms []Mechanism, path []string) int {
	w.prefetch(terms, path)
	hasAll := slices.ContainsFunc(terms, func(m Mechanism) bool { return m.Name == "all" })
	lookups := 0
	for _, t := range terms {
		switch t.Name {
		case "a", "mx", "exists":
			lookups++
		case "ptr":
			lookups++
			w.problem("spf_ptr", "The ptr mechanism is slow and unreliable; RFC 7208 §5.5 says not to use it.")
		case "include":
			lookups += 1 + w.follow(domain, "include", t.Value, path)
		case "redirect":
			if !hasAll { // redirect= is ignored when the record has all
				lookups += 1 + w.follow(domain, "redirect", t.Value, path)
			}
		default:
			if t.Qualifier != "" && !slices.Contains(knownMechanisms, t.Name) {
				w.problem("spf_syntax", "%s's record has an unknown mechanism %q: receivers fail the check (permerror).", domain, clip(t.Name, 40))
			}
		}
	}
	return lookups
}

// follow walks one include or redirect target and returns its lookups.
func (w *spfWalk) follow(from, via, target string, path []string) int {
	inc := Include{Domain: target, Via: via, From: from}
	index := len(w.out.Includes)
	w.out.Includes = append(w.out.Includes, inc)
	set := func(problem string) int { w.out.Includes[index].Problem = problem; return 0 }
	t := w.cached(target)
	switch {
	case strings.Contains(target, "%"):
		w.out.Complete = false
		return set("holds a macro, expanded only at delivery time: not followed")
	case slices.Contains(path, target):
		w.problem("spf_include_loop", "The includes loop back to %s: receivers fail the check (permerror).", target)
		return set("loops back to a record already being read")
	case len(path) > maxSPFDepth || w.steps >= maxSPFSteps || t == nil:
		w.out.Complete = false
		return set("not followed: past the bounds of this report")
	case t.err != nil:
		w.out.Complete = false
		return set("lookup failed: " + t.err.Error())
	case t.void:
		w.out.VoidLookups++
		w.problem("spf_include_without_spf", "%s %s names %s, which has no SPF record: receivers fail the check (permerror).", from, via, target)
		return set("no record (a void lookup)")
	case len(t.records) == 0:
		w.problem("spf_include_without_spf", "%s %s names %s, which has no SPF record: receivers fail the check (permerror).", from, via, target)
		return set("no SPF record")
	case len(t.records) > 1:
		w.problem("spf_multiple", "%s has %d SPF records: receivers fail the check (permerror).", target, len(t.records))
	}
	w.steps++
	w.out.Includes[index].Record = t.records[0]
	n := w.walk(target, parseSPF(t.records[0]), slices.Concat(path, []string{target}))
	w.out.Includes[index].Lookups = n
	return n
}

// prefetch fetches, at once, the include and redirect targets of terms
// not fetched yet, within maxSPFFetches.
func (w *spfWalk) prefetch(terms []Mechanism, path []string) {
	var wg sync.WaitGroup
	for _, t := range terms {
		if (t.Name != "include" && t.Name != "redirect") || strings.Contains(t.Value, "%") || slices.Contains(path, t.Value) {
			continue
		}
		w.mu.Lock()
		_, seen := w.cache[t.Value]
		if seen || w.fetched >= maxSPFFetches || len(path) > maxSPFDepth {
			w.mu.Unlock()
			continue
		}
		w.fetched++
		target := &spfTarget{}
		w.cache[t.Value] = target
		w.mu.Unlock()
		wg.Go(func() {
			msg, err := w.q.ask(w.ctx, t.Value, dns.TypeTXT)
			if err != nil {
				target.err = err
				return
			}
			recs := txts(msg)
			target.void = msg.Rcode == dns.RcodeNameError || len(recs) == 0
			target.records = withPrefix(recs, "v=spf1")
		})
	}
	wg.Wait()
}

func (w *spfWalk) cached(target string) *spfTarget {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cache[target]
}

// all is the all term of terms, or of the redirect target's record when
// there is none.
func (w *spfWalk) all(terms []Mechanism, depth int) string {
	for _, t := range terms {
		if t.Name == "all" {
			return t.Qualifier + "all"
		}
	}
	for _, t := range terms {
		if t.Name == "redirect" && depth < maxSPFDepth {
			if target := w.cached(t.Value); target != nil && len(target.records) > 0 {
				return w.all(parseSPF(target.records[0]), depth+1)
			}
		}
	}
	return ""
}

func (w *spfWalk) problem(code, format string, args ...any) {
	if _, ok := w.problems[code]; !ok {
		w.problems[code] = fmt.Sprintf(format, args...)
	}
}

// findings lists the problems in a fixed order.
func (w *spfWalk) findings() []Finding {
	out := w.out
	add := func(code, message string) { w.problems[code] = message }
	if out.OverLimit {
		add("spf_too_many_lookups", fmt.Sprintf("The record needs %d DNS lookups, more than the 10 RFC 7208 §4.6.4 allows: receivers fail the check (permerror). Flatten includes or drop unused ones.", out.Lookups))
	}
	if out.VoidLookups > MaxSPFVoidLookups {
		add("spf_too_many_void_lookups", fmt.Sprintf("%d lookups answer no record, more than the 2 allowed: receivers fail the check (permerror).", out.VoidLookups))
	}
	switch out.All {
	case "+all":
		add("spf_plus_all", "+all lets every server on the internet send as this domain. Use -all or ~all.")
	case "?all":
		add("spf_neutral_all", "?all is neutral: mail from unlisted servers is treated as if there were no SPF. Use -all or ~all.")
	case "":
		add("spf_no_all", "No all term: mail from unlisted servers gets neutral, as with ?all. End the record with -all or ~all.")
	}
	if !out.Complete {
		add("spf_incomplete", "Some includes could not be followed (a macro, a failed lookup or a bound), so the lookup count is a lower bound.")
	}
	var found []Finding
	for _, c := range spfCodes {
		if msg, ok := w.problems[c.code]; ok {
			found = append(found, Finding{Code: c.code, Severity: c.severity, Section: "spf", Message: msg})
		}
	}
	return found
}

// spfCodes are the SPF findings, in the order they are reported.
var spfCodes = []struct{ code, severity string }{
	{"spf_multiple", SeverityError},
	{"spf_syntax", SeverityError},
	{"spf_include_loop", SeverityError},
	{"spf_include_without_spf", SeverityError},
	{"spf_too_many_lookups", SeverityError},
	{"spf_too_many_void_lookups", SeverityError},
	{"spf_plus_all", SeverityError},
	{"spf_neutral_all", SeverityWarning},
	{"spf_ptr", SeverityWarning},
	{"spf_no_all", SeverityNotice},
	{"spf_incomplete", SeverityNotice},
}

// parseSPF reads the terms of an SPF record (after "v=spf1"), at most
// maxSPFTerms. Domain values are lower case, without a trailing dot.
func parseSPF(record string) []Mechanism {
	fields := strings.Fields(record)
	out := []Mechanism{}
	for _, f := range fields[min(1, len(fields)):] {
		if len(out) == maxSPFTerms {
			break
		}
		if i := strings.IndexAny(f, ":=/"); i > 0 && f[i] == '=' {
			out = append(out, Mechanism{Name: strings.ToLower(f[:i]), Value: spfDomain(f[i+1:])})
			continue
		}
		m := Mechanism{Qualifier: "+"}
		if strings.ContainsAny(f[:1], "+-~?") {
			m.Qualifier, f = f[:1], f[1:]
		}
		name, value := f, ""
		if i := strings.IndexAny(f, ":/"); i >= 0 {
			name, value = f[:i], strings.TrimPrefix(f[i:], ":")
		}
		m.Name, m.Value = strings.ToLower(name), value
		if m.Name == "include" || m.Name == "exists" {
			m.Value = spfDomain(value)
		}
		out = append(out, m)
	}
	return out
}

func spfDomain(s string) string { return strings.ToLower(strings.TrimSuffix(s, ".")) }

// knownMechanisms are RFC 7208's mechanisms; anything else that is not a
// modifier is a syntax error.
var knownMechanisms = []string{"all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"}
