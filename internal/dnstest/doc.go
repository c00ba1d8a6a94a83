// Package dnstest runs a real DNS server (miekg/dns) on loopback for the
// tests of any package in the module: UDP and TCP on the same port,
// answering from records written as an RFC 1035 master file.
//
// It answers as a recursive resolver would: CNAME chains are followed
// inside its records (at most 8 hops), NXDOMAIN and NODATA answers carry
// the enclosing zone's SOA in the authority section, and names under a
// zone whose SOA it holds are answered authoritatively (AA set), so the
// same server can stand for a domain's name servers too.
//
// UDP answers are truncated (TC set, records dropped) to 512 bytes, or to
// the size a query advertises with EDNS0, so a client must retry over TCP
// to read a large answer; TCP answers are whole.
//
// Knobs for the failures a client must survive: Sign (the AD bit for
// chosen zones, when the query sets DO or AD), ServFail (SERVFAIL for
// chosen names), and SetMode: Silent (never answers: timeouts),
// AlwaysTruncate (TC on every answer, over TCP too) and Garbage (a reply
// that cannot be parsed). Queries counts what the server received, to
// check a client's bounds; Log lists it; OnQuery calls a function with
// each query as it arrives (to cancel a client mid-query, say).
//
// Start binds 127.0.0.1 on a free port and shuts the server down with
// tb.Cleanup; New serves on a chosen address (a second name server at
// 127.0.0.2 on the first one's Port) and leaves Close to the caller:
//
//	srv := dnstest.Start(t, `
//	$ORIGIN example.test.
//	$TTL 300
//	@   SOA ns1 hostmaster 1 7200 900 1209600 300
//	@   NS  ns1
//	ns1 A   127.0.0.1
//	@   MX  10 mail
//	`)
//	r, _ := resolver.New(&resolver.Options{Servers: []string{srv.Addr()}})
package dnstest
