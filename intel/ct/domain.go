package ct

import (
	"net/netip"
	"strings"

	"golang.org/x/net/idna"

	"github.com/webinfra/webinfra/errs"
)

// normalizeDomain validates a domain name given by a caller and returns
// it in lower-case ASCII (IDNA, punycode for non-ASCII labels), without a
// trailing dot. Errors are errs.KindInvalid naming "domain".
func normalizeDomain(raw string) (string, error) {
	s := strings.TrimSuffix(strings.TrimSpace(raw), ".")
	switch {
	case s == "":
		return "", errs.Invalid("domain", "is required")
	case strings.HasPrefix(s, "*."):
		return "", errs.Invalid("domain", "give the domain without a wildcard (example.com); subdomains are searched with include_subdomains or subdomain-enumerate")
	case strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@ %"):
		return "", errs.Invalid("domain", "must be a domain name such as example.com, not a URL or a pattern")
	}
	if _, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return "", errs.Invalid("domain", "must be a domain name, not an IP address")
	}
	ascii, err := idna.Lookup.ToASCII(s)
	if err != nil {
		return "", errs.Invalid("domain", "is not a valid domain name: %v", err)
	}
	ascii = strings.ToLower(ascii)
	if len(ascii) > 253 {
		return "", errs.Invalid("domain", "is longer than 253 characters")
	}
	labels := strings.Split(ascii, ".")
	if len(labels) < 2 {
		return "", errs.Invalid("domain", "must have at least two labels, such as example.com")
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return "", errs.Invalid("domain", "has an empty label or one longer than 63 characters")
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", errs.Invalid("domain", "must end in a top-level domain, not a number")
	}
	return ascii, nil
}

// underDomain reports whether name is domain or one of its subdomains.
// Both are lower-case ASCII.
func underDomain(name, domain string) bool {
	return name == domain || strings.HasSuffix(name, "."+domain)
}
