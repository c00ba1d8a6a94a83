// Package intel is the home of the domain and network intelligence
// libraries. Each data source is its own sub-package with one seam and a
// real-protocol implementation; tests run the protocol's peer on
// loopback, never the internet:
//
//   - resolver: DNS queries (miekg/dns), any record type, TTLs, the AD flag
//   - dnsintel: a domain's mail and delegation set-up read from DNS (MX, SPF, DMARC, DKIM, CAA, NS, dangling CNAMEs)
//   - email: an address checked by syntax, MX, disposable domains and role accounts
//   - whois: registration data, RDAP first (IANA bootstrap), whois otherwise
//   - ct: certificates and subdomains from a crt.sh-compatible transparency log search
//   - tlsinspect: a TLS handshake inspected: chain, expiry, protocol, cipher, stapling, HSTS
//   - secheaders: a response's security headers graded, each with its reason
//   - geoip: MaxMind-format databases: an IP's place and network, an ASN's prefixes
//   - pageinfo: what a page says about itself and the software behind it
//   - sitemap: a site's sitemaps read whole (indexes, gzip), under caps
//   - company: a company profile from one page
//
// Packages that connect to a host a caller named do so through the
// fetcher's SSRF guard (fetch.Fetcher.Client and DialService).
package intel
