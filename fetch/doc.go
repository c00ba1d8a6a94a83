// Package fetch is Webinfra's fetch engine: it gets one URL through a
// cascade of tiers and returns its body as UTF-8 with the metadata callers
// need (final URL, redirect chain, status, headers, detected charset, the
// tier that served it), and turns pages into scrape formats.
//
// A Fetcher is built once with New and is safe for concurrent use:
//
//	f, err := fetch.New(nil) // nil options: defaults, direct tier only
//	if err != nil { ... }
//	res, err := f.Fetch(ctx, fetch.Request{URL: "https://example.com/"})
//
// # Tiers and the cascade
//
// There are three tiers, tried in this order:
//
//   - direct (TierDirect): the SSRF-guarded HTTP client of this host;
//     always available.
//   - render (TierRender): a headless browser behind the Renderer seam
//     (Options.Renderer; fetch/render drives Chromium). Without one the
//     tier is unavailable.
//   - residential (TierResidential): plain HTTP through a proxy chosen per
//     request by the Proxy seam: Options.Proxies (a ProxyList used
//     round-robin; Request.Proxy picks "#N" or a sticky key) or a provider
//     in Options.Proxy. Without one the tier is unavailable. It costs a
//     surcharge, so a cascade reaches it only when Request.UseResidential
//     asks (ScrapeRequest.UseResidentialProxy).
//
// Fetch is the cascade; there is no separate method. It starts at the
// cheapest allowed tier and escalates when the answer is a bot wall
// (blocked.go: a 403, 429 or 503 carrying a challenge's markers, such as
// Cloudflare's "Just a moment...", cf-chl tokens, DataDome, PerimeterX
// px-captcha, Akamai's "Access Denied" reference page, Incapsula,
// hCaptcha/reCAPTCHA forms, "Please verify you are a human", or a
// "cf-mitigated: challenge" header at any status), and, while the render
// tier is still ahead, when the page is a JavaScript shell (under 100
// characters of visible text with scripts or an empty #root/#__next/#app
// mount point) or lacks Request.WaitFor's selector. A bare 403 without
// markers is an answer, not a wall. An error on the first tier is final;
// a later tier that fails is passed over. Response.TierUsed names the tier
// that answered and Response.CascadePath the tiers tried, in order (the
// server sends them as x-tier-used and x-cascade-path).
//
// A page still walled after the last allowed tier is an errs.KindBlocked
// error naming the tiers and the walls met; the wall's content is never
// returned. A page that needed a browser but got none (no renderer, or
// capped) is returned as it is. Request.Tier pins one tier (unavailable:
// errs.KindUnavailable); Request.MaxTier caps the cascade; a screenshot
// (Request.Screenshot) comes only from the render tier, so it makes the
// cascade that tier alone. Request.Timeout bounds the whole cascade.
//
// # Security
//
// Every connection of the direct tier is checked at dial time, after DNS
// resolution, by an SSRF guard built on code.dny.dev/ssrf: loopback,
// private (RFC 1918), link-local, shared (CGNAT), cloud-metadata,
// unique-local, IPv4-mapped and other special-purpose addresses are
// refused, as are ports outside Options.AllowedPorts (80 and 443 by
// default). Because the check runs on the address actually dialled, it
// covers every redirect hop and names that resolve to internal addresses,
// and cannot be bypassed by DNS rebinding. A refusal is an *errs.Error of
// kind errs.KindForbidden whose message names the rule, e.g. "refused:
// 127.0.0.1 is a loopback address (SSRF guard)"; no connection is
// attempted. Options.AllowPrivateNetworks lifts the address and port rules
// for tests and intranets. Environment proxy settings are ignored.
//
// The render and residential tiers hand the target to someone else (the
// browser, the proxy), so the target is checked with CheckTarget before the
// hand-off: on the residential tier for the URL and every redirect hop,
// and the Renderer is given CheckTarget to apply to every request the page
// makes. The residential transport lets through dials to the proxies the
// pool hands out (operator configuration, possibly on a private network)
// and guards any other dial. The proxy resolves the target itself, so a
// name that changes its answer between the check and the proxy's lookup is
// not caught there; the proxy is, by design, outside this network.
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
// is never buffered whole; a rendered page is held to MaxDecodedBytes too.
// Connect, response-header and whole-request timeouts also end with
// errs.KindUpstream and a message naming the timeout. Cancelling the
// caller's context passes the context error through. Caller headers are
// validated: Host, hop-by-hop (Connection, Transfer-Encoding, Upgrade, ...)
// and proxy headers are refused, at most 50 of at most 8 KiB each.
//
// Work on a fetched page (its formats, LlmReady's chunks) can take many
// times the page's size in memory; a caller that bounds it across calls
// puts a PageAdmission in the context (WithPageAdmission), which Scrape
// and LlmReady ask with the page's size before the work, and which may
// wait for room or refuse.
//
// # Text
//
// For textual media types the charset is taken from the Content-Type header,
// then a byte-order mark or <meta charset>, and the body converted to UTF-8;
// Response.Charset keeps the original charset's name. Markdown converts an
// HTML page to Markdown with links and images made absolute.
//
// # Scraping
//
// Scrape (the body of POST /v1/scrape) fetches through the cascade and
// returns the formats asked for: html (the page without scripts, styles,
// comments and event handlers), raw_html (the page as served, in UTF-8),
// markdown (html-to-markdown v2), text (the visible text), links (http(s),
// absolute, without fragments, deduplicated), metadata (title, description,
// language, canonical, OpenGraph) and screenshot (a base64 PNG from the
// render tier). Without formats the result carries html as served and
// markdown, as the first version did. With main_content_only, markdown and
// text carry the main content found by extract/content (accurate mode:
// go-trafilatura and readability, checked against each other), or the
// whole page when it finds none. Markdown comes from extract/markdown.
//
// respect_robots fetches the origin's robots.txt through the direct tier's
// guarded client (read by package fetch/robots, RFC 9309 as Google reads
// it; kept ten minutes per origin) and refuses a disallowed URL with
// errs.KindForbidden. max_age_ms accepts
// a copy from an in-memory LRU cache (bounded by Options.CacheEntries and
// CacheBytes) of results that answered 2xx, keyed by the URL, tier
// options, formats, main_content_only, wait_for and headers; a hit has
// cached set and cache_age_ms. Options.Now is the clock for ages and TTLs.
package fetch
