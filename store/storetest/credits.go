package storetest

import (
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var creditTests = []test{
	{"Credits/ReserveSettle", testReserveSettle},
	{"Credits/SettleZeroCharge", testSettleZero},
	{"Credits/SettleUnknownHold", testSettleUnknown},
	{"Credits/Release", testRelease},
	{"Credits/InsufficientCredits", testInsufficientCredits},
	{"Credits/MonthlyQuota", testMonthlyQuota},
	{"Credits/DailyCap", testDailyCap},
	{"Credits/CheckOrder", testCheckOrder},
	{"Credits/ExpiredHoldsDoNotCount", testExpiredHolds},
	{"Credits/ExpiredHoldStillSettles", testExpiredHoldSettles},
	{"Credits/Unmetered", testUnmetered},
	{"Credits/UnknownAccount", testReserveUnknownAccount},
	{"Credits/GrantAndLedgerPaging", testGrantAndLedger},
}

func testReserveSettle(t *testing.T, e *env) {
	acct, key := e.signup(100)
	r := e.reservation(key, 10, t0)
	e.reserve(r)
	now := t0.Add(time.Second)
	bal, err := e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: 7, Endpoint: "/v1/scrape", Now: now})
	must(t, err)
	if bal != 93 {
		t.Errorf("Settle returned balance %d, want 93", bal)
	}
	if got := e.balance(acct.ID); got != 93 {
		t.Errorf("Balance = %d, want 93", got)
	}
	ledger := e.ledger(acct.ID)
	if len(ledger) != 2 {
		t.Fatalf("ledger has %d rows, want 2", len(ledger))
	}
	want := store.LedgerEntry{ID: ledger[0].ID, Delta: -7, Balance: 93, Reason: "charge", Endpoint: "/v1/scrape",
		RequestID: r.RequestID, KeyID: key.ID, CreatedAt: now}
	if got := ledger[0]; got.ID <= ledger[1].ID || got.Delta != want.Delta || got.Balance != want.Balance ||
		got.Reason != want.Reason || got.Endpoint != want.Endpoint || got.RequestID != want.RequestID ||
		got.KeyID != want.KeyID || !got.CreatedAt.Equal(want.CreatedAt) {
		t.Errorf("charge row = %+v, want %+v", got, want)
	}
	if n := e.monthlyRequests(acct.ID, now); n != 1 {
		t.Errorf("MonthlyRequests = %d, want 1", n)
	}
	// The hold is gone: all 93 credits can be reserved again.
	e.reserve(e.reservation(key, 93, now))
}

func testSettleZero(t *testing.T, e *env) {
	acct, key := e.signup(100)
	r := e.reservation(key, 10, t0)
	e.reserve(r)
	if bal := e.settle(r.RequestID, 0, t0); bal != 100 {
		t.Errorf("Settle(0) returned balance %d, want 100", bal)
	}
	if n := len(e.ledger(acct.ID)); n != 1 {
		t.Errorf("ledger has %d rows after a free settle, want 1 (the grant)", n)
	}
	if n := e.monthlyRequests(acct.ID, t0); n != 1 {
		t.Errorf("MonthlyRequests = %d, want 1", n)
	}
}

func testSettleUnknown(t *testing.T, e *env) {
	acct, key := e.signup(100)
	_, err := e.s.Settle(e.ctx, store.Settlement{RequestID: "never-reserved", Charged: 1, Now: t0})
	wantErr(t, err, errs.KindNotFound)
	r := e.reservation(key, 5, t0)
	e.reserve(r)
	e.settle(r.RequestID, 5, t0)
	_, err = e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: 5, Now: t0})
	wantErr(t, err, errs.KindNotFound)
	if bal := e.balance(acct.ID); bal != 95 {
		t.Errorf("balance after a repeated Settle = %d, want 95", bal)
	}
}

func testRelease(t *testing.T, e *env) {
	acct, key := e.signup(10)
	r := e.reservation(key, 10, t0)
	e.reserve(r)
	must(t, e.s.Release(e.ctx, r.RequestID))
	if bal := e.balance(acct.ID); bal != 10 {
		t.Errorf("balance = %d, want 10", bal)
	}
	if n := len(e.ledger(acct.ID)); n != 1 {
		t.Errorf("ledger has %d rows, want 1", n)
	}
	if n := e.monthlyRequests(acct.ID, t0); n != 0 {
		t.Errorf("MonthlyRequests = %d, want 0", n)
	}
	_, err := e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: 1, Now: t0})
	wantErr(t, err, errs.KindNotFound)
	must(t, e.s.Release(e.ctx, r.RequestID))
	must(t, e.s.Release(e.ctx, "never-reserved"))
	e.reserve(e.reservation(key, 10, t0)) // the released credits are free again
}

