package redirects

import (
	"fmt"

	"github.com/webinfra/webinfra/seo/htmlaudit/auditkit"
)

// The finding codes, in the order they are reported:
//
//	redirect_loop          error    the chain came back to a URL it visited
//	too_many_redirects     error    the chain did not end within MaxTraceHops (20) traced hops
//	redirect_failed        error    a hop did not answer
//	redirect_refused       error    the SSRF guard refused a hop's target
//	long_redirect_chain    error    more than LongChain (3) redirects
//	redirect_chain         warning  2 or 3 redirects: link to the final URL
//	https_downgrade        error    a hop from https to http
//	temporary_redirect     warning  302, 303 or 307 for a canonicalising move (see Hop.Canonicalisation): use 301 or 308
//	meta_refresh           warning  the final page redirects again with a meta refresh or Refresh header
//	refresh_reload         notice   the final page reloads itself with a refresh
//	unfollowed_redirect    warning  the final answer is a 3xx without a usable Location
//	final_client_error     error    the final answer is a 4xx
//	final_server_error     error    the final answer is a 5xx
func findings(rep *Report) []auditkit.Finding {
	out := []auditkit.Finding{}
	add := func(code, severity, u, format string, args ...any) {
		out = append(out, auditkit.Finding{Code: code, Severity: severity, URL: u, Message: fmt.Sprintf(format, args...)})
	}
	n := len(rep.Hops)
	switch rep.Outcome {
	case OutcomeLoop:
		last := rep.Hops[n-1]
		add("redirect_loop", auditkit.Error, last.Location, "The chain loops: %s redirects back to %s, visited before. Browsers and crawlers give up; break the loop.", last.URL, last.Location)
	case OutcomeTooMany:
		add("too_many_redirects", auditkit.Error, lastURL(rep), "The chain did not end within %d redirects. Crawlers stop after a few hops; redirect straight to the final URL.", n)
	case OutcomeRefused:
		add("redirect_refused", auditkit.Error, lastURL(rep), "The chain goes to an address this service may not fetch: %s.", rep.Error)
	case OutcomeFailed:
		add("redirect_failed", auditkit.Error, lastURL(rep), "The chain did not end in a page: %s.", rep.Error)
	}
	switch {
	case rep.Outcome == OutcomeLoop || rep.Outcome == OutcomeTooMany: // the chain's length is not the problem
	case n > LongChain:
		add("long_redirect_chain", auditkit.Error, rep.URL, "%d redirects before the final URL (more than %d): each hop costs a round trip and crawlers may stop following; redirect in one hop.", n, LongChain)
	case n > 1:
		add("redirect_chain", auditkit.Warning, rep.URL, "%d redirects before the final URL: redirect in one hop, and link to the final URL.", n)
	}
	for _, h := range rep.Hops {
		if h.SchemeChange == "https_to_http" {
			add("https_downgrade", auditkit.Error, h.URL, "%s redirects from HTTPS to HTTP (%s): the visit loses its encryption and browsers may warn.", h.URL, h.Location)
		}
		if !h.Permanent && h.Canonicalisation != "" && h.Status != 0 {
			add("temporary_redirect", auditkit.Warning, h.URL, "HTTP %d for a permanent move (%s, to %s): use 301 or 308 so search engines move the URL's signals to the target.", h.Status, h.Canonicalisation, h.Location)
		}
	}
	if rep.Final == nil {
		return out
	}
	if r := rep.Final.Refresh; r != nil {
		what := "a meta refresh"
		if r.Source == SourceHeader {
			what = "a Refresh header"
		}
		if r.URL != "" {
			add("meta_refresh", auditkit.Warning, r.URL, "The final page redirects again with %s after %d s (%q): use an HTTP 301 instead, which every crawler follows.", what, r.DelaySeconds, r.Content)
		} else {
			add("refresh_reload", auditkit.Notice, rep.Final.URL, "The final page reloads itself with %s every %d s (%q).", what, r.DelaySeconds, r.Content)
		}
	}
	switch s := rep.Final.Status; {
	case s >= 500:
		add("final_server_error", auditkit.Error, rep.Final.URL, "The chain ends in HTTP %d, a server error.", s)
	case s >= 400:
		add("final_client_error", auditkit.Error, rep.Final.URL, "The chain ends in HTTP %d: the target is missing or refused.", s)
	case s >= 300:
		add("unfollowed_redirect", auditkit.Warning, rep.Final.URL, "The chain ends in HTTP %d without a usable Location header.", s)
	}
	return out
}

// lastURL is the URL the chain was at when it stopped.
func lastURL(rep *Report) string {
	if n := len(rep.Hops); n > 0 {
		return rep.Hops[n-1].Location
	}
	return rep.URL
}
