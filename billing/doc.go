// Package billing holds what a call costs and how much an account may call:
// plans, prices and quotes, and per-minute rate limits.
//
// A Config lists the plans (DefaultConfig has free, pro and internal) and
// the limits that belong to no plan; LoadConfig merges an operator's JSON
// file over the defaults and validates it, naming the offending field.
//
// A Price is an operation's sticker cost, declared once in the operation
// catalog; Config.Quote turns it into what one call costs an account on a
// given plan, itemised, with the residential-proxy surcharge and the
// internal plans' bypass applied.
//
// RateLimiter is the rate-limiting seam: a per-minute token bucket per key,
// whose Decision carries what the 429 response and the rate-limit headers
// need. LocalLimiter is its in-process implementation, built on
// golang.org/x/time/rate with an injected clock; a shared implementation
// lets many server processes enforce one limit.
//
// Billing never maps errors to HTTP: it returns errs kinds (invalid,
// not_found, rate_limited) and leaves the mapping to the server.
package billing