func testInsufficientCredits(t *testing.T, e *env) {
	acct, key := e.signup(3)
	r := e.reservation(key, 5, t0)
	err := e.s.Reserve(e.ctx, r)
	wantErr(t, err, errs.KindPaymentRequired, "insufficient credits: balance 3, this call costs 5")
	_, err = e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: 0, Now: t0})
	wantErr(t, err, errs.KindNotFound) // nothing was written

	_, err = e.s.Grant(e.ctx, acct.ID, 7, "grant", t0)
	must(t, err)
	e.reserve(e.reservation(key, 6, t0))
	// 10 credits, 6 held: a call of 5 does not fit, one of 4 does.
	err = e.s.Reserve(e.ctx, e.reservation(key, 5, t0))
	wantErr(t, err, errs.KindPaymentRequired, "insufficient credits", "this call costs 5")
	e.reserve(e.reservation(key, 4, t0))
	err = e.s.Reserve(e.ctx, e.reservation(key, 1, t0))
	wantErr(t, err, errs.KindPaymentRequired)
}

func testMonthlyQuota(t *testing.T, e *env) {
	acct, key := e.signup(100)
	quota := func(r store.Reservation) store.Reservation { r.MonthlyQuota = 3; return r }
	for range 2 {
		r := quota(e.reservation(key, 1, t0))
		e.reserve(r)
		e.settle(r.RequestID, 1, t0)
	}
	inFlight := quota(e.reservation(key, 1, t0))
	e.reserve(inFlight)
	blocked := quota(e.reservation(key, 1, t0))
	err := e.s.Reserve(e.ctx, blocked)
	wantErr(t, err, errs.KindQuotaExceeded, "monthly request quota of 3 requests is spent")
	_, err = e.s.Settle(e.ctx, store.Settlement{RequestID: blocked.RequestID, Now: t0})
	wantErr(t, err, errs.KindNotFound)

	must(t, e.s.Release(e.ctx, inFlight.RequestID))
	e.reserve(quota(e.reservation(key, 1, t0)))
	if n := e.monthlyRequests(acct.ID, t0); n != 2 {
		t.Errorf("MonthlyRequests = %d, want 2", n)
	}
	// Another account has its own quota.
	_, otherKey := e.signup(10)
	e.reserve(quota(e.reservation(otherKey, 1, t0)))
}

func testDailyCap(t *testing.T, e *env) {
	acct, key := e.signup(100)
	capped := func(r store.Reservation) store.Reservation { r.DailyCap = 10; return r }
	r := capped(e.reservation(key, 8, t0))
	e.reserve(r)
	e.settle(r.RequestID, 6, t0) // 6 charged today
	e.reserve(capped(e.reservation(key, 3, t0)))
	err := e.s.Reserve(e.ctx, capped(e.reservation(key, 2, t0)))
	wantErr(t, err, errs.KindQuotaExceeded, "daily credit cap of 10 credits for this key is spent")
	e.reserve(capped(e.reservation(key, 1, t0))) // 6 + 3 + 1 = 10 fits exactly

	// The cap is the key's: another key of the same account is not limited by it.
	other := e.createKey(acct.ID, newKey())
	e.reserve(capped(e.reservation(other, 10, t0)))
}

// testCheckOrder checks that the quota is reported before the cap, and
// the cap before the balance.
func testCheckOrder(t *testing.T, e *env) {
	_, key := e.signup(1)
	r := e.reservation(key, 1, t0)
	r.MonthlyQuota, r.DailyCap = 1, 1
	e.reserve(r)
	e.settle(r.RequestID, 1, t0) // quota, cap and balance are all spent now

	all := e.reservation(key, 1, t0)
	all.MonthlyQuota, all.DailyCap = 1, 1
	wantErr(t, e.s.Reserve(e.ctx, all), errs.KindQuotaExceeded, "monthly request quota")
	capAndBalance := e.reservation(key, 1, t0)
	capAndBalance.DailyCap = 1
	wantErr(t, e.s.Reserve(e.ctx, capAndBalance), errs.KindQuotaExceeded, "daily credit cap")
	wantErr(t, e.s.Reserve(e.ctx, e.reservation(key, 1, t0)), errs.KindPaymentRequired)
}

// testExpiredHolds checks that a hold counts while now < created + TTL and
// no longer from then on, for balance, quota and cap alike.
func testExpiredHolds(t *testing.T, e *env) {
	_, key := e.signup(10)
	limits := func(r store.Reservation, ttl time.Duration) store.Reservation {
		r.MonthlyQuota, r.DailyCap, r.TTL = 1, 10, ttl
		return r
	}
	e.reserve(limits(e.reservation(key, 10, t0), time.Minute))

	justBefore := t0.Add(time.Minute - time.Second)
	err := e.s.Reserve(e.ctx, limits(e.reservation(key, 10, justBefore), time.Minute))
	wantErr(t, err, errs.KindQuotaExceeded)
	err = e.s.Reserve(e.ctx, e.reservation(key, 1, justBefore))
	wantErr(t, err, errs.KindPaymentRequired)

	atExpiry := t0.Add(time.Minute)
	e.reserve(limits(e.reservation(key, 10, atExpiry), time.Minute))
}

