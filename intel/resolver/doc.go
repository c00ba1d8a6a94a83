// Package resolver asks DNS questions of configured resolvers with the
// miekg/dns client. It backs POST /v1/dns/lookup and is the DNS source of
// the dnsintel and email packages.
//
// A Resolver knows its default servers (Options.Servers, the operator's
// --dns-resolver, else the nameservers of /etc/resolv.conf) and a few
// public resolvers by name (cloudflare, google, quad9). A caller picks a
// resolver by name only, never by address: a caller-given address would
// let anyone aim our UDP packets at hosts inside the operator's network
// (SSRF), or use us to reflect traffic at a victim.
//
// Exchange is the low level: one question, EDNS0 with a 1232-byte UDP
// payload, the DO and AD bits when DNSSEC is asked, a retry over TCP when
// the answer is truncated, the next server when one fails, a timeout on
// every try. Lookup is the endpoint: any record type by name (ANY is
// refused, RFC 8482), an IP address looked up by its reverse name, TTLs,
// the rcode, the AD flag, and the fields of common types read out.
// AskAuthority asks a domain's own name server directly, non-recursively,
// through a dialer that by default reaches public addresses only.
//
// Errors name the source ("DNS resolver", "name server") and never an
// address: no answer in time is errs.KindTimeout (HTTP 504); a refused
// connection, an unreadable answer or one still truncated over TCP is
// errs.KindUpstream (502); no configured resolver is
// errs.KindUnavailable (503). NXDOMAIN and SERVFAIL are answers, not
// errors. Canonical checks and converts domain names (IDNA 2008,
// RFC 1035 lengths) for every package that takes one.
package resolver
