// Package connlimit caps the open connections of each client address on a
// net.Listener: a client over its cap has its new connection closed at
// once, before a byte is read, so one address cannot hold every socket and
// goroutine of the server (slowloris). Clients are keyed by
// internal/clientaddr: an IPv4 address, or the /64 of an IPv6 one.
//
// Hand-written because golang.org/x/net/netutil.LimitListener caps the
// total only and blocks in Accept when full, which lets one client starve
// every other; the per-address count is a map and a mutex.
package connlimit
