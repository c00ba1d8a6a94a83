// Package whois looks up a domain's registration data (registrar, dates,
// EPP status, name servers, DNSSEC, an unredacted registrant, the raw
// answer), RDAP first, whois otherwise. It backs POST /v1/intel/whois.
//
// The caller's name is cut to its registrable domain under the Public
// Suffix List's ICANN section (www.example.co.uk → example.co.uk) and
// sent as A-labels; URLs, IP addresses, TLDs, public suffixes and
// special-use TLDs (.test, .local, .onion, ...) are refused.
//
// RDAP (RFC 9082/9083): the registry's service is found in an RFC 9224
// DNS bootstrap file by the longest matching entry; Client.Lookup GETs
// <base>domain/<name> with Accept: application/rdap+json and follows at
// most one rel="related" link of RDAP type (the registrar's record) to
// fill in what the registry left out. A 404 means the domain is not
// registered. Any other failure (5xx, a timeout, garbage, an oversize
// answer) falls back to whois, and Result.RDAPFallback says why.
//
// whois (RFC 3912, port 43) goes through github.com/likexian/whois: IANA
// names the registry's server, whose answer may refer to the registrar's
// (one referral: depth 2, at most 3 connections, port 43 only); the text
// is parsed by github.com/likexian/whois-parser. Options.WhoisServer
// sends every query to one server instead, with no referral.
//
// Every connection an upstream chose (the related link, the whois
// servers) goes through the SSRF guard the caller passes
// (Options.HTTPClient, Options.Dial; by default a fetch.Fetcher's). Each
// source has its own time budget (Options.Timeout, 10 s by default) and
// every answer a size cap (1 MiB RDAP, 256 KiB whois); Result.Raw keeps
// at most 64 KiB.
//
// # The bundled bootstrap
//
// iana-rdap-dns.json is a byte-for-byte copy of IANA's RDAP bootstrap
// file for DNS (https://data.iana.org/rdap/dns.json), "publication":
// "2026-06-26T18:00:02Z": 593 services, 1,199 TLDs. No network was
// reachable where it was bundled, so it was taken from a repository that
// vendors IANA's file, github.com/jarthod/rdap, data/dns.json at commit
// cb620ccb7b21c2596e192464e5d7abc18964ffcf (the newest copy found), and
// checked against IANA's formatting and against the 2026-03-23 copy
// vendored by github.com/cbuijs/dns-good (rdap-bootstrap.json). The file
// changes as registries add RDAP services; an operator replaces it with
// a fresh download through the server's --rdap-bootstrap FILE
// (Options.Bootstrap).
//
// Errors: bad input is errs.Invalid("domain"); not registered is
// errs.KindNotFound; a source that did not answer in time is
// errs.KindTimeout; one that could not be reached or answered garbage or
// too much is errs.KindUpstream; a TLD with no known whois server is
// errs.KindUnavailable. Messages name the source ("RDAP server", "whois
// server") and never an address.
package whois
