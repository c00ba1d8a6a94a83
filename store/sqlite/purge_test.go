package sqlite

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// TestPurgeStaleHolds checks that a hold past its TTL still settles, and
// that one stale for longer than holdGrace is purged by a later Reserve.
func TestPurgeStaleHolds(t *testing.T) {
	t.Parallel()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, time.March, 10, 12, 0, 0, 0, time.UTC)
	acct, key, err := db.CreateAccount(t.Context(), store.NewAccount{
		Email: "ann@example.com", PasswordHash: "x", Plan: "free", WebhookSecret: "whsec_0", InitialCredits: 100, Now: t0,
	}, store.Key{Hash: []byte("0123456789abcdef0123456789abcdef"), Prefix: "osk_0123", Kind: store.KeyDeveloper})
	if err != nil {
		t.Fatal(err)
	}
	reserve := func(id string, now time.Time) {
		t.Helper()
		err := db.Reserve(t.Context(), store.Reservation{
			RequestID: id, AccountID: acct.ID, KeyID: key.ID, Credits: 10, Now: now, TTL: time.Minute,
		})
		if err != nil {
			t.Fatalf("Reserve(%s): %v", id, err)
		}
	}
	reserve("late", t0)
	reserve("crashed", t0)
	if _, err := db.Settle(t.Context(), store.Settlement{RequestID: "late", Charged: 10, Now: t0.Add(time.Hour)}); err != nil {
		t.Errorf("Settle of a hold past its TTL: %v", err)
	}

	db.reserves.Store(purgeEvery - 1) // the next Reserve purges
	reserve("later", t0.Add(holdGrace+2*time.Minute))
	_, err = db.Settle(t.Context(), store.Settlement{RequestID: "crashed", Charged: 10, Now: t0.Add(holdGrace)})
	if errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("Settle of a purged hold: %v, want not found", err)
	}
	if _, err := db.Settle(t.Context(), store.Settlement{RequestID: "later", Charged: 10, Now: t0.Add(holdGrace)}); err != nil {
		t.Errorf("Settle of a live hold after a purge: %v", err)
	}
}

// TestSettleRejectsOvercharge checks that charging more than was held is
// invalid and leaves the hold in place.
func TestSettleRejectsOvercharge(t *testing.T) {
	t.Parallel()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	acct, key, err := db.CreateAccount(t.Context(), store.NewAccount{
		Email: "ann@example.com", PasswordHash: "x", Plan: "free", WebhookSecret: "whsec_0", InitialCredits: 100,
	}, store.Key{Hash: []byte("0123456789abcdef0123456789abcdef"), Prefix: "osk_0123", Kind: store.KeyDeveloper})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := db.Reserve(t.Context(), store.Reservation{
		RequestID: "r", AccountID: acct.ID, KeyID: key.ID, Credits: 5, Now: now, TTL: time.Minute,
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
