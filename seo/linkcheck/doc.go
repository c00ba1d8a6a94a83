// Package linkcheck finds the broken links of a page, and probes links
// for other audits. It backs POST /v1/seo/broken-links-audit, and its
// Probe is the link-rot check of aeo/llmstxt.
//
// Audit fetches the page (fetch.Fetcher.Fetch, through the cascade),
// collects its links (Collect: <a href> and <area href>, and with
// include_resources <img src>, <script src> and <link href>; absolute
// against the final URL and <base href>; fragments dropped; mailto:, tel:,
// javascript:, other schemes and same-page fragments skipped and counted;
// duplicates merged with their occurrences counted), and probes the first
// max_links of them (default 100, at most 500) with Probe. Each link gets
// its status, final URL, method and a result:
//
//	ok             an answer below 400 (after redirects)
//	client_error   4xx other than 429        broken
//	server_error   5xx                       broken
//	network_error  no answer                 broken
//	invalid_url    not an absolute http(s)   broken
//	rate_limited   429                       not counted as broken
//	blocked        refused by the SSRF guard: never fetched, not broken
//	unchecked      the time budget ran out first
//
// and whether it is internal (same host and port as the page, a leading
// www. ignored) or external.
//
// # Probing
//
// Probe sends HEAD and falls back to GET when HEAD answers 403, 405 or
// 501 or gets no answer. fetch.Fetcher.Fetch only GETs and reads whole
// bodies (up to the fetcher's 10 MiB cap), so probes use the fetcher's
// own SSRF-guarded client (fetch.Fetcher.Client): its guard (checked at
// dial time on every redirect hop), connect and header timeouts, redirect
// limit and trusted roots apply; a GET reads at most GetBodyBytes (4 KiB)
// of the body. No other HTTP client is built.
//
// Bounds and politeness, all in ProbeOptions:
//
//   - Workers (default 8, at most 32) probes run at once, on an
//     errgroup with SetLimit;
//   - PerHost (default 2, at most 8) of them to one host:port at once;
//   - HostDelay (default 100 ms) between the starts of two requests to one
//     host (a token bucket of burst 1, golang.org/x/time/rate); the GET
//     fallback takes its own slot and token; redirect hops to other hosts
//     are not throttled;
//   - Timeout (default 10 s, at most 60 s) per request;
//   - Budget (default 2 min) for the whole call: links not answered when
//     it is spent are unchecked rather than waited for;
//   - at most MaxProbeURLs (1,000) URLs per call.
//
// Cancelling the context stops every probe at once.
package linkcheck
