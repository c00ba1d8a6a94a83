// Package errs is Webinfra's one error model.
//
// Every error that should reach a caller carries a Kind (invalid, not_found,
// conflict, unauthenticated, forbidden, rate_limited, quota_exceeded,
// payment_required, blocked, unavailable, not_implemented, upstream,
// internal). Capability packages create and wrap these errors; only the
// server package maps kinds to HTTP statuses and bodies, so a Go caller of a
// capability package and an HTTP caller see the same classification.
//
//	if u.Scheme != "https" {
//		return errs.Invalid("body.url", "must use https")
//	}
//
// KindOf finds the kind of any wrapped error; an error without one is
// KindInternal.
package errs
