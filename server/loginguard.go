package server

import (
	"sync"
	"time"
)

// loginGuard throttles failed logins per e-mail address (known or not, so
// the answer tells nothing about which accounts exist): the first
// LoginFreeFailures failures cost nothing, each further one locks the
// address out for twice as long as the last (1 s, 2 s, 4 s … up to
// LoginMaxLockout), and a success clears it. A locked-out attempt is
// answered 429 without hashing anything.
//
// It holds at most maxEntries addresses: when full, entries whose lockout
// has passed are dropped first, then arbitrary ones, so memory is bounded
// however many addresses an attacker tries.
type loginGuard struct {
	free       int
	maxLockout time.Duration
	maxEntries int
	now        func() time.Time

	mu      sync.Mutex
	entries map[string]*loginFailures
}

type loginFailures struct {
	count int
	last  time.Time // the last failure
	until time.Time // locked out until then
}

const loginGuardEntries = 100_000 // about 10 MB at most

func newLoginGuard(free int, maxLockout time.Duration, now func() time.Time) *loginGuard {
	return &loginGuard{free: free, maxLockout: maxLockout, maxEntries: loginGuardEntries, now: now,
		entries: map[string]*loginFailures{}}
}

// lockedOut returns how long email must wait before its next attempt; 0
// when it may try now.
func (g *loginGuard) lockedOut(email string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.entries[email]; ok {
		return max(f.until.Sub(g.now()), 0)
	}
	return 0
}

// failed counts a failed attempt and returns the lockout it starts (0
// while failures are still free).
func (g *loginGuard) failed(email string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	f, ok := g.entries[email]
	if ok && now.Sub(f.last) > 2*g.maxLockout {
		f.count = 0 // long quiet: start over
	}
	if !ok {
		g.makeRoom(now)
		f = &loginFailures{}
		g.entries[email] = f
	}
	f.count++
	f.last = now
	if f.count <= g.free {
		return 0
	}
	lockout := g.maxLockout
	if shift := f.count - g.free - 1; shift < 30 {
		lockout = min(time.Duration(1<<shift)*time.Second, g.maxLockout)
	}
	f.until = now.Add(lockout)
	return lockout
}

// succeeded forgets email's failures.
func (g *loginGuard) succeeded(email string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.entries, email)
}

// makeRoom keeps the map under maxEntries. g.mu must be held.
func (g *loginGuard) makeRoom(now time.Time) {
	if len(g.entries) < g.maxEntries {
		return
	}
	for k, f := range g.entries {
		if now.After(f.until) && now.Sub(f.last) > 2*g.maxLockout {
			delete(g.entries, k)
		}
	}
	for k := range g.entries {
		if len(g.entries) < g.maxEntries {
			break
		}
		delete(g.entries, k)
	}
}
