package whois

import (
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/webinfra/webinfra/errs"
)

// maxDomainLength is the longest domain name DNS allows, dots included.
const maxDomainLength = 253

// specialUseTLDs have no registry to ask (RFC 2606, 6761, 6762, 7686,
// and ICANN's reservation of .internal); "arpa" is infrastructure.
var specialUseTLDs = map[string]bool{
	"test": true, "example": true, "invalid": true, "localhost": true,
	"local": true, "onion": true, "internal": true, "arpa": true,
}

// registrableDomain turns what a caller typed into the registrable domain
// whose registration is looked up: IDNs become A-labels, case and a final
// dot go, and a subdomain is cut to the name registered under its public
// suffix ("www.example.co.uk" → "example.co.uk"). URLs, IP addresses,
// bare TLDs and public suffixes are refused with errs.Invalid("domain").
func registrableDomain(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	if name == "" {
		return "", errs.Invalid("domain", "is required")
	}
	if strings.ContainsAny(name, "/:?#@ \t\r\n") {
		return "", errs.Invalid("domain", "must be a bare domain name such as example.com, not a URL or an address: %q", clip(name))
	}
	name = strings.TrimSuffix(name, ".")
	if _, err := netip.ParseAddr(name); err == nil {
		return "", errs.Invalid("domain", "is an IP address; give a domain name")
	}
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil {
		return "", errs.Invalid("domain", "is not a valid domain name: %q", clip(name))
	}
	if err := checkHostname(ascii); err != nil {
		return "", err
	}
	labels := strings.Split(ascii, ".")
	if len(labels) < 2 {
		return "", errs.Invalid("domain", "%q is a top-level domain; give a domain registered under one, such as example.%s", ascii, ascii)
	}
	if specialUseTLDs[labels[len(labels)-1]] {
		return "", errs.Invalid("domain", "%q is under a special-use top-level domain that no registry serves", ascii)
	}
	suffix := icannSuffix(ascii)
	if ascii == suffix {
		return "", errs.Invalid("domain", "%q is a public suffix, not a registrable domain", ascii)
	}
	rest := strings.TrimSuffix(ascii, "."+suffix)
	return rest[strings.LastIndexByte(rest, '.')+1:] + "." + suffix, nil
}

// checkHostname enforces DNS's shape on an A-label name: at most 253
// characters, labels of 1 to 63 letters, digits and inner hyphens.
func checkHostname(ascii string) error {
	if len(ascii) > maxDomainLength {
		return errs.Invalid("domain", "is longer than %d characters", maxDomainLength)
	}
	for _, label := range strings.Split(ascii, ".") {
		if len(label) == 0 || len(label) > 63 {
			return errs.Invalid("domain", "has an empty label or one longer than 63 characters")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return errs.Invalid("domain", "has a label that starts or ends with a hyphen: %q", label)
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return errs.Invalid("domain", "has a character a domain name cannot hold in %q", label)
			}
		}
	}
	return nil
}

// icannSuffix is the public suffix of name under the ICANN section of the
// Public Suffix List, skipping the private section: a registry holds
// "example.com" even though "blogspot.com" is a private suffix. A TLD the
// list does not know counts as a suffix of one label.
func icannSuffix(name string) string {
	suffix, icann := publicsuffix.PublicSuffix(name)
	for !icann {
		dot := strings.IndexByte(suffix, '.')
		if dot < 0 {
			return suffix // an unknown TLD: the list's default rule "*"
		}
		suffix, icann = publicsuffix.PublicSuffix(suffix[dot+1:])
	}
	return suffix
}

// clip shortens a caller's string for an error message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
