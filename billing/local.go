package billing

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// sweepEvery is the fewest calls between two sweeps for idle buckets; a
// sweep also waits for as many calls as there are buckets, so its cost is
// constant per call however many keys there are.
const sweepEvery = 1024

// LocalLimiter is the in-process RateLimiter: a token bucket per key
// (golang.org/x/time/rate) in one process's memory. It reads time only
// from the clock it is given, is safe for concurrent use, and drops
// buckets that have been idle long enough to be full again (a full bucket
// is the same as a new one), so memory follows the keys active in the
// last minute. Processes that share a limit need a shared RateLimiter.
type LocalLimiter struct {
	now func() time.Time

	mu         sync.Mutex
	buckets    map[string]*bucket
	sinceSweep int // calls since the last sweep
}

// bucket is one key's token bucket and the rate it was built for.
type bucket struct {
	limiter *rate.Limiter
	rate    Rate
}

// NewLocalLimiter returns an empty LocalLimiter reading time from now;
// nil means time.Now.
func NewLocalLimiter(now func() time.Time) *LocalLimiter {
	if now == nil {
		now = time.Now
	}
	return &LocalLimiter{now: now, buckets: make(map[string]*bucket)}
}

var _ RateLimiter = (*LocalLimiter)(nil)

// Allow implements RateLimiter.
func (l *LocalLimiter) Allow(ctx context.Context, key string, perMinute int) (Decision, error) {
	return l.AllowRate(ctx, key, PerMinute(perMinute))
}

// AllowRate implements RateLimiter.
func (l *LocalLimiter) AllowRate(ctx context.Context, key string, r Rate) (Decision, error) {
	return l.locked(ctx, r, func(now time.Time) Decision {
		b := l.bucketAt(now, key, r)
		allowed := b.limiter.AllowN(now, 1)
		d := decide(allowed, r, b.limiter.TokensAt(now), now)
		l.maybeSweep(now)
		return d
	})
}

// Peek implements RateLimiter. It never creates a bucket: an unknown key
// reports a full one. A changed perMinute is adopted, as in Allow.
func (l *LocalLimiter) Peek(ctx context.Context, key string, perMinute int) (Decision, error) {
	r := PerMinute(perMinute)
	return l.locked(ctx, r, func(now time.Time) Decision {
		tokens := float64(perMinute)
		if _, ok := l.buckets[key]; ok {
			tokens = l.bucketAt(now, key, r).limiter.TokensAt(now)
		}
		return decide(tokens >= 1, r, tokens, now)
	})
}

// locked checks the arguments, then runs f under l.mu with the clock read.
func (l *LocalLimiter) locked(ctx context.Context, r Rate, f func(now time.Time) Decision) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	if err := checkRate(r); err != nil {
		return Decision{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return f(l.now()), nil
}

// Len returns the number of buckets held, for metrics and tests.
func (l *LocalLimiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// bucketAt returns key's bucket, creating a full one when there is none and
// moving it to r when its rate has changed. l.mu must be held.
func (l *LocalLimiter) bucketAt(now time.Time, key string, r Rate) *bucket {
	perSecond := rate.Limit(r.perSecond())
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{limiter: rate.NewLimiter(perSecond, r.Count), rate: r}
		l.buckets[key] = b
		return b
	}
	if b.rate != r {
		// Tokens already in the bucket stay (capped at the new size);
		// the new rate applies from now on.
		b.limiter.SetLimitAt(now, perSecond)
		b.limiter.SetBurstAt(now, r.Count)
		b.rate = r
	}
	return b
}

// maybeSweep drops full buckets once enough calls have passed since the
// last sweep. l.mu must be held.
func (l *LocalLimiter) maybeSweep(now time.Time) {
	l.sinceSweep++
	if l.sinceSweep < max(sweepEvery, len(l.buckets)) {
		return
	}
	l.sinceSweep = 0
	for key, b := range l.buckets {
		if b.limiter.TokensAt(now) >= float64(b.rate.Count) {
			delete(l.buckets, key)
		}
	}
}
