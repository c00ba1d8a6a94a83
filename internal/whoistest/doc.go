// Package whoistest runs the peers of registration-data lookups on
// loopback for tests: an RDAP server (httptest, RFC 9083 JSON) and whois
// servers (RFC 3912 over TCP on 127.0.0.1), with realistic canned records
// for example.com (a registry's and a registrar's, RDAP and whois) and
// knobs for the failures a client must survive: error statuses, garbage,
// silence, slowness.
//
// A test of another package starts what it needs:
//
//	rdap := whoistest.StartRDAP(t, map[string]string{
//		whoistest.ExampleDomain:                        whoistest.RegistryRDAP,
//		"/registrar/domain/" + whoistest.ExampleDomain: whoistest.RegistrarRDAP,
//	})
//	boot := rdap.Bootstrap("com") // an RFC 9224 file: --rdap-bootstrap
//
//	chain := whoistest.StartChain(t) // IANA → registry → registrar
//	// chain.Dial routes whois.iana.org:43 etc. to the three servers.
//
//	single := whoistest.StartWhois(t, map[string]string{"example.com": whoistest.RegistrarWhois})
//	// single.Addr is a --whois-server.
package whoistest
