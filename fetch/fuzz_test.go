package fetch

import (
	"net/netip"
	"net/url"
	"slices"
	"testing"
)

// forbidden reports whether the guard, with its defaults, must refuse
// addr: anything but a public unicast address on port 80 or 443.
func forbidden(ap netip.AddrPort) bool {
	a := ap.Addr().WithZone("").Unmap()
	return !a.IsGlobalUnicast() || a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() ||
		isMetadata(a) || thisNetworkV4.Contains(a) || sharedV4.Contains(a) || nat64.Contains(a) ||
		!slices.Contains(DefaultAllowedPorts, int(ap.Port()))
}

// FuzzGuard: the dial-time guard never panics, and never lets through an
// address it must refuse, however the address is written.
func FuzzGuard(f *testing.F) {
	for _, s := range []string{"93.184.215.14:443", "127.0.0.1:80", "[::ffff:10.0.0.1]:80", "[fd00:ec2::254]:80",
		"169.254.169.254:80", "[::1]:443", "0.0.0.0:80", "[64:ff9b::7f00:1]:80", "100.64.0.1:443", "[fe80::1%eth0]:80", "1.1.1.1:22", "x"} {
		f.Add(s)
	}
	on, _ := (&Options{}).resolve()
	g := newGuard(&on, nil)
	open := newGuard(&Options{AllowPrivateNetworks: true}, nil)
	f.Fuzz(func(t *testing.T, addr string) {
		err := g.control("tcp", addr, nil)
		openErr := open.control("tcp", addr, nil)
		ap, perr := netip.ParseAddrPort(addr)
		if perr != nil {
			if err == nil {
				t.Fatalf("%q does not parse, yet the guard allowed it", addr)
			}
			return
		}
		if err == nil && forbidden(ap) {
			t.Fatalf("the guard allowed %s", addr)
		}
		if openErr == nil && isMetadata(ap.Addr().WithZone("").Unmap()) {
			t.Fatalf("--allow-private-networks let the metadata address %s through", addr)
		}
	})
}

// FuzzCheckURL: validating any URL string never panics, and what passes
// is http(s) with a host and no credentials.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://example.com/", "http://user:pw@example.com/", "ftp://x", "//x", "http://[::1", "https://exa mple.com", "http://0x7f.1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		if checkURL(u) == nil && (u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" || u.User != nil) {
			t.Fatalf("checkURL passed %q", raw)
		}
	})
}
