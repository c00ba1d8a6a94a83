package tlsinspect

import (
	"net/netip"
	"strings"

	"golang.org/x/net/idna"

	"github.com/webinfra/webinfra/errs"
)

// normalizeHost validates the host a caller named: an IP address (IPv6
// with or without brackets) or a host name, returned in lower-case ASCII
// without a final dot. Errors are errs.KindInvalid naming "domain".
func normalizeHost(raw string) (host string, isIP bool, err error) {
	s := strings.TrimSuffix(strings.TrimSpace(raw), ".")
	if s == "" {
		return "", false, errs.Invalid("domain", "is required")
	}
	if ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		if ip.Zone() != "" {
			return "", false, errs.Invalid("domain", "must not carry an IPv6 zone")
		}
		return ip.String(), true, nil
	}
	if strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@: %*") {
		return "", false, errs.Invalid("domain", "must be a host name or IP address such as example.com, without scheme, path, port or wildcard")
	}
	ascii, err := idna.Lookup.ToASCII(s)
	if err != nil {
		return "", false, errs.Invalid("domain", "is not a valid host name: %v", err)
	}
	ascii = strings.ToLower(ascii)
	if len(ascii) > 253 {
		return "", false, errs.Invalid("domain", "is longer than 253 characters")
	}
	labels := strings.Split(ascii, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return "", false, errs.Invalid("domain", "has an empty label or one longer than 63 characters")
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", false, errs.Invalid("domain", "is neither a host name nor a valid IP address")
	}
	return ascii, false, nil
}
