package sqlite

import (
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// TestDropStaleHolds checks that a hold past its TTL still settles, and
// that one stale for longer than holdGrace is dropped by a later Reserve
// of its account.
func TestDropStaleHolds(t *testing.T) {
	t.Parallel()
	db, key := openAccountDB(t)
	reserve := func(id string, now time.Time) {
		t.Helper()
		err := db.Reserve(t.Context(), store.Reservation{
			RequestID: id, AccountID: key.AccountID, KeyID: key.ID, Credits: 10, Now: now, TTL: time.Minute,
		})
		if err != nil {
			t.Fatalf("Reserve(%s): %v", id, err)
		}
	}
	reserve("late", tJobs)
	reserve("crashed", tJobs)
	if _, err := db.Settle(t.Context(), store.Settlement{RequestID: "late", Charged: 10, Now: tJobs.Add(time.Hour)}); err != nil {
		t.Errorf("Settle of a hold past its TTL: %v", err)
	}

	reserve("later", tJobs.Add(holdGrace+2*time.Minute))
	_, err := db.Settle(t.Context(), store.Settlement{RequestID: "crashed", Charged: 10, Now: tJobs.Add(holdGrace)})
	if errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("Settle of a dropped hold: %v, want not found", err)
	}
	if _, err := db.Settle(t.Context(), store.Settlement{RequestID: "later", Charged: 10, Now: tJobs.Add(holdGrace)}); err != nil {
		t.Errorf("Settle of a live hold after a drop: %v", err)
	}
}

// TestSettleRejectsOvercharge checks that charging more than was held is
// invalid and leaves the hold in place.
func TestSettleRejectsOvercharge(t *testing.T) {
	t.Parallel()
	db, key := openAccountDB(t)
	now := time.Now()
	if err := db.Reserve(t.Context(), store.Reservation{
		RequestID: "r", AccountID: key.AccountID, KeyID: key.ID, Credits: 5, Now: now, TTL: time.Minute,
	}); err != nil {
		t.Fatal(err)
	}
	for _, charged := range []int64{6, -1} {
		_, err := db.Settle(t.Context(), store.Settlement{RequestID: "r", Charged: charged, Now: now})
		if errs.KindOf(err) != errs.KindInvalid {
			t.Errorf("Settle(charged %d) = %v, want invalid", charged, err)
		}
	}
	if bal, err := db.Settle(t.Context(), store.Settlement{RequestID: "r", Charged: 5, Now: now}); err != nil || bal != 95 {
		t.Errorf("Settle(5) = %d, %v; want 95", bal, err)
	}
}

// TestHoldTable checks the table's bookkeeping: sums of live holds by
// account and key, removal from the middle of an account's list, and that
// the drop of stale holds spares the ones a Settle is writing.
func TestHoldTable(t *testing.T) {
	t.Parallel()
	tab := newHoldTable()
	grace := holdGrace.Milliseconds()
	for _, h := range []*hold{
		{requestID: "a1", account: 1, key: 10, credits: 1, expires: 100},
		{requestID: "a2", account: 1, key: 11, credits: 2, expires: 200},
		{requestID: "a3", account: 1, key: 10, credits: 4, expires: 300},
		{requestID: "b1", account: 2, key: 20, credits: 8, expires: 300},
	} {
		tab.add(h)
	}
	check := func(account, key, now, wantN, wantCredits, wantKey int64) {
		t.Helper()
		n, c, k := tab.live(account, key, now)
		if n != wantN || c != wantCredits || k != wantKey {
			t.Errorf("live(%d, %d, %d) = %d, %d, %d; want %d, %d, %d", account, key, now, n, c, k, wantN, wantCredits, wantKey)
		}
	}
	check(1, 10, 0, 3, 7, 5)
	check(1, 10, 100, 2, 6, 4) // a1 expired at 100
	check(2, 20, 0, 1, 8, 8)
	check(3, 30, 0, 0, 0, 0)

	tab.remove(tab.byID["a2"])
	check(1, 11, 0, 2, 5, 0)
	if _, err := tab.claim("a2", 1); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("claim of a removed hold: %v, want not found", err)
	}
	if _, err := tab.claim("a3", 5); errs.KindOf(err) != errs.KindInvalid {
		t.Errorf("claim of more than was held: %v, want invalid", err)
	}
	if _, err := tab.claim("a3", 4); err != nil {
		t.Fatal(err)
	}
	if _, err := tab.claim("a3", 4); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("second claim: %v, want not found", err)
	}

	check(1, 10, 300+grace+1, 0, 0, 0) // a1 is dropped, a3 (settling) kept
	if _, ok := tab.byID["a1"]; ok {
		t.Error("a stale hold was not dropped")
	}
	if h, ok := tab.byID["a3"]; !ok || len(tab.byAccount[1]) != 1 || h.pos != 0 {
		t.Errorf("the settling hold was dropped or misplaced: %v %+v", ok, tab.byAccount[1])
	}
	tab.remove(tab.byID["a3"])
	if _, ok := tab.byAccount[1]; ok || len(tab.byID) != 1 {
		t.Errorf("after removing all of account 1: byAccount %v, byID %v", tab.byAccount, tab.byID)
	}
}
