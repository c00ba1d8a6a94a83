// Package secheaders grades the security headers of an HTTP answer, each
// check with the reason for its result. It backs /v1/intel/headers.
//
// Grade is pure: it reads a Page (URL, status, headers) and never fails.
// Inspect requests a URL through a given (guarded) HTTP client, follows
// redirects, and grades the final answer's headers.
//
// # Checks
//
// Every report holds the same checks in the same order, each with a
// result (pass, warn, fail, info), the points it adds to the score and a
// reason. The rules follow the OWASP Secure Headers Project
// (https://owasp.org/www-project-secure-headers/) and MDN's HTTP header
// reference (https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers);
// the points follow the model of Mozilla's HTTP Observatory
// (https://developer.mozilla.org/en-US/observatory/docs/tests_and_scoring).
//
//	check                   rule                                                            result  points
//	hsts                    over HTTP: not judged (browsers ignore it)                     info      0
//	                        missing, invalid (no max-age, a directive twice) or max-age=0  fail    -20
//	                        max-age under six months (15768000 s)                          fail    -10
//	                        max-age under one year (31536000 s)                            warn     -5
//	                        a year or more without includeSubDomains                       warn      0
//	                        a year or more with includeSubDomains                          pass      0
//	                        ... and preload                                                pass     +5
//	csp                     missing                                                        fail    -25
//	                        only Content-Security-Policy-Report-Only                       warn    -20
//	                        no default-src nor script-src                                  fail    -20
//	                        'unsafe-inline' for scripts without a nonce, hash or
//	                        'strict-dynamic'                                               fail    -20
//	                        scripts from any host (*, https:, data:, ...)                  fail    -20
//	                        'unsafe-eval'                                                  warn    -10
//	                        scripts restricted, none of the above                          pass     +5
//	                        ... with default-src 'none'                                    pass    +10
//	x_content_type_options  nosniff                                                        pass      0
//	                        missing or another value                                       fail     -5
//	clickjacking            CSP frame-ancestors without a wildcard                         pass     +5
//	                        X-Frame-Options DENY or SAMEORIGIN                             pass      0
//	                        neither, ALLOW-FROM, an invalid value, frame-ancestors *       fail    -20
//	referrer_policy         no-referrer, same-origin, strict-origin(-when-cross-origin)    pass     +5
//	                        origin, origin-when-cross-origin                               pass      0
//	                        missing (browsers default to strict-origin-when-cross-origin)  info      0
//	                        unsafe-url, no-referrer-when-downgrade                         warn     -5
//	                        no recognised value                                            fail     -5
//	permissions_policy      present / missing or only Feature-Policy                       pass/warn 0
//	coop                    same-origin(-allow-popups) / missing, unsafe-none, unknown     pass/warn 0
//	corp                    same-origin, same-site / cross-origin / missing, unknown       pass/info/warn 0
//	coep                    require-corp, credentialless / anything else                   pass/info 0
//	x_xss_protection        absent or 0 / 1 (a deprecated auditor) or unknown              pass/warn 0
//	server                  absent or no version / a version (a digit)                     pass/warn 0/-5
//	x_powered_by,
//	x_aspnet_version,
//	x_aspnetmvc_version     absent / present (discloses the platform)                      pass/warn 0/-5
//	cookies                 none set                                                       info      0
//	                        any cookie without Secure (over HTTPS), or SameSite=None
//	                        without Secure                                                 fail    -20
//	                        a session-like cookie without HttpOnly, a malformed cookie     fail    -10
//	                        a cookie without a valid SameSite                              warn      0
//	                        page over HTTP (cookies travel in clear)                       warn      0
//	                        every cookie Secure and SameSite, sessions HttpOnly            pass     +5
//	cors                    Access-Control-Allow-Origin absent                             pass      0
//	                        * with Access-Control-Allow-Credentials: true, or null         fail    -10
//	                        * alone, or a named origin                                     info      0
//
// Where a header may carry several policies (CSP), every one is enforced
// by browsers, so the strictest decides. The cookies check sums up every
// cookie (at most 50): the worst problem of any cookie decides;
// Report.Cookies lists each cookie's flags and problems. A cookie is
// session-like when its name contains sess, sid, auth, token, jwt, login,
// logged or remember, and not csrf, xsrf or verificationtoken (anti-CSRF
// tokens, which scripts must read).
//
// # Score and grade
//
// The score starts at 100. Every negative points value is added; then,
// only if the result is 90 or more, every positive one (bonuses polish a
// sound set of headers, they do not make up for a missing one). The grade
// is read from that sum on the Observatory's chart: A+ ≥ 100, A ≥ 90,
// A- ≥ 85, B+ ≥ 80, B ≥ 70, B- ≥ 65, C+ ≥ 60, C ≥ 50, C- ≥ 45, D+ ≥ 40,
// D ≥ 30, D- ≥ 25, F below. Report.Score is the sum held within 0-100.
//
// Header values copied into a report are cut at 2,048 bytes; cookie
// values are never reported.
package secheaders
