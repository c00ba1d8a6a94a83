package secheaders

import (
	"net/http"
	"slices"
	"strings"
)

// maxCSPPolicies and maxCSPDirectives bound what is read of a hostile
// Content-Security-Policy.
const (
	maxCSPPolicies   = 16
	maxCSPDirectives = 64
)

// cspPolicy is one serialized policy: directive name (lower case) to its
// source expressions. Hand-parsed after CSP Level 3 §2.2 ("parse a
// serialized CSP"): no library in use parses CSP, and only the directive
// names and source lists are needed.
type cspPolicy map[string][]string

// parseCSPHeaders reads every Content-Security-Policy field; each may hold
// several policies separated by commas, and every one of them is
// enforced.
func parseCSPHeaders(values []string) []cspPolicy {
	var out []cspPolicy
	for _, v := range values {
		for _, serialized := range strings.Split(v, ",") {
			if len(out) == maxCSPPolicies {
				return out
			}
			if p := parseCSP(serialized); len(p) > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

func parseCSP(serialized string) cspPolicy {
	p := cspPolicy{}
	for i, d := range strings.Split(serialized, ";") {
		if i == maxCSPDirectives {
			break
		}
		fields := strings.Fields(d)
		if len(fields) == 0 {
			continue
		}
		name := strings.ToLower(fields[0])
		if _, dup := p[name]; dup {
			continue // the first occurrence wins
		}
		sources := make([]string, 0, len(fields)-1)
		for _, s := range fields[1:] {
			sources = append(sources, strings.ToLower(s))
		}
		p[name] = sources
	}
	return p
}

// scriptSources is what governs scripts: script-src, else default-src.
func (p cspPolicy) scriptSources() ([]string, string, bool) {
	if s, ok := p["script-src"]; ok {
		return s, "script-src", true
	}
	if s, ok := p["default-src"]; ok {
		return s, "default-src", true
	}
	return nil, "", false
}

// cspVerdict is one policy's script check: result, points, reason.
type cspVerdict struct {
	result string
	points int
	reason string
}

// judgeScripts applies the CSP rules to one policy: the worst problem
// decides the points; the reason names every problem.
func (p cspPolicy) judgeScripts() cspVerdict {
	sources, directive, ok := p.scriptSources()
	if !ok {
		return cspVerdict{Fail, -20, "The policy has neither default-src nor script-src, so scripts may load from anywhere: it does not stop XSS. Start from default-src 'self'."}
	}
	nonceOrHash := slices.ContainsFunc(sources, isNonceOrHash)
	strictDynamic := slices.Contains(sources, "'strict-dynamic'")
	var problems []string
	v := cspVerdict{Pass, 5, ""}
	worsen := func(result string, points int, problem string) {
		problems = append(problems, problem)
		if v.result == Pass || points < v.points {
			v.result, v.points = result, points
		}
	}
	if slices.Contains(sources, "'unsafe-inline'") && !nonceOrHash && !strictDynamic {
		worsen(Fail, -20, directive+" allows 'unsafe-inline' without a nonce or hash, so injected inline scripts run")
	}
	if !strictDynamic && slices.ContainsFunc(sources, isWildcardSource) {
		worsen(Fail, -20, directive+" allows scripts from any host (*, or a bare scheme such as https: or data:)")
	}
	if slices.Contains(sources, "'unsafe-eval'") {
		worsen(Warn, -10, directive+" allows 'unsafe-eval', so strings become code through eval()")
	}
	if len(problems) > 0 {
		v.reason = "The policy is weak: " + strings.Join(problems, "; ") + "."
		return v
	}
	if src, ok := p["default-src"]; ok && len(src) == 1 && src[0] == "'none'" {
		return cspVerdict{Pass, 10, "A strict policy: default-src 'none', and scripts only from the sources allowed, without unsafe-inline, unsafe-eval or wildcards."}
	}
	return cspVerdict{Pass, 5, "Scripts are restricted (" + directive + ") without unsafe-inline, unsafe-eval or wildcards."}
}

func isNonceOrHash(s string) bool {
	return strings.HasPrefix(s, "'nonce-") || strings.HasPrefix(s, "'sha256-") ||
		strings.HasPrefix(s, "'sha384-") || strings.HasPrefix(s, "'sha512-")
}

// isWildcardSource reports a source expression that matches any host.
func isWildcardSource(s string) bool {
	switch s {
	case "*", "http:", "https:", "data:", "blob:", "http://*", "https://*", "*:*":
		return true
	}
	return false
}

func checkCSP(h http.Header, policies []cspPolicy) Check {
	c := newCheck("csp", "Content-Security-Policy", h)
	if !c.Present || len(policies) == 0 {
		if ro, ok := headerValue(h, "Content-Security-Policy-Report-Only"); ok {
			c.Header, c.Present, c.Value = "Content-Security-Policy-Report-Only", true, cut(ro)
			return c.judged(Warn, -20, "Only Content-Security-Policy-Report-Only is sent: violations are reported but nothing is blocked. Enforce the policy with Content-Security-Policy once the reports are clean.")
		}
		if c.Present {
			return c.judged(Fail, -25, "Content-Security-Policy is empty, so it restricts nothing.")
		}
		return c.judged(Fail, -25, "No Content-Security-Policy: nothing limits where scripts, styles and frames come from, the main defence in depth against XSS. Start from default-src 'self'.")
	}
	// Every policy is enforced, so the strictest one decides.
	best := policies[0].judgeScripts()
	for _, p := range policies[1:] {
		if v := p.judgeScripts(); v.points > best.points {
			best = v
		}
	}
	return c.judged(best.result, best.points, best.reason)
}

// frameAncestors is the strictest frame-ancestors of the policies: "" when
// none has one, "wildcard" when every one that has it allows any site,
// else "restricted".
func frameAncestors(policies []cspPolicy) string {
	state := ""
	for _, p := range policies {
		sources, ok := p["frame-ancestors"]
		if !ok {
			continue
		}
		if slices.ContainsFunc(sources, isWildcardSource) {
			if state == "" {
				state = "wildcard"
			}
			continue
		}
		state = "restricted"
	}
	return state
}
