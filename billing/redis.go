package billing

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"

	"github.com/webinfra/webinfra/errs"
)

// RedisLimiter is the RateLimiter shared by every server process: the
// buckets live in Redis and are decided there by redis_rate's GCRA script
// (on Redis's clock), so a limit of 20 a minute is 20 a minute across all
// processes, with the same Decision (and so the same headers) as the
// in-process LocalLimiter.
//
// When Redis cannot be reached, calls are not refused: the limiter falls
// back to a LocalLimiter in this process (each process then enforces the
// limit on its own share, so the total can reach the limit times the
// number of processes) and logs it, and Health reports the fallback until
// Redis answers again. Failing open keeps the API up through a Redis
// restart; credits, quotas and daily caps, which live in the database,
// are not affected.
type RedisLimiter struct {
	rate     *redis_rate.Limiter
	fallback *LocalLimiter
	log      *slog.Logger
	prefix   string

	lastErr atomic.Pointer[redisFailure]
}

type redisFailure struct {
	err error
	at  time.Time
}

// NewRedisLimiter returns a limiter on client. prefix namespaces the
// bucket keys (several deployments may share one Redis); log may be nil.
func NewRedisLimiter(client *redis.Client, prefix string, log *slog.Logger) *RedisLimiter {
	if log == nil {
		log = slog.Default()
	}
	return &RedisLimiter{rate: redis_rate.NewLimiter(client), fallback: NewLocalLimiter(nil), log: log, prefix: prefix}
}

var _ RateLimiter = (*RedisLimiter)(nil)

// Allow implements RateLimiter.
func (l *RedisLimiter) Allow(ctx context.Context, key string, perMinute int) (Decision, error) {
	return l.AllowRate(ctx, key, PerMinute(perMinute))
}

// AllowRate implements RateLimiter.
func (l *RedisLimiter) AllowRate(ctx context.Context, key string, r Rate) (Decision, error) {
	return l.ask(ctx, key, r, 1)
}

// Peek implements RateLimiter: it asks for no token.
func (l *RedisLimiter) Peek(ctx context.Context, key string, perMinute int) (Decision, error) {
	return l.ask(ctx, key, PerMinute(perMinute), 0)
}

func (l *RedisLimiter) ask(ctx context.Context, key string, r Rate, n int) (Decision, error) {
	if err := checkRate(r); err != nil {
		return Decision{}, err
	}
	res, err := l.rate.AllowN(ctx, l.prefix+key, redis_rate.Limit{Rate: r.Count, Burst: r.Count, Period: r.Per}, n)
	if err != nil {
		if ctx.Err() != nil {
			return Decision{}, ctx.Err()
		}
		if prev := l.lastErr.Swap(&redisFailure{err: err, at: time.Now()}); prev == nil {
			l.log.Error("rate limiter: Redis unreachable, limiting per process until it answers", "err", err)
		}
		if n == 0 {
			return l.fallback.Peek(ctx, key, r.Count)
		}
		return l.fallback.AllowRate(ctx, key, r)
	}
	if l.lastErr.Swap(nil) != nil {
		l.log.Info("rate limiter: Redis answers again")
	}
	now := time.Now()
	d := Decision{Allowed: res.Allowed >= n && res.Remaining >= 0, Limit: r.Count, Remaining: res.Remaining,
		Reset: now.Add(res.ResetAfter), Per: r.Per}
	if n == 0 {
		d.Allowed = res.Remaining >= 1
	}
	if !d.Allowed {
		wait := res.RetryAfter
		if wait < 0 { // a peek at a bucket with tokens left: no wait
			wait = 0
		}
		d.RetryAfter = max((wait + time.Second - 1).Truncate(time.Second), time.Second)
	}
	return d, nil
}

// Health reports whether Redis answered the last call: nil, or an
// unavailable error saying since when limits are per process.
func (l *RedisLimiter) Health() error {
	if f := l.lastErr.Load(); f != nil {
		return errs.Wrap(errs.KindUnavailable, f.err, "Redis unreachable since %s: rate limits are enforced per process", f.at.UTC().Format(time.RFC3339))
	}
	return nil
}
