package secheaders

import (
	"net/http"
	"strings"
	"unicode"
)

func checkContentTypeOptions(h http.Header) Check {
	c := newCheck("x_content_type_options", "X-Content-Type-Options", h)
	switch {
	case !c.Present:
		return c.judged(Fail, -5, "No X-Content-Type-Options: browsers may sniff a response into a script or stylesheet. Send nosniff.")
	case strings.EqualFold(strings.TrimSpace(h.Get("X-Content-Type-Options")), "nosniff"):
		return c.judged(Pass, 0, "nosniff: browsers use the declared Content-Type and do not sniff.")
	default:
		return c.judged(Fail, -5, "X-Content-Type-Options has a value other than nosniff, so it does nothing. Send nosniff.")
	}
}

// checkClickjacking passes when CSP frame-ancestors restricts framing (the
// modern control, which browsers prefer over X-Frame-Options) or when
// X-Frame-Options is DENY or SAMEORIGIN.
func checkClickjacking(h http.Header, policies []cspPolicy) Check {
	switch frameAncestors(policies) {
	case "restricted":
		c := newCheck("clickjacking", "Content-Security-Policy", h)
		return c.judged(Pass, 5, "CSP frame-ancestors limits who may frame the page; browsers apply it instead of X-Frame-Options.")
	case "wildcard":
		c := newCheck("clickjacking", "Content-Security-Policy", h)
		return c.judged(Fail, -20, "CSP frame-ancestors allows any site to frame the page, so it can be clickjacked. Use frame-ancestors 'self' (or 'none').")
	}
	c := newCheck("clickjacking", "X-Frame-Options", h)
	if !c.Present {
		return c.judged(Fail, -20, "Neither X-Frame-Options nor CSP frame-ancestors: any site can frame the page and trick clicks (clickjacking). Send frame-ancestors 'self' in the CSP, or X-Frame-Options: SAMEORIGIN.")
	}
	values := map[string]bool{}
	for _, v := range h.Values("X-Frame-Options") {
		for _, part := range strings.Split(v, ",") {
			values[strings.ToUpper(strings.TrimSpace(part))] = true
		}
	}
	if len(values) == 1 && (values["DENY"] || values["SAMEORIGIN"]) {
		return c.judged(Pass, 0, "X-Frame-Options stops other sites from framing the page. CSP frame-ancestors is its modern replacement.")
	}
	if values["ALLOW-FROM"] || anyPrefix(values, "ALLOW-FROM ") {
		return c.judged(Fail, -20, "X-Frame-Options ALLOW-FROM is obsolete and ignored by current browsers, so the page can be framed. Use CSP frame-ancestors with the allowed origins.")
	}
	return c.judged(Fail, -20, "X-Frame-Options is not a single DENY or SAMEORIGIN, so browsers ignore it. Send SAMEORIGIN or CSP frame-ancestors.")
}

func anyPrefix(set map[string]bool, prefix string) bool {
	for v := range set {
		if strings.HasPrefix(v, prefix) {
			return true
		}
	}
	return false
}

// referrerPolicies are the tokens of the Referrer Policy specification.
var referrerPolicies = map[string]bool{
	"no-referrer": true, "no-referrer-when-downgrade": true, "same-origin": true, "origin": true,
	"strict-origin": true, "origin-when-cross-origin": true, "strict-origin-when-cross-origin": true, "unsafe-url": true,
}

