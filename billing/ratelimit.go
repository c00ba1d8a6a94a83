package billing

import (
	"context"
	"math"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// RateLimiter is the rate-limiting seam: a per-minute token bucket per key.
// A bucket holds at most perMinute tokens and refills at perMinute tokens a
// minute; each allowed call takes one. Keys are opaque strings chosen by
// the caller (e.g. one per account, one per client IP for anonymous routes).
//
// The in-process implementation is LocalLimiter; a shared one (Redis) lets
// many server processes enforce one limit. Implementations are safe for
// concurrent use. When perMinute changes for a key (a plan change), the
// bucket adopts the new limit.
type RateLimiter interface {
	// Allow takes one token from key's bucket if it has one and reports
	// the bucket's state afterwards. A denied call takes nothing.
	Allow(ctx context.Context, key string, perMinute int) (Decision, error)
	// Peek reports the state of key's bucket, and whether a call now would
	// be allowed, without taking a token.
	Peek(ctx context.Context, key string, perMinute int) (Decision, error)
}

// Decision is the state of a bucket after Allow or at Peek; it carries
// what the rate-limit response headers need.
type Decision struct {
	// Allowed reports whether the call was (Allow) or would be (Peek) let through.
	Allowed bool
	// Limit is the bucket's size: the requests allowed per minute.
	Limit int
	// Remaining is the number of whole tokens left.
	Remaining int
	// Reset is when the bucket is full again; now when it is full.
	Reset time.Time
	// RetryAfter is 0 when allowed; otherwise the time until one token is
	// available, rounded up to whole seconds and at least one second.
	RetryAfter time.Duration
}

// Err returns nil when d is allowed, and otherwise an errs.KindRateLimited
// error that says when to retry.
func (d Decision) Err() error {
	if d.Allowed {
		return nil
	}
	return errs.New(errs.KindRateLimited, "rate limit of %d requests per minute exceeded; retry after %s", d.Limit, d.RetryAfter)
}

// checkPerMinute rejects a bucket size that cannot hold a single token.
func checkPerMinute(perMinute int) error {
	if perMinute <= 0 {
		return errs.Invalid("requests_per_minute", "must be > 0, not %d", perMinute)
	}
	return nil
}

// decide builds a Decision for a bucket of perMinute that holds tokens at
// now. Implementations of RateLimiter share it so they report alike.
func decide(allowed bool, perMinute int, tokens float64, now time.Time) Decision {
	perSecond := float64(perMinute) / 60
	tokens = min(max(tokens, 0), float64(perMinute))
	d := Decision{
		Allowed:   allowed,
		Limit:     perMinute,
		Remaining: int(math.Floor(tokens)),
		Reset:     now.Add(secondsToDuration((float64(perMinute) - tokens) / perSecond)),
	}
	if !allowed {
		wait := secondsToDuration((1 - tokens) / perSecond)
		d.RetryAfter = max((wait + time.Second - 1).Truncate(time.Second), time.Second)
	}
	return d
}

// secondsToDuration converts s seconds to a Duration rounded to the
// nearest nanosecond, which absorbs floating-point noise such as
// 0.9999999999 s; negative s gives 0.
func secondsToDuration(s float64) time.Duration {
	if s <= 0 {
		return 0
	}
	return time.Duration(math.Round(s * float64(time.Second)))
}
