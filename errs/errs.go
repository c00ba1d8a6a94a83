package errs

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an error for callers.
type Kind string

// The kinds of error a caller can see.
const (
	KindInvalid         Kind = "invalid"          // the caller's input is wrong
	KindMalformed       Kind = "malformed"        // the request could not be parsed at all
	KindTooLarge        Kind = "too_large"        // the request body is over the configured limit
	KindNotFound        Kind = "not_found"        // no such resource for this caller
	KindConflict        Kind = "conflict"         // the resource is in a state that forbids the call
	KindUnauthenticated Kind = "unauthenticated"  // missing, invalid or revoked credentials
	KindForbidden       Kind = "forbidden"        // authenticated but not allowed
	KindPaymentRequired Kind = "payment_required" // not enough credits
	KindRateLimited     Kind = "rate_limited"     // the per-minute token bucket is empty
	KindQuotaExceeded   Kind = "quota_exceeded"   // a monthly quota or daily cap is spent
	KindBlocked         Kind = "blocked"          // the target refused us (bot wall, challenge)
	KindUnavailable     Kind = "unavailable"      // a dependency or tier is not available here
	KindNotImplemented  Kind = "not_implemented"  // the capability is not built yet
	KindUpstream        Kind = "upstream"         // the remote site or service failed
	KindTimeout         Kind = "timeout"          // the remote site or service did not answer in time
	KindInternal        Kind = "internal"         // our bug or our infrastructure failed
)

// Error is an error with a kind, an optional field name (for invalid input)
// and an optional wrapped cause.
type Error struct {
	Kind    Kind
	Field   string // e.g. "body.url" or "path.key_id"; empty when not about one field
	Message string
	Err     error
	// RetryAfter, when set, is how long the caller should wait before
	// trying again (a limit that refills, a busy resource); the server
	// sends it as Retry-After.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	msg := e.Message
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	if e.Err != nil {
		if msg == "" {
			return e.Err.Error()
		}
		return msg + ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an error of the given kind.
func New(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an error of the given kind wrapping err with a message.
func Wrap(kind Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Err: err}
}

// Invalid reports invalid input in the named field.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Field: field, Message: fmt.Sprintf(format, args...)}
}

// RetryLater returns an error of the given kind that tells the caller to
// try again after wait.
func RetryLater(kind Kind, wait time.Duration, format string, args ...any) *Error {
	e := New(kind, format, args...)
	e.RetryAfter = wait
	return e
}

// NotFound reports that the named thing does not exist for this caller.
func NotFound(format string, args ...any) *Error { return New(KindNotFound, format, args...) }

// KindOf returns the kind of the first *Error in err's chain, or
// KindInternal when there is none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// FieldOf returns the field named by the first *Error in err's chain.
func FieldOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// Is reports whether err has the given kind.
func Is(err error, kind Kind) bool { return err != nil && KindOf(err) == kind }
