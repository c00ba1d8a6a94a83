package billing_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/errs"
)

// call is one step of a rate-limit scenario: wait (in the bubble's fake
// time), then call Allow or Peek and compare the decision.
type call struct {
	wait      time.Duration
	peek      bool
	key       string // "k" when empty
	perMinute int
	times     int // how many identical calls; 1 when 0. Only the last is checked.
	want      want
}

// want is the expected decision; Reset is given relative to the call's time.
type want struct {
	allowed    bool
	remaining  int
	reset      time.Duration
	retryAfter time.Duration
}

func TestLocalLimiterScenarios(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		calls []call
	}{
		{
			name: "fresh bucket",
			calls: []call{
				{perMinute: 60, want: want{allowed: true, remaining: 59, reset: time.Second}},
			},
		},
		{
			name: "exhaust then refill one token a second",
			calls: []call{
				{perMinute: 60, times: 60, want: want{allowed: true, remaining: 0, reset: time.Minute}},
				{perMinute: 60, want: want{remaining: 0, reset: time.Minute, retryAfter: time.Second}},
				{wait: 500 * time.Millisecond, perMinute: 60, want: want{reset: 59500 * time.Millisecond, retryAfter: time.Second}},
				{wait: 500 * time.Millisecond, perMinute: 60, want: want{allowed: true, remaining: 0, reset: time.Minute}},
				{wait: 10 * time.Second, peek: true, perMinute: 60, want: want{allowed: true, remaining: 10, reset: 50 * time.Second}},
			},
		},
		{
			name: "full again after a minute",
			calls: []call{
				{perMinute: 60, times: 60, want: want{allowed: true, remaining: 0, reset: time.Minute}},
				{wait: time.Minute, peek: true, perMinute: 60, want: want{allowed: true, remaining: 60}},
				{wait: time.Hour, peek: true, perMinute: 60, want: want{allowed: true, remaining: 60}},
			},
		},
		{
			name: "retry after rounds up to whole seconds",
			calls: []call{
				{perMinute: 7, times: 8, want: want{remaining: 0, reset: time.Minute, retryAfter: 9 * time.Second}}, // 8.57s per token
				{wait: 8 * time.Second, perMinute: 7, want: want{reset: 52 * time.Second, retryAfter: time.Second}}, // 0.57s left
			},
		},
		{
			name: "retry after is at least one second",
			calls: []call{
				{perMinute: 6000, times: 6001, want: want{remaining: 0, reset: time.Minute, retryAfter: time.Second}}, // 10ms per token
			},
		},
		{
			name: "slow bucket",
			calls: []call{
				{perMinute: 1, times: 2, want: want{reset: time.Minute, retryAfter: time.Minute}},
				{wait: 30500 * time.Millisecond, perMinute: 1, want: want{reset: 29500 * time.Millisecond, retryAfter: 30 * time.Second}},
			},
		},
		{
			name: "peek does not consume",
			calls: []call{
				{peek: true, perMinute: 2, times: 5, want: want{allowed: true, remaining: 2}},
				{perMinute: 2, want: want{allowed: true, remaining: 1, reset: 30 * time.Second}},
				{peek: true, perMinute: 2, times: 5, want: want{allowed: true, remaining: 1, reset: 30 * time.Second}},
				{perMinute: 2, want: want{allowed: true, remaining: 0, reset: time.Minute}},
				{peek: true, perMinute: 2, want: want{remaining: 0, reset: time.Minute, retryAfter: 30 * time.Second}},
			},
		},
		{
			name: "keys are independent",
			calls: []call{
				{key: "a", perMinute: 1, want: want{allowed: true, remaining: 0, reset: time.Minute}},
				{key: "a", perMinute: 1, want: want{reset: time.Minute, retryAfter: time.Minute}},
				{key: "b", perMinute: 1, want: want{allowed: true, remaining: 0, reset: time.Minute}},
			},
		},
		{
			name: "upgrade keeps tokens and refills faster",
			calls: []call{
				{perMinute: 60, times: 61, want: want{reset: time.Minute, retryAfter: time.Second}},
				{perMinute: 120, want: want{reset: time.Minute, retryAfter: time.Second}}, // 0 of 120, 2 a second
				{wait: time.Second, perMinute: 120, want: want{allowed: true, remaining: 1, reset: 59500 * time.Millisecond}},
			},
		},
		{
			name: "downgrade caps tokens at the new size",
			calls: []call{
				{perMinute: 600, want: want{allowed: true, remaining: 599, reset: 100 * time.Millisecond}},
				{peek: true, perMinute: 60, want: want{allowed: true, remaining: 60}},
				{perMinute: 60, want: want{allowed: true, remaining: 59, reset: time.Second}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				limiter := billing.NewLocalLimiter(time.Now)
				ctx := context.Background()
				for i, c := range tt.calls {
					time.Sleep(c.wait)
					key := c.key
					if key == "" {
						key = "k"
					}
					var got billing.Decision
					var err error
					for range max(c.times, 1) {
						if c.peek {
							got, err = limiter.Peek(ctx, key, c.perMinute)
						} else {
							got, err = limiter.Allow(ctx, key, c.perMinute)
						}
						if err != nil {
							t.Fatalf("call %d: %v", i, err)
						}
					}
					wantDecision := billing.Decision{
						Allowed:    c.want.allowed,
						Limit:      c.perMinute,
						Remaining:  c.want.remaining,
						Reset:      time.Now().Add(c.want.reset),
						RetryAfter: c.want.retryAfter,
						Per:        time.Minute,
					}
					if got != wantDecision {
						t.Errorf("call %d (%+v):\n got %s\nwant %s", i, c, describe(got), describe(wantDecision))
					}
				}
			})
		})
	}
}

