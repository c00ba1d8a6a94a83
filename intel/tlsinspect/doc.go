// Package tlsinspect inspects a host's TLS set-up from one handshake: the
// chain as presented, expiry, names, protocol and cipher suite, OCSP
// stapling, HSTS, and whether TLS 1.0/1.1 are still accepted. It backs
// /v1/intel/ssl.
//
// Inspect connects through Options.Dial (the server passes
// fetch.Fetcher.DialService, so the SSRF guard refuses private and
// loopback targets) and completes a handshake with crypto/tls verifying
// nothing: the chain is judged afterwards by Options.Verify (the server
// passes fetch.Fetcher.VerifyChain), so an expired, self-signed,
// untrusted or misnamed certificate is a report with problems, not an
// error. The client offers TLS 1.0 to 1.3 and every cipher suite Go
// implements, so that old servers are described rather than refused.
//
// Then, over the same connection (ALPN offered: http/1.1 only), it sends
// one GET / and reads the answer's status line and headers, at most 64
// KiB, never the body, for Strict-Transport-Security (parsed and judged
// by package secheaders). Unless Options.SkipLegacyProbe is set, a second
// connection to the same address offers only TLS 1.0 and 1.1; a
// completed handshake there is the legacy_protocol_accepted problem.
// Options.Timeout (10 s) bounds all of it.
//
// A stapled OCSP response is parsed with golang.org/x/crypto/ocsp; its
// signature is checked when the leaf's issuer is in the presented chain.
//
// The problem codes and their severities are listed on problems in
// problems.go and in Problem's documentation: certificate_expired,
// certificate_not_yet_valid, certificate_expiring_soon, self_signed,
// untrusted_chain, hostname_mismatch, ocsp_revoked, weak_signature (MD5,
// SHA-1), weak_key (RSA < 2048, ECDSA < 256), old_protocol (TLS < 1.2
// negotiated), legacy_protocol_accepted, weak_cipher, hsts_missing,
// hsts_invalid, hsts_disabled, hsts_short_max_age (under one year),
// hsts_no_include_subdomains, ocsp_invalid, ocsp_stale and
// ocsp_not_stapled (info).
//
// Errors: a bad domain is errs.KindInvalid ("domain"); a refused target
// is the guard's errs.KindForbidden as it comes; no answer in time is
// errs.KindTimeout; a host that cannot be reached or does not speak TLS
// is errs.KindUpstream ("TLS handshake with <domain> failed: ...").
//
// Package tlstest makes certificates, OCSP staples and HTTPS servers on
// loopback for tests.
package tlsinspect
