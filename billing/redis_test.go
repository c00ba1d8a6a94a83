package billing_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/internal/redistest"
)

// Two limiters (two processes) on one Redis share the bucket: of 50
// simultaneous calls split across both against 20 a minute, exactly 20 go
// through, and the refusals say when to retry.
func TestRedisLimiterIsShared(t *testing.T) {
	t.Parallel()
	c1, prefix := redistest.Client(t)
	opts, _ := redis.ParseURL(redistest.URL(t))
	c2 := redis.NewClient(opts)
	defer c2.Close()
	limiters := []*billing.RedisLimiter{billing.NewRedisLimiter(c1, prefix, nil), billing.NewRedisLimiter(c2, prefix, nil)}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var denied []billing.Decision
	for i := range 50 {
		wg.Go(func() {
			d, err := limiters[i%2].Allow(context.Background(), "acct:1", 20)
			if err != nil {
				t.Error(err)
				return
			}
			if d.Allowed {
				allowed.Add(1)
				return
			}
			mu.Lock()
			denied = append(denied, d)
			mu.Unlock()
		})
	}
	wg.Wait()
	if allowed.Load() != 20 || len(denied) != 30 {
		t.Fatalf("allowed %d, denied %d; want 20 and 30", allowed.Load(), len(denied))
	}
	for _, d := range denied {
		if d.Limit != 20 || d.Remaining != 0 || d.RetryAfter < time.Second || d.RetryAfter > 4*time.Second || !d.Reset.After(time.Now()) {
			t.Fatalf("denied decision %+v", d)
		}
	}
	if d, _ := limiters[0].Peek(context.Background(), "acct:1", 20); d.Allowed || d.Remaining != 0 {
		t.Fatalf("peek at an empty bucket: %+v", d)
	}
	if d, _ := limiters[1].Peek(context.Background(), "acct:2", 20); !d.Allowed || d.Remaining != 20 {
		t.Fatalf("peek at a fresh bucket: %+v", d)
	}
	for _, l := range limiters {
		if err := l.Health(); err != nil {
			t.Fatalf("health with Redis up: %v", err)
		}
	}
}

func TestRedisLimiterHourlyBucket(t *testing.T) {
	t.Parallel()
	c, prefix := redistest.Client(t)
	l := billing.NewRedisLimiter(c, prefix, nil)
	hourly := billing.Rate{Count: 3, Per: time.Hour}
	for i := range 3 {
		if d, err := l.AllowRate(context.Background(), "hook:1", hourly); err != nil || !d.Allowed {
			t.Fatalf("call %d: %+v %v", i, d, err)
		}
	}
	d, _ := l.AllowRate(context.Background(), "hook:1", hourly)
	if d.Allowed || d.RetryAfter < 19*time.Minute || d.RetryAfter > 21*time.Minute {
		t.Fatalf("fourth call: %+v", d)
	}
}

// With Redis unreachable the limiter fails open to per-process buckets,
// and Health says so.
func TestRedisLimiterFallsBackWhenUnreachable(t *testing.T) {
	t.Parallel()
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	l := billing.NewRedisLimiter(c, "x:", nil)
	allowed := 0
	for range 5 {
		d, err := l.Allow(context.Background(), "acct:1", 3)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			allowed++
		}
	}
	if allowed != 3 {
		t.Fatalf("the fallback let %d of 5 through, want 3", allowed)
	}
	if err := l.Health(); err == nil {
		t.Fatal("Health reports nothing while Redis is down")
	}
}