// describe prints a Decision with its Reset relative to now.
func describe(d billing.Decision) string {
	return fmt.Sprintf("{Allowed:%t Limit:%d Remaining:%d Reset:now+%s RetryAfter:%s}",
		d.Allowed, d.Limit, d.Remaining, time.Until(d.Reset), d.RetryAfter)
}

func TestDecisionErr(t *testing.T) {
	t.Parallel()
	if err := (billing.Decision{Allowed: true}).Err(); err != nil {
		t.Errorf("allowed decision: Err() = %v", err)
	}
	err := billing.Decision{Limit: 60, RetryAfter: 2 * time.Second}.Err()
	if !errs.Is(err, errs.KindRateLimited) {
		t.Errorf("denied decision: Err() = %v, want kind rate_limited", err)
	}
}

func TestLocalLimiterRejectsBadInput(t *testing.T) {
	t.Parallel()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name      string
		ctx       context.Context
		perMinute int
		check     func(error) bool
	}{
		{"zero per minute", context.Background(), 0, func(err error) bool { return errs.FieldOf(err) == "requests_per_minute" }},
		{"negative per minute", context.Background(), -5, func(err error) bool { return errs.Is(err, errs.KindInvalid) }},
		{"canceled context", canceled, 60, func(err error) bool { return errors.Is(err, context.Canceled) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			limiter := billing.NewLocalLimiter(nil)
			if _, err := limiter.Allow(tt.ctx, "k", tt.perMinute); !tt.check(err) {
				t.Errorf("Allow error = %v", err)
			}
			if _, err := limiter.Peek(tt.ctx, "k", tt.perMinute); !tt.check(err) {
				t.Errorf("Peek error = %v", err)
			}
			if n := limiter.Len(); n != 0 {
				t.Errorf("a refused call left %d buckets", n)
			}
		})
	}
}

func TestLocalLimiterPeekCreatesNoBucket(t *testing.T) {
	t.Parallel()
	limiter := billing.NewLocalLimiter(nil)
	for i := range 100 {
		if _, err := limiter.Peek(context.Background(), fmt.Sprint("ip:", i), 60); err != nil {
			t.Fatal(err)
		}
	}
	if n := limiter.Len(); n != 0 {
		t.Errorf("Peek created %d buckets", n)
	}
}

func TestLocalLimiterEvictsFullBuckets(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		limiter := billing.NewLocalLimiter(time.Now)
		ctx := context.Background()
		allow := func(key string, perMinute int) {
			t.Helper()
			if _, err := limiter.Allow(ctx, key, perMinute); err != nil {
				t.Fatal(err)
			}
		}
		// hot is busy and never full: 1,000,000 a minute, time frozen between calls.
		hammer := func(calls int) {
			for range calls {
				allow("hot", 1_000_000)
			}
		}

		const idle = 3000
		for i := range idle {
			allow(fmt.Sprint("idle:", i), 60) // 59 of 60 left: full after 1s
		}
		allow("slow", 1) // 0 of 1 left: full after a minute

		hammer(2 * (idle + 2)) // sweeps at least once, but nothing is full yet
		if n := limiter.Len(); n != idle+2 {
			t.Fatalf("before any bucket is full: %d buckets, want %d", n, idle+2)
		}

		time.Sleep(2 * time.Second)
		hammer(2 * (idle + 2))
		if n := limiter.Len(); n != 2 {
			t.Fatalf("after the idle buckets filled: %d buckets, want 2 (hot and slow)", n)
		}

		time.Sleep(time.Minute)
		hammer(2 * 1024)
		if n := limiter.Len(); n != 1 {
			t.Fatalf("after slow filled: %d buckets, want 1 (hot)", n)
		}

		// An evicted key starts again as a full bucket.
		d, err := limiter.Allow(ctx, "slow", 1)
		if err != nil || !d.Allowed {
			t.Fatalf("evicted key: %+v, %v; want allowed", d, err)
		}
	})
}

func TestLocalLimiterConcurrentAllow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		limiter := billing.NewLocalLimiter(time.Now)
		var allowed, denied atomic.Int64
		var wg sync.WaitGroup
		for range 1000 {
			wg.Go(func() {
				d, err := limiter.Allow(context.Background(), "account:1", 100)
				switch {
				case err != nil:
					t.Error(err)
				case d.Allowed:
					allowed.Add(1)
				default:
					denied.Add(1)
				}
			})
		}
		wg.Wait()
		if allowed.Load() != 100 || denied.Load() != 900 {
			t.Errorf("allowed %d, denied %d; want 100 and 900", allowed.Load(), denied.Load())
		}
	})
}

// A bucket of another period: 30 an hour is 30 at once, then one every
// two minutes.
func TestLocalLimiterAllowRatePerHour(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	limiter := billing.NewLocalLimiter(func() time.Time { return now })
	ctx := context.Background()
	hourly := billing.Rate{Count: 30, Per: time.Hour}
	for i := range 30 {
		if d, err := limiter.AllowRate(ctx, "k", hourly); err != nil || !d.Allowed {
			t.Fatalf("call %d: %+v %v", i, d, err)
		}
	}
	d, _ := limiter.AllowRate(ctx, "k", hourly)
	if d.Allowed || d.RetryAfter != 2*time.Minute || d.Limit != 30 || !strings.Contains(d.Err().Error(), "30 requests per hour") {
		t.Fatalf("31st call: %+v (%v)", d, d.Err())
	}
	now = now.Add(2 * time.Minute)
	if d, _ := limiter.AllowRate(ctx, "k", hourly); !d.Allowed {
		t.Fatalf("after two minutes: %+v", d)
	}
	if _, err := limiter.AllowRate(ctx, "k", billing.Rate{Count: 1}); err == nil {
		t.Fatal("a rate without a period was accepted")
	}
}
