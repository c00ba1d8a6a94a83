// Package clientaddr names the client behind a connection for per-client
// limits: rate-limit buckets, connection caps and login throttles.
//
// An IPv4 client is its address. An IPv6 client is its /64: one host is
// normally given a whole /64, so keying on the full address would hand an
// attacker 2^64 buckets.
package clientaddr
