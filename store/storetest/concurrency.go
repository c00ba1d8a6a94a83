package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var concurrencyTests = []test{
	{"Concurrency/NoOverspend", testNoOverspend},
	{"Concurrency/QuotaHolds", testConcurrentQuota},
	{"Concurrency/DailyCapHolds", testConcurrentDailyCap},
	{"Concurrency/SettleOnce", testSettleOnce},
	{"Concurrency/BeginIdempotentOnce", testBeginIdempotentOnce},
}

// race runs fn(i) for i in [0, n) on n goroutines released together.
func race(n int, fn func(i int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			fn(i)
		})
	}
	close(start)
	wg.Wait()
}

// reserveAndSettle runs n concurrent calls of 1 credit shaped by limit and
// returns how many were charged; every failure must have the kind want.
func reserveAndSettle(t *testing.T, e *env, key store.Key, n int, want errs.Kind, limit func(*store.Reservation)) int64 {
	t.Helper()
	var ok atomic.Int64
	race(n, func(i int) {
		r := store.Reservation{
			RequestID: fmt.Sprintf("c%d", i), AccountID: key.AccountID, KeyID: key.ID,
			Credits: 1, Now: t0, TTL: hour,
		}
		limit(&r)
		if err := e.s.Reserve(e.ctx, r); err != nil {
			if errs.KindOf(err) != want {
				t.Errorf("Reserve %d: %v (kind %s), want kind %s", i, err, errs.KindOf(err), want)
			}
			return
		}
		if _, err := e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: 1, Endpoint: "/v1/scrape", Now: t0}); err != nil {
			t.Errorf("Settle %d: %v", i, err)
			return
		}
		ok.Add(1)
	})
	return ok.Load()
}

// testNoOverspend: 1,000 calls of 1 credit against 500 credits.
func testNoOverspend(t *testing.T, e *env) {
	acct, key := e.signup(500)
	ok := reserveAndSettle(t, e, key, 1000, errs.KindPaymentRequired, func(*store.Reservation) {})
	if ok != 500 {
		t.Errorf("%d calls were charged, want exactly 500", ok)
	}
	if bal := e.balance(acct.ID); bal != 0 {
		t.Errorf("balance = %d, want 0", bal)
	}
	charges := 0
	for _, l := range e.ledger(acct.ID) {
		if l.Reason == "charge" {
			charges++
			if l.Delta != -1 {
				t.Errorf("charge row %+v, want delta -1", l)
			}
		}
	}
	if charges != 500 {
		t.Errorf("ledger has %d charge rows, want 500", charges)
	}
	if n := e.monthlyRequests(acct.ID, t0); n != 500 {
		t.Errorf("MonthlyRequests = %d, want 500", n)
	}
}

func testConcurrentQuota(t *testing.T, e *env) {
	acct, key := e.signup(1000)
	ok := reserveAndSettle(t, e, key, 200, errs.KindQuotaExceeded, func(r *store.Reservation) { r.MonthlyQuota = 50 })
	if ok != 50 {
		t.Errorf("%d calls passed a monthly quota of 50", ok)
	}
	if n := e.monthlyRequests(acct.ID, t0); n != 50 {
		t.Errorf("MonthlyRequests = %d, want 50", n)
	}
}

func testConcurrentDailyCap(t *testing.T, e *env) {
	acct, key := e.signup(1000)
	ok := reserveAndSettle(t, e, key, 200, errs.KindQuotaExceeded, func(r *store.Reservation) { r.DailyCap = 30 })
	if ok != 30 {
		t.Errorf("%d calls passed a daily cap of 30 credits", ok)
	}
	if bal := e.balance(acct.ID); bal != 970 {
		t.Errorf("balance = %d, want 970", bal)
	}
}

// testSettleOnce: many concurrent Settles of one hold charge it once.
func testSettleOnce(t *testing.T, e *env) {
	acct, key := e.signup(100)
	r := e.reservation(key, 10, t0)
	e.reserve(r)
	var ok atomic.Int64
	race(50, func(i int) {
		_, err := e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: 10, Now: t0})
		switch {
		case err == nil:
			ok.Add(1)
		case errs.KindOf(err) != errs.KindNotFound:
			t.Errorf("Settle %d: %v, want success or not found", i, err)
		}
	})
	if ok.Load() != 1 {
		t.Errorf("%d Settles of one hold succeeded, want 1", ok.Load())
	}
	if bal := e.balance(acct.ID); bal != 90 {
		t.Errorf("balance = %d, want 90", bal)
	}
}

func testBeginIdempotentOnce(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	var started atomic.Int64
	race(100, func(i int) {
		_, s, err := e.s.BeginIdempotent(e.ctx, acct.ID, "same-key", []byte("h"), t0, t0.Add(hour))
		if err != nil {
			t.Errorf("BeginIdempotent %d: %v", i, err)
			return
		}
		if s {
			started.Add(1)
		}
	})
	if started.Load() != 1 {
		t.Errorf("%d concurrent BeginIdempotent calls started, want exactly 1", started.Load())
	}
}
