// Package special knows the addresses and names that are not the public
// Internet's: the IANA special-purpose address registries (private,
// loopback, link-local, documentation, ...) and the special-use domain
// names (RFC 6761 and after) with the names private networks commonly
// use. GeoIP refuses such addresses and the DNS lookups refuse to ask
// about them, so a caller cannot read the operator's own network through
// the server's resolver.
package special
