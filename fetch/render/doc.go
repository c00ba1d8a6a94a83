// Package render is Webinfra's render tier: it loads pages in a real
// browser, driven over the Chrome DevTools Protocol with chromedp, and
// implements fetch.Renderer.
//
//	pool, err := render.New(nil) // local Chromium, defaults
//	if err != nil { ... }        // errs.KindUnavailable: no chromium found
//	defer pool.Close()
//	res, err := pool.Render(ctx, fetch.RenderRequest{URL: u, CheckTarget: f.CheckTarget})
//
// # Browsers
//
// With Options.BrowserURL empty the pool starts local Chromium (Debian's
// chromium or chromium-headless-shell, or Chrome), headless, without the
// sandbox (it runs as root in containers), with background networking,
// component updates, sync and QUIC off, without the spare renderer and the
// omnibox popup's web UI (each would cost a process per browser context,
// so per render), and a fresh --user-data-dir under a temporary directory
// of the pool, made when its first browser starts. With BrowserURL set it connects to a
// remote CDP endpoint instead (ws://host:port/devtools/browser/... or
// http://host:port/), and never stops that browser.
//
// # Pool
//
// At most Options.Contexts pages render at once. Each render opens a new tab
// in a new browser context (its own cookies, cache and storage) and closes
// both when it is done, whatever happened, by disposing of the context. A browser is retired after
// Options.PagesPerBrowser pages: it takes no new page, finishes those in
// flight, is closed, has every process that used its user-data-dir killed,
// and has that directory removed; only then does the next browser start, so
// at most one browser of a pool is alive at a time and a long run leaves no
// process behind and its memory flat. A browser whose connection drops is
// retired the same way. Close stops everything the pool started.
//
// # Waiting and the result
//
// A render waits for RenderRequest.WaitFor to be in the DOM (an error of
// kind errs.KindUpstream when it is not in time), or else for the network
// to be idle: the main document loaded and no request in flight for
// Options.IdleTime; a page with nothing in flight when its load event
// fired, and no request since, is only left Options.SettleTime after it. A
// page that never goes quiet is taken as it is when the wait runs out. The
// result is the serialized DOM (the doctype, then
// document.documentElement.outerHTML), the status, headers and final URL of
// the main document (from its network events, so a 404 page reports 404),
// and a full-page PNG when RenderRequest.Screenshot is set. A page that
// navigates itself while it is being read (a late meta refresh or script)
// is waited for again and read once more, within the same timeout; when
// the guard refused that navigation, the render fails with the refusal.
// RenderRequest.Headers are sent with the main document's request and its
// same-host redirects, not with subresources or other hosts.
//
// # Security
//
// The browser dials on its own, so the fetch package's dial-time guard
// cannot see its connections. RenderRequest.CheckTarget stands in for it:
//
//   - the URL is checked before anything is loaded;
//   - every request the browser makes (the page's, its frames', its
//     workers' and service workers', redirects included) is paused with the
//     CDP Fetch domain, enabled on the browser session, and continues only
//     when CheckTarget allows it; a refused subresource fails
//     (net::ERR_BLOCKED_BY_CLIENT) while the page renders, and a refused
//     main document, a redirect to a refused URL included, fails the render
//     with CheckTarget's error;
//   - for a local browser, each render's browser context also sends all its
//     traffic through a guard proxy on loopback, which checks the addresses
//     it actually dials after its own DNS lookup. This covers what the
//     Fetch domain never sees, WebSocket handshakes, and names that resolve
//     to another address the second time (DNS rebinding). WebRTC may only
//     use the proxy.
//
// A remote browser cannot reach the guard proxy: there the Fetch domain is
// the only guard, so WebSocket handshakes are not checked and a CheckTarget
// of a name is subject to DNS rebinding; run such a browser where its
// network cannot reach internal addresses. Give the pool a remote endpoint
// of its own: the interception is browser-wide.
//
// # Errors
//
// An invalid URL is errs.KindInvalid; a refusal is CheckTarget's error
// (errs.KindForbidden for the fetch guard); a page that fails to load or a
// timeout is errs.KindUpstream with a message naming the cause and the
// phase; no browser, or a closed pool, is errs.KindUnavailable; the
// caller's context ending returns the context's error.
//
// # Sessions
//
// Pool.Session runs a caller's script (the editor runs of
// automation/editor) on a tab opened exactly as a render's is: its own
// browser context, every request through the guard, a slot of the pool,
// everything closed on every path. Session.Navigate loads a URL after the
// guard's check.
package render
