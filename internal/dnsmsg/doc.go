// Package dnsmsg keeps the server's own resolver out of error messages a
// caller sees. Go's net.DNSError reads "lookup example.invalid on
// 10.0.0.2:53: no such host": the "on 10.0.0.2:53" names an address inside
// the operator's network, which is none of the caller's business (and a
// map for an attacker probing it).
package dnsmsg
