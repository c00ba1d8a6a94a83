package secheaders

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// HSTS thresholds, in seconds.
const (
	HSTSOneYear    = 31_536_000 // OWASP's recommended max-age and the preload list's minimum
	HSTSSixMonths  = 15_768_000 // Mozilla Observatory's floor for a useful max-age
	maxHSTSDigits  = 18         // longer max-age values are held at maxHSTSMaxAge
	maxHSTSMaxAge  = 1<<63 - 1
	maxHSTSDirects = 32 // directives read from one header; more is garbage
)

// HSTS is a Strict-Transport-Security header read as RFC 6797 says.
type HSTS struct {
	Present           bool   `json:"present" doc:"The header was sent (over HTTPS: browsers ignore it over HTTP)."`
	Valid             bool   `json:"valid" doc:"It parsed and has a max-age; an invalid header is ignored by browsers."`
	MaxAge            int64  `json:"max_age" doc:"max-age in seconds; 0 tells browsers to forget the host."`
	IncludeSubDomains bool   `json:"include_subdomains" doc:"includeSubDomains was given."`
	Preload           bool   `json:"preload" doc:"preload was given (a request to be on browsers' preload list)."`
	Raw               string `json:"raw,omitempty" doc:"The header as sent, cut at 2,048 bytes."`
	Error             string `json:"error,omitempty" doc:"Why it is invalid."`
}

// ParseHSTS reads a Strict-Transport-Security value (RFC 6797 §6.1):
// directives separated by ";", names case-insensitive, max-age required
// with a decimal value (quotes allowed), every directive at most once. It
// is hand-written because no library in use parses this header; it
// follows the RFC's grammar only as far as a browser's decision needs.
// An empty value is a header that was not sent.
func ParseHSTS(value string) HSTS {
	value = strings.TrimSpace(value)
	if value == "" {
		return HSTS{}
	}
	h := HSTS{Present: true, Raw: cut(value)}
	seen := map[string]bool{}
	directives := strings.Split(value, ";")
	if len(directives) > maxHSTSDirects {
		h.Error = fmt.Sprintf("more than %d directives", maxHSTSDirects)
		return h
	}
	for _, d := range directives {
		name, arg, _ := strings.Cut(strings.TrimSpace(d), "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		if seen[name] {
			h.Error = fmt.Sprintf("directive %q given twice", name)
			return h
		}
		seen[name] = true
		switch name {
		case "max-age":
			age, err := parseMaxAge(arg)
			if err != nil {
				h.Error = err.Error()
				return h
			}
			h.MaxAge = age
		case "includesubdomains":
			h.IncludeSubDomains = true
		case "preload":
			h.Preload = true
		}
	}
	if !seen["max-age"] {
		h.Error = "no max-age directive"
		return h
	}
	h.Valid = true
	return h
}

func parseMaxAge(arg string) (int64, error) {
	arg = strings.TrimSpace(arg)
	if len(arg) >= 2 && arg[0] == '"' && arg[len(arg)-1] == '"' {
		arg = arg[1 : len(arg)-1]
	}
	if arg == "" || strings.Trim(arg, "0123456789") != "" {
		return 0, fmt.Errorf("max-age %q is not a number of seconds", cut(arg))
	}
	arg = strings.TrimLeft(arg, "0")
	if arg == "" {
		return 0, nil
	}
	if len(arg) > maxHSTSDigits {
		return maxHSTSMaxAge, nil
	}
	return strconv.ParseInt(arg, 10, 64)
}

// Problems of an HSTS header, shared with package tlsinspect through
// HSTSAdvice.
const (
	HSTSMissing   = "hsts_missing"
	HSTSInvalid   = "hsts_invalid"
	HSTSDisabled  = "hsts_disabled"
	HSTSShort     = "hsts_short_max_age"
	HSTSNoSubdoms = "hsts_no_include_subdomains"
)

// HSTSAdvice is what an HSTS header (over HTTPS) earns: its result,
// points, a problem code when it is weak ("" when it is fine) and the
// reason.
func HSTSAdvice(h HSTS) (result string, points int, problem, reason string) {
	switch {
	case !h.Present:
		return Fail, -20, HSTSMissing, "No Strict-Transport-Security header: a visitor's first request, or a link typed as http://, can be downgraded and intercepted. Send max-age=31536000; includeSubDomains."
	case !h.Valid:
		return Fail, -20, HSTSInvalid, "Strict-Transport-Security is invalid (" + h.Error + "), so browsers ignore it. Send max-age=31536000; includeSubDomains."
	case h.MaxAge == 0:
		return Fail, -20, HSTSDisabled, "max-age=0 tells browsers to forget the HSTS policy. Send max-age=31536000; includeSubDomains."
	case h.MaxAge < HSTSSixMonths:
		return Fail, -10, HSTSShort, fmt.Sprintf("max-age=%d is under six months (%d s): the protection lapses between visits. Use at least one year (31536000).", h.MaxAge, HSTSSixMonths)
	case h.MaxAge < HSTSOneYear:
		return Warn, -5, HSTSShort, fmt.Sprintf("max-age=%d is under one year (31536000), the value OWASP recommends and the preload list requires.", h.MaxAge)
	case !h.IncludeSubDomains:
		return Warn, 0, HSTSNoSubdoms, "HSTS is on for a year or more but without includeSubDomains: subdomains (and cookies scoped to the parent domain) stay open to downgrades."
	case h.Preload:
		return Pass, 5, "", "HSTS for a year or more with includeSubDomains and preload: eligible for browsers' preload list, so even the first visit is protected."
	default:
		return Pass, 0, "", "HSTS for a year or more with includeSubDomains. Adding preload (and submitting to hstspreload.org) also protects first visits."
	}
}

func checkHSTS(h http.Header, https bool) Check {
	c := newCheck("hsts", "Strict-Transport-Security", h)
	if !https {
		return c.judged(Info, 0, "The page was served over HTTP, where browsers ignore Strict-Transport-Security; grade the https:// URL to judge HSTS.")
	}
	// Browsers use the first Strict-Transport-Security field only.
	first := h.Get("Strict-Transport-Security")
	if c.Present && first == "" {
		return c.judged(Fail, -20, "Strict-Transport-Security is empty, so browsers ignore it. Send max-age=31536000; includeSubDomains.")
	}
	result, points, _, reason := HSTSAdvice(ParseHSTS(first))
	return c.judged(result, points, reason)
}
