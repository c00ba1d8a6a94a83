package server

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// At most the gate's size hash at once; a caller that waits past the
// limit gets 503 with a retry-after, and nothing runs for it.
func TestHashGateBoundsConcurrency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newHashGate(2, 2*time.Second)
		var running, peak, done atomic.Int64
		var refused []error
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				err := g.run(context.Background(), func() {
					n := running.Add(1)
					for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
					}
					time.Sleep(700 * time.Millisecond) // a hash
					running.Add(-1)
					done.Add(1)
				})
				if err != nil {
					mu.Lock()
					refused = append(refused, err)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		// Two at a time, 700 ms each: within the 2 s wait, slots free at
		// 0.7 s and 1.4 s, so six run and four give up.
		if peak.Load() != 2 || done.Load() != 6 || len(refused) != 4 {
			t.Fatalf("peak %d, done %d, refused %d", peak.Load(), done.Load(), len(refused))
		}
		var e *errs.Error
		for _, err := range refused {
			if !errs.Is(err, errs.KindUnavailable) || !errors.As(err, &e) || e.RetryAfter != time.Second {
				t.Fatalf("refusal %v", err)
			}
		}
	})
}

func TestLoginGuardGrowsAndResets(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	g := newLoginGuard(5, 15*time.Minute, func() time.Time { return now })
	for i := range 5 {
		if d := g.failed("a@example.com"); d != 0 {
			t.Fatalf("free failure %d locked out for %s", i+1, d)
		}
	}
	var lockouts []time.Duration
	for range 12 {
		lockouts = append(lockouts, g.failed("a@example.com"))
		if g.lockedOut("a@example.com") != lockouts[len(lockouts)-1] {
			t.Fatalf("lockedOut does not report the lockout just started")
		}
		now = now.Add(lockouts[len(lockouts)-1])
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900}
	for i, d := range lockouts {
		if d != want[i]*time.Second {
			t.Fatalf("lockouts %v, want %v seconds", lockouts, want)
		}
	}
	if g.lockedOut("b@example.com") != 0 {
		t.Fatal("another e-mail is locked out")
	}
	g.succeeded("a@example.com")
	if g.lockedOut("a@example.com") != 0 || g.failed("a@example.com") != 0 {
		t.Fatal("a success did not reset the count")
	}
}

// However many e-mails are tried, the guard holds at most its bound.
func TestLoginGuardIsBounded(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	g := newLoginGuard(5, 15*time.Minute, func() time.Time { return now })
	g.maxEntries = 100
	for i := range 1000 {
		g.failed(string(rune('a'+i%26)) + time.Duration(i).String())
	}
	if len(g.entries) > 100 {
		t.Fatalf("%d entries held, bound 100", len(g.entries))
	}
}
