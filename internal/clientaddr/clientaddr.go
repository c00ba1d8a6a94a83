package clientaddr

import (
	"net"
	"net/netip"
)

// Key returns the limit key of addr, a "host:port" (as in
// http.Request.RemoteAddr or net.Conn.RemoteAddr().String()) or a bare
// host: the IPv4 address, or the IPv6 /64 prefix such as "2001:db8:1:2::/64".
// An IPv4-mapped IPv6 address counts as IPv4. Anything unparseable is
// returned as it is, so it still gets a bucket of its own.
func Key(addr string) string {
	host := addr
	if h, _, err := net.SplitHostPort(addr); err == nil {
		host = h
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.String()
}
