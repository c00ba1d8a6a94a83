// Package fetch is Webinfra's fetch engine: it gets one URL and returns its
// body as UTF-8 with the metadata callers need (final URL, redirect chain,
// status, headers, detected charset, the tier that served it).
//
// A Fetcher is built once with New and is safe for concurrent use:
//
//	f, err := fetch.New(nil) // nil options: defaults
//	if err != nil { ... }
//	res, err := f.Fetch(ctx, fetch.Request{URL: "https://example.com/"})
//
// # Tiers
//
// Fetches are served by tiers. This first cut has only the direct tier (a
// plain HTTP client, TierDirect); the render tier (a headless browser) and
// the residential tier (a proxy pool) come later and will be tried in a
// cascade. Response.TierUsed names the tier that produced the response and
// Response.CascadePath the tiers that were tried, in order. Asking for a
// tier that is not built yet fails with errs.KindUnavailable.
//
// # Security
//
// Every connection is checked at dial time, after DNS resolution, by an SSRF
// guard built on code.dny.dev/ssrf: loopback, private (RFC 1918), link-local,
// shared (CGNAT), cloud-metadata, unique-local, IPv4-mapped and other
// special-purpose addresses are refused, as are ports outside
// Options.AllowedPorts (80 and 443 by default). Because the check runs on the
// address actually dialled, it covers every redirect hop and names that
// resolve to internal addresses, and cannot be bypassed by DNS rebinding.
// A refusal is an *errs.Error of kind errs.KindForbidden whose message names
// the rule, e.g. "refused: 127.0.0.1 is a loopback address (SSRF guard)";
// no connection is attempted. Options.AllowPrivateNetworks lifts the address
// and port rules for tests and intranets. Environment proxy settings are
// ignored, so no proxy can sidestep the guard.
//
// Client returns the guarded *http.Client so other packages (webhook
// delivery) share the same guard, timeouts and trusted roots.
//
// # Limits
//
// Bodies are read through caps: more than Options.MaxBodyBytes on the wire,
// or more than Options.MaxDecodedBytes after gzip/deflate decoding (the
// transport's transparent decompression is off; this package decodes), ends
// the fetch with errs.KindUpstream, so a large download or a compression bomb
// is never buffered whole. Connect, response-header and whole-request
// timeouts also end with errs.KindUpstream and a message naming the timeout.
// Cancelling the caller's context passes the context error through.
//
// # Text
//
// For textual media types the charset is taken from the Content-Type header,
// then a byte-order mark or <meta charset>, and the body converted to UTF-8;
// Response.Charset keeps the original charset's name. Markdown converts an
// HTML page to Markdown with links and images made absolute.
package fetch
