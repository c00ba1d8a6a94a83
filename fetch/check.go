package fetch

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"strconv"

	"github.com/webinfra/webinfra/errs"
)

// CheckTarget applies the SSRF guard to rawURL ahead of time: it resolves
// the host and refuses the URL when any address (or the port) breaks a
// rule, with the same errors the dial-time guard gives. Callers that store
// a URL for later (webhook URLs) use it to refuse a bad target when it is
// given; the dial-time guard still checks every connection, so a name that
// changes its answer later is refused then.
func (f *Fetcher) CheckTarget(ctx context.Context, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return errs.Invalid("url", "is not a valid URL: %v", unwrapURLError(err))
	}
	if err := checkURL(u); err != nil {
		return err
	}
	port := 80
	if u.Scheme == "https" {
		port = 443
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return errs.Invalid("url", "has an invalid port %q", p)
		}
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return errs.Wrap(errs.KindInvalid, err, "url: host %q does not resolve", u.Hostname())
	}
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a.Unmap(), uint16(port))
		if f.guard.allow != nil && f.guard.allow(ap) {
			continue
		}
		if err := f.guard.check(ap); err != nil {
			return err
		}
	}
	return nil
}
