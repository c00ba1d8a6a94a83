// Package redirects maps the redirect chain of a URL: every hop (URL,
// status, Location, scheme and host change, whether the move only
// canonicalises the URL), the final answer and its meta refresh, and the
// problems SEO cares about. It backs POST /v1/seo/redirect-chain-map.
//
// Map fetches the URL with the fetcher's direct tier (fetch.TierDirect:
// no browser, the SSRF guard on every hop, the fetcher's timeouts, body
// caps and redirect limit) and reads the chain from
// fetch.Response.Redirects; each hop's Location is the URL the fetcher
// went to next, absolute. When that fetch fails (a loop or a chain past
// the fetcher's redirect limit, a hop that does not answer or that the
// SSRF guard refuses, a bot wall, a body over the cap), the chain is
// traced again hop by hop through the fetcher's guarded client
// (fetch.Fetcher.Client, copied only to stop at each redirect), at most
// MaxTraceHops (20) hops, no body read, so the report still shows where
// the chain went and how it ended (Report.Outcome).
//
// Findings (auditkit.Finding: code, severity, message, URL):
//
//   - redirect_chain (warning) for 2-3 redirects, long_redirect_chain
//     (error) for more than 3;
//   - https_downgrade (error): a hop from https to http;
//   - temporary_redirect (warning): 302, 303 or 307 for a move that only
//     canonicalises the URL, where 301 or 308 fits. The rule: the hop
//     changes nothing but http→https, one leading "www." (added or
//     removed), a trailing slash (added or removed) and the path's case
//     (to lower), with host case and default ports ignored and the query
//     unchanged. Other temporary redirects (to another path or site) may
//     well be temporary and are not flagged;
//   - redirect_loop, too_many_redirects, redirect_failed,
//     redirect_refused (errors): the chain did not end in an answer;
//   - meta_refresh (warning): the final page redirects again with
//     <meta http-equiv="refresh" content="N; url=..."> or a Refresh
//     header (parsed as HTML's declarative refresh steps, see
//     ParseRefresh); refresh_reload (notice) when it only reloads itself;
//   - final_client_error, final_server_error (errors): the chain ends in a
//     4xx or 5xx; unfollowed_redirect (warning): it ends in a 3xx without
//     a usable Location.
package redirects