// checkReferrerPolicy applies the last policy browsers recognise (a
// comma-separated list lets new tokens fall back to old ones).
func checkReferrerPolicy(h http.Header) Check {
	c := newCheck("referrer_policy", "Referrer-Policy", h)
	if !c.Present {
		return c.judged(Info, 0, "No Referrer-Policy: current browsers default to strict-origin-when-cross-origin, which is fine; sending it keeps older browsers in line.")
	}
	policy := ""
	for _, v := range h.Values("Referrer-Policy") {
		for _, token := range strings.Split(v, ",") {
			if t := strings.ToLower(strings.TrimSpace(token)); referrerPolicies[t] {
				policy = t
			}
		}
	}
	switch policy {
	case "":
		return c.judged(Fail, -5, "Referrer-Policy has no value browsers recognise, so it is ignored.")
	case "no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin":
		return c.judged(Pass, 5, policy+": full URLs never leave the site, and nothing is sent over a downgrade to HTTP.")
	case "origin", "origin-when-cross-origin":
		return c.judged(Pass, 0, policy+": other sites see only the origin, but it is sent even over HTTP. strict-origin-when-cross-origin is safer.")
	default: // unsafe-url, no-referrer-when-downgrade
		return c.judged(Warn, -5, policy+" sends full URLs (paths and query strings, which may hold tokens or personal data) to other sites. Use strict-origin-when-cross-origin.")
	}
}

func checkPermissionsPolicy(h http.Header) Check {
	c := newCheck("permissions_policy", "Permissions-Policy", h)
	switch {
	case c.Present:
		return c.judged(Pass, 0, "Permissions-Policy limits which browser features (camera, geolocation, ...) the page and its frames may use.")
	case len(h.Values("Feature-Policy")) > 0:
		c.Header, c.Present, c.Value = "Feature-Policy", true, cut(h.Get("Feature-Policy"))
		return c.judged(Warn, 0, "Only the deprecated Feature-Policy is sent; browsers now read Permissions-Policy.")
	default:
		return c.judged(Warn, 0, "No Permissions-Policy: every browser feature stays available to the page and the frames it embeds. Deny the ones it does not use, e.g. camera=(), geolocation=(), microphone=().")
	}
}

// firstToken is a structured-header token value without its parameters,
// lower case.
func firstToken(v string) string {
	v, _, _ = strings.Cut(v, ";")
	return strings.ToLower(strings.Trim(strings.TrimSpace(v), `"`))
}

func checkCOOP(h http.Header) Check {
	c := newCheck("coop", "Cross-Origin-Opener-Policy", h)
	if !c.Present {
		return c.judged(Warn, 0, "No Cross-Origin-Opener-Policy: a page this one opens (or that opens it) keeps a handle on its window, the ground of cross-window attacks and XS-Leaks. Send same-origin.")
	}
	switch v := firstToken(h.Get("Cross-Origin-Opener-Policy")); v {
	case "same-origin", "same-origin-allow-popups", "noopener-allow-popups":
		return c.judged(Pass, 0, v+": the page runs in its own browsing context group, apart from cross-origin windows.")
	case "unsafe-none":
		return c.judged(Warn, 0, "unsafe-none is the default: cross-origin windows keep a handle on this one. Use same-origin.")
	default:
		return c.judged(Warn, 0, "Cross-Origin-Opener-Policy has an unknown value, so browsers ignore it.")
	}
}

func checkCORP(h http.Header) Check {
	c := newCheck("corp", "Cross-Origin-Resource-Policy", h)
	if !c.Present {
		return c.judged(Warn, 0, "No Cross-Origin-Resource-Policy: any site can embed this response (and read side channels of it). Send same-origin, or same-site.")
	}
	switch v := firstToken(h.Get("Cross-Origin-Resource-Policy")); v {
	case "same-origin", "same-site":
		return c.judged(Pass, 0, v+": other sites cannot load this response as a resource.")
	case "cross-origin":
		return c.judged(Info, 0, "cross-origin: any site may load this response, right for public resources (CDN files), not for private ones.")
	default:
		return c.judged(Warn, 0, "Cross-Origin-Resource-Policy has an unknown value, so browsers ignore it.")
	}
}

func checkCOEP(h http.Header) Check {
	c := newCheck("coep", "Cross-Origin-Embedder-Policy", h)
	switch v := firstToken(h.Get("Cross-Origin-Embedder-Policy")); {
	case !c.Present:
		return c.judged(Info, 0, "No Cross-Origin-Embedder-Policy: needed only, with COOP same-origin, for cross-origin isolation (SharedArrayBuffer, precise timers).")
	case v == "require-corp" || v == "credentialless":
		return c.judged(Pass, 0, v+": the page embeds only resources that opt in, a step to cross-origin isolation.")
	default:
		return c.judged(Info, 0, "Cross-Origin-Embedder-Policy is "+v+": no cross-origin isolation.")
	}
}

