package server

import (
	"context"
	"runtime"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// hashGate bounds the password hashes (argon2id, about 19 MiB each) that
// run at once: sign-up, login, the dummy hash of an unknown e-mail and a
// password change all pass through it. Unbounded, 60 concurrent wrong
// logins took the server from 156 MiB to 1 GiB. A call waits up to wait
// for a slot, then is answered 503 with Retry-After.
type hashGate struct {
	slots chan struct{}
	wait  time.Duration
}

func newHashGate(concurrency int, wait time.Duration) *hashGate {
	return &hashGate{slots: make(chan struct{}, concurrency), wait: wait}
}

// run runs hash in a slot, or gives up after the wait or when ctx ends.
func (g *hashGate) run(ctx context.Context, hash func()) error {
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
	case <-timer.C:
		return errs.RetryLater(errs.KindUnavailable, time.Second,
			"the server is busy checking passwords (limits.password_hash_concurrency); retry in a second")
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-g.slots }()
	hash()
	if len(g.slots) == cap(g.slots) {
		// Under contention, collect the hash's 19 MiB now rather than at
		// the pacer's next cycle: a burst of logins would otherwise leave
		// many hashes' worth of garbage in the heap at once (peak RSS
		// 285-298 MiB without this, 138-164 MiB with it, in the login
		// storm test of cmd/webinfra).
		runtime.GC()
	}
	return nil
}
