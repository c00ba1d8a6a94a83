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
	// AllowRate is Allow for a bucket of another period: it holds at most
	// r.Count tokens and refills r.Count per r.Per (webhook tests: 30 an
	// hour). Allow(ctx, key, n) is AllowRate(ctx, key, PerMinute(n)).
	AllowRate(ctx context.Context, key string, r Rate) (Decision, error)
}

// Rate is a bucket's size and refill: Count calls per Per.
type Rate struct {
	Count int
	Per   time.Duration
}

// PerMinute is the rate of n calls a minute.
func PerMinute(n int) Rate { return Rate{Count: n, Per: time.Minute} }

// perSecond is the refill rate in tokens per second.
func (r Rate) perSecond() float64 { return float64(r.Count) / r.Per.Seconds() }

// Decision is the state of a bucket after Allow or at Peek; it carries
// what the rate-limit response headers need.
type Decision struct {
	// Allowed reports whether the call was (Allow) or would be (Peek) let through.
	Allowed bool
	// Limit is the bucket's size: the requests allowed per minute (per
	// Rate.Per for AllowRate).
	Limit int
	// Remaining is the number of whole tokens left.
	Remaining int
	// Reset is when the bucket is full again; now when it is full.
	Reset time.Time
	// RetryAfter is 0 when allowed; otherwise the time until one token is
	// available, rounded up to whole seconds and at least one second.
	RetryAfter time.Duration
	// Per is the bucket's period: a minute, or the Rate.Per of AllowRate.
	Per time.Duration
}

// Err returns nil when d is allowed, and otherwise an errs.KindRateLimited
// error that says when to retry.
func (d Decision) Err() error {
	if d.Allowed {
		return nil
	}
	return errs.New(errs.KindRateLimited, "rate limit of %d requests per %s exceeded; retry after %s", d.Limit, d.per(), d.RetryAfter)
}

func (d Decision) per() string {
	switch d.Per {
	case 0, time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	return d.Per.String()
}

// checkRate rejects a bucket that cannot hold a single token or never
// refills.
func checkRate(r Rate) error {
	if r.Count <= 0 {
		return errs.Invalid("requests_per_minute", "must be > 0, not %d", r.Count)
	}
	if r.Per <= 0 {
		return errs.Invalid("rate period", "must be > 0, not %s", r.Per)
	}
	return nil
}

// decide builds a Decision for a bucket of rate r that holds tokens at
// now. Implementations of RateLimiter share it so they report alike.
func decide(allowed bool, r Rate, tokens float64, now time.Time) Decision {
	perSecond := r.perSecond()
	tokens = min(max(tokens, 0), float64(r.Count))
	d := Decision{
		Allowed:   allowed,
		Limit:     r.Count,
		Remaining: int(math.Floor(tokens)),
		Reset:     now.Add(secondsToDuration((float64(r.Count) - tokens) / perSecond)),
		Per:       r.Per,
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