// checkXSSProtection follows OWASP and MDN: the XSS auditors this header
// drove are gone from browsers, and where they remain, mode 1 has been
// used to leak data; "0" (or no header) is the recommendation.
func checkXSSProtection(h http.Header) Check {
	c := newCheck("x_xss_protection", "X-XSS-Protection", h)
	v := strings.TrimSpace(h.Get("X-XSS-Protection"))
	switch {
	case !c.Present:
		return c.judged(Pass, 0, "Not sent: good, the header is deprecated; Content-Security-Policy is the defence against XSS.")
	case v == "0":
		return c.judged(Pass, 0, "0 turns off the legacy XSS auditor, as OWASP recommends.")
	case strings.HasPrefix(v, "1"):
		return c.judged(Warn, 0, "X-XSS-Protection: 1 turns on a deprecated XSS auditor that current browsers lack and that could be abused to leak data in old ones. Send 0 or nothing, and rely on CSP.")
	default:
		return c.judged(Warn, 0, "X-XSS-Protection has an unknown value. The header is deprecated: send 0 or nothing.")
	}
}

// checkServer warns when Server names a version (a digit), which tells
// attackers which known vulnerabilities to try; a bare product name is
// harmless enough.
func checkServer(h http.Header) Check {
	c := newCheck("server", "Server", h)
	switch {
	case !c.Present:
		return c.judged(Pass, 0, "No Server header: the software is not advertised.")
	case strings.ContainsFunc(h.Get("Server"), unicode.IsDigit):
		return c.judged(Warn, -5, "Server names a version, which tells attackers which known vulnerabilities to try. Send the product name only, or nothing.")
	default:
		return c.judged(Pass, 0, "Server names the product but no version.")
	}
}

func checkDisclosure(h http.Header, id, header, what string) Check {
	c := newCheck(id, header, h)
	if !c.Present {
		return c.judged(Pass, 0, "Not sent.")
	}
	return c.judged(Warn, -5, header+" "+what+", information that helps attackers choose exploits and serves no visitor. Remove it.")
}

// checkCORS flags Access-Control-Allow-Origin values that open responses
// to any site: "*" with credentials (a contradiction browsers refuse,
// which usually means the server reflects origins elsewhere) and "null"
// (which sandboxed frames and data: URLs of any site send).
func checkCORS(h http.Header) Check {
	c := newCheck("cors", "Access-Control-Allow-Origin", h)
	origin := strings.TrimSpace(h.Get("Access-Control-Allow-Origin"))
	credentials := strings.EqualFold(strings.TrimSpace(h.Get("Access-Control-Allow-Credentials")), "true")
	switch {
	case !c.Present:
		return c.judged(Pass, 0, "No Access-Control-Allow-Origin: other sites' scripts cannot read this response.")
	case origin == "*" && credentials:
		return c.judged(Fail, -10, "Access-Control-Allow-Origin: * with Access-Control-Allow-Credentials: true. Browsers refuse the pair, but it shows an intent to share credentialed responses with any site; servers set up so often reflect any Origin. List the trusted origins.")
	case origin == "*":
		return c.judged(Info, 0, "Access-Control-Allow-Origin: * lets any site read this response without cookies: right for public data, wrong for anything behind a login or a network boundary.")
	case strings.EqualFold(origin, "null"):
		return c.judged(Fail, -10, "Access-Control-Allow-Origin: null trusts the null origin, which any site can produce with a sandboxed frame. Name the trusted origins instead.")
	case credentials:
		return c.judged(Info, 0, "Responses are shared with "+cut(origin)+" with credentials; make sure that origin is trusted and not merely echoed from the request.")
	default:
		return c.judged(Info, 0, "Responses are shared with "+cut(origin)+".")
	}
}
