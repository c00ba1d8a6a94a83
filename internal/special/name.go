package special

import "strings"

// names are the top-level names (and one second-level one) that are not
// delegated in the public DNS: a resolver answers them, if at all, from a
// private zone.
var names = []struct{ suffix, why string }{
	{"localhost", "a special-use name (RFC 6761)"},
	{"local", "a multicast DNS name (RFC 6762)"},
	{"home.arpa", "a home-network name (RFC 8375)"},
	{"internal", "a private-use name (ICANN, 2024)"},
	{"onion", "a Tor onion name (RFC 7686)"},
	{"alt", "a non-DNS name (RFC 9476)"},
	{"lan", "a private network name (not delegated)"},
	{"intranet", "a private network name (not delegated)"},
	{"corp", "a private network name (not delegated, ICANN name collision)"},
	{"home", "a private network name (not delegated, ICANN name collision)"},
	{"private", "a private network name (not delegated)"},
}

// Name reports why name (lower-case A-labels, no final dot) is not a
// public Internet name, or false when it may be one. Names under .arpa
// other than home.arpa are left to the caller: reverse names of public
// addresses are public.
func Name(name string) (string, bool) {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	for _, n := range names {
		if name == n.suffix || strings.HasSuffix(name, "."+n.suffix) {
			return n.why, true
		}
	}
	return "", false
}
