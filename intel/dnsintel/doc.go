// Package dnsintel reads a domain's mail and delegation set-up from DNS
// and reports its problems. It backs POST /v1/dns/intelligence.
//
// Analyze asks, through a resolver.Resolver, for:
//
//   - MX: the mail exchangers, a null MX (RFC 7505), or the implicit MX
//     (the domain's own address) when there is none;
//   - SPF: the record, its terms, and its DNS-lookup count per RFC 7208
//     §4.6.4 (include, a, mx, ptr, exists and redirect, counted through
//     every include and redirect, which are fetched and walked), void
//     lookups, the all qualifier, loops. The a, mx, ptr and exists terms
//     are counted, not resolved: their names often hold macros that only
//     a sender's address fills in;
//   - DMARC: the record at _dmarc.<domain>, else at the organizational
//     domain (public suffix + 1, golang.org/x/net/publicsuffix), its tags;
//   - DKIM: TXT at <selector>._domainkey.<domain> for CommonSelectors and
//     the caller's, with each key's type and size;
//   - CAA: the records at the domain or its closest parent (RFC 8659);
//   - NS: the zone (from the SOA), its name servers and their addresses;
//     each of the first four is asked directly, without recursion, for
//     the zone's SOA (resolver.Resolver.AskAuthority, which by default
//     dials public addresses only) to find lame delegations;
//   - dangling CNAMEs: the domain's and www's CNAME chains that end in
//     NXDOMAIN, marked when the target is a hosting service known for
//     subdomain takeovers (S3, CloudFront, Heroku, GitHub Pages, Azure,
//     Fastly, Shopify, Netlify, ...).
//
// Each section lists its data and Findings (code, severity, message).
// A call asks at most MaxQueries (80) questions, MaxConcurrent (8) at a
// time; the sections run at once. Only the first question (the domain's
// SOA) failing fails the call, with the resolver's error (errs.KindTimeout
// 504, KindUpstream 502, KindUnavailable 503, each naming the DNS
// resolver); a later failure is noted in its section.
package dnsintel