// A hold past its expiry no longer counts, but the slow call that made it
// can still settle it; afterwards every credit is accounted for exactly:
// what is left is free, and one credit more is refused.
func testExpiredHoldSettles(t *testing.T, e *env) {
	_, key := e.signup(20)
	slow := e.reservation(key, 10, t0)
	slow.TTL = time.Minute
	e.reserve(slow)

	later := t0.Add(2 * time.Minute)
	fast := e.reservation(key, 15, later) // fits only if the expired hold is not counted
	e.reserve(fast)
	if bal := e.settle(slow.RequestID, 4, later); bal != 16 {
		t.Errorf("balance after the expired hold's settlement = %d, want 16", bal)
	}
	if bal := e.settle(fast.RequestID, 15, later); bal != 1 {
		t.Errorf("balance = %d, want 1", bal)
	}
	last := e.reservation(key, 1, later)
	e.reserve(last)
	wantErr(t, e.s.Reserve(e.ctx, e.reservation(key, 1, later)), errs.KindPaymentRequired, "balance 0")
	must(t, e.s.Release(e.ctx, last.RequestID))
	e.reserve(e.reservation(key, 1, later))
}

func testUnmetered(t *testing.T, e *env) {
	acct, key := e.signup(0)
	r := e.reservation(key, 1000, t0)
	r.Unmetered, r.MonthlyQuota, r.DailyCap = true, 1, 1
	for range 3 {
		r.RequestID = e.requestID()
		must(t, e.s.Reserve(e.ctx, r))
	}
	must(t, e.s.Release(e.ctx, r.RequestID))
	if bal := e.balance(acct.ID); bal != 0 {
		t.Errorf("balance = %d, want 0", bal)
	}
	if n := e.monthlyRequests(acct.ID, t0); n != 0 {
		t.Errorf("MonthlyRequests = %d, want 0", n)
	}
}

func testReserveUnknownAccount(t *testing.T, e *env) {
	acct, key := e.signup(10)
	r := e.reservation(key, 1, t0)
	r.AccountID = acct.ID + 1000
	wantErr(t, e.s.Reserve(e.ctx, r), errs.KindNotFound)
	_, err := e.s.Grant(e.ctx, acct.ID+1000, 5, "grant", t0)
	wantErr(t, err, errs.KindNotFound)
}

func testGrantAndLedger(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, _ := e.signup(5)
	for i := range 5 {
		bal, err := e.s.Grant(e.ctx, acct.ID, int64(10*(i+1)), "grant", t0.Add(time.Duration(i)*time.Minute))
		must(t, err)
		if want := int64(100 + 10*(i+1)*(i+2)/2); bal != want {
			t.Errorf("Grant %d returned balance %d, want %d", i, bal, want)
		}
	}
	e.charge(key, 50, t0.Add(time.Hour)) // 250 - 50 = 200

	all := e.ledger(acct.ID)
	wantDeltas := []int64{-50, 50, 40, 30, 20, 10, 100}
	if len(all) != len(wantDeltas) {
		t.Fatalf("ledger has %d rows, want %d", len(all), len(wantDeltas))
	}
	balance := int64(200)
	for i, l := range all {
		if l.Delta != wantDeltas[i] || l.Balance != balance {
			t.Errorf("row %d = %+v, want delta %d balance %d", i, l, wantDeltas[i], balance)
		}
		balance -= l.Delta
		if i > 0 && l.ID >= all[i-1].ID {
			t.Errorf("row %d has id %d, not below %d: not newest first", i, l.ID, all[i-1].ID)
		}
	}
	if all[6].Reason != "signup_grant" || all[1].Reason != "grant" || all[0].Reason != "charge" {
		t.Errorf("reasons = %q %q %q", all[6].Reason, all[1].Reason, all[0].Reason)
	}

	for _, page := range []struct{ limit, offset, first, n int }{{3, 0, 0, 3}, {3, 3, 3, 3}, {3, 6, 6, 1}, {3, 9, 0, 0}} {
		got, err := e.s.Ledger(e.ctx, acct.ID, page.limit, page.offset)
		must(t, err)
		if len(got) != page.n {
			t.Errorf("Ledger(%d, %d) has %d rows, want %d", page.limit, page.offset, len(got), page.n)
			continue
		}
		if page.n > 0 && got[0].ID != all[page.first].ID {
			t.Errorf("Ledger(%d, %d) starts at id %d, want %d", page.limit, page.offset, got[0].ID, all[page.first].ID)
		}
	}
	if n := len(e.ledger(other.ID)); n != 1 {
		t.Errorf("another account's ledger has %d rows, want 1", n)
	}
}
