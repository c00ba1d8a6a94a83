// Package dashboard is the web console of a webinfra server: sign-up and
// log-in, the account overview with a usage chart, keys, the usage log,
// jobs, webhooks (secret, test, deliveries, dead letters, replay),
// forwarders, organizations, export and deletion.
//
// It is served under /dashboard by the same process as the API (Mount) and
// is rendered on the server with html/template; its styles and its one
// small script are embedded in the binary, so it works offline and under a
// strict Content-Security-Policy.
//
// The dashboard holds no business logic. Every page is answered by calling
// the API in-process, through the server's own pipeline, with the
// signed-in user's dashboard key (server.Console marks those calls so they
// stay out of the usage log): the same authentication, scope checks,
// validation, password hashing gate, login throttle, store queries and
// account scoping as a client of /v1 gets. Another account's key, job or
// delivery is 404 here because it is 404 there.
//
// Security: a login mints a dashboard key (POST /v1/auth/login), carried
// in an HttpOnly, SameSite=Strict cookie with Path=/dashboard, Secure when
// the request came over TLS; logging out revokes it. Every POST must pass
// net/http's CrossOriginProtection (Sec-Fetch-Site, then Origin against
// Host) and carry the per-session CSRF token, an HMAC-SHA256 keyed with the
// session's secret key, in a hidden field; anything else is 403.
package dashboard
