package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// Credit moves (store.Orgs.MoveCredits); the tests are listed in orgTests.

func testMoveCredits(t *testing.T, e *env) {
	owner, _ := e.signup(100)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	wallet := org.WalletAccountID

	mv := store.CreditMove{RequestID: "move_1", From: owner.ID, To: wallet, Credits: 30, Now: t0.Add(time.Minute)}
	bal, err := e.s.MoveCredits(e.ctx, mv)
	must(t, err)
	if bal != 70 || e.balance(owner.ID) != 70 || e.balance(wallet) != 30 {
		t.Fatalf("after moving 30: returned %d, owner %d, wallet %d; want 70, 70, 30", bal, e.balance(owner.ID), e.balance(wallet))
	}
	out, in := e.ledger(owner.ID), e.ledger(wallet)
	if len(out) != 2 || len(in) != 1 {
		t.Fatalf("ledgers: owner %+v, wallet %+v", out, in)
	}
	if l := out[0]; l.Delta != -30 || l.Balance != 70 || l.Reason != "transfer_out" || l.RequestID != "move_1" ||
		l.KeyID != 0 || !l.CreatedAt.Equal(mv.Now) {
		t.Errorf("owner's ledger row = %+v", l)
	}
	if l := in[0]; l.Delta != 30 || l.Balance != 30 || l.Reason != "transfer_in" || l.RequestID != "move_1" ||
		l.KeyID != 0 || !l.CreatedAt.Equal(mv.Now) {
		t.Errorf("wallet's ledger row = %+v", l)
	}

	back := store.CreditMove{RequestID: "move_2", From: wallet, To: owner.ID, Credits: 10, Now: t0}
	if bal, err := e.s.MoveCredits(e.ctx, back); err != nil || bal != 20 || e.balance(owner.ID) != 80 {
		t.Errorf("moving 10 back: %d, %v; owner %d", bal, err, e.balance(owner.ID))
	}

	unchanged := func(what string) {
		t.Helper()
		if o, w := e.balance(owner.ID), e.balance(wallet); o != 80 || w != 20 {
			t.Errorf("%s: balances owner %d, wallet %d; want 80, 20", what, o, w)
		}
		if o, w := len(e.ledger(owner.ID)), len(e.ledger(wallet)); o != 3 || w != 2 {
			t.Errorf("%s: ledgers have %d and %d rows, want 3 and 2", what, o, w)
		}
	}
	for _, bad := range []store.CreditMove{
		{RequestID: "z", From: owner.ID, To: wallet, Credits: 0, Now: t0},
		{RequestID: "n", From: owner.ID, To: wallet, Credits: -5, Now: t0},
		{RequestID: "s", From: owner.ID, To: owner.ID, Credits: 5, Now: t0},
		{RequestID: "", From: owner.ID, To: wallet, Credits: 5, Now: t0},
	} {
		_, err := e.s.MoveCredits(e.ctx, bad)
		wantErr(t, err, errs.KindInvalid)
	}
	unchanged("invalid moves")
	_, err = e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: "u1", From: owner.ID + wallet + 1000, To: wallet, Credits: 5, Now: t0})
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: "u2", From: owner.ID, To: owner.ID + wallet + 1000, Credits: 5, Now: t0})
	wantErr(t, err, errs.KindNotFound)
	unchanged("moves to or from unknown accounts")
	_, err = e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: "big", From: owner.ID, To: wallet, Credits: 81, Now: t0})
	wantErr(t, err, errs.KindPaymentRequired)
	_, err = e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: "big2", From: wallet, To: owner.ID, Credits: 21, Now: t0})
	wantErr(t, err, errs.KindPaymentRequired)
	unchanged("moves beyond the balance")

	// Nothing refused above holds anything back: the whole balance moves.
	if bal, err := e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: "all", From: owner.ID, To: wallet, Credits: 80, Now: t0}); err != nil || bal != 0 {
		t.Errorf("moving the whole balance: %d, %v", bal, err)
	}
	if w := e.balance(wallet); w != 100 {
		t.Errorf("wallet balance = %d, want 100", w)
	}
}

func testMoveCreditsHolds(t *testing.T, e *env) {
	owner, key := e.signup(100)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	move := func(credits int64, now time.Time) (int64, error) {
		return e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: e.requestID(), From: owner.ID, To: org.WalletAccountID, Credits: credits, Now: now})
	}

	r := e.reservation(key, 60, t0)
	e.reserve(r)
	_, err = move(41, t0)
	wantErr(t, err, errs.KindPaymentRequired)
	if bal, err := move(40, t0); err != nil || bal != 60 {
		t.Fatalf("moving what the hold leaves: %d, %v; want 60", bal, err)
	}
	_, err = move(1, t0)
	wantErr(t, err, errs.KindPaymentRequired)
	// Reserve sees the move: nothing is left beside the hold.
	wantErr(t, e.s.Reserve(e.ctx, e.reservation(key, 1, t0)), errs.KindPaymentRequired)
	if bal := e.settle(r.RequestID, 50, t0); bal != 10 {
		t.Errorf("settling 50 of the hold: balance %d, want 10", bal)
	}
	_, err = move(11, t0)
	wantErr(t, err, errs.KindPaymentRequired)
	if bal, err := move(10, t0); err != nil || bal != 0 {
		t.Errorf("moving the rest: %d, %v", bal, err)
	}
	if o, w := e.balance(owner.ID), e.balance(org.WalletAccountID); o != 0 || w != 50 {
		t.Errorf("balances owner %d, wallet %d; want 0, 50", o, w)
	}

	// A released hold frees its credits; an expired one does not count.
	_, err = e.s.Grant(e.ctx, owner.ID, 100, "grant", t0)
	must(t, err)
	r = e.reservation(key, 70, t0)
	e.reserve(r)
	_, err = move(31, t0)
	wantErr(t, err, errs.KindPaymentRequired)
	must(t, e.s.Release(e.ctx, r.RequestID))
	if bal, err := move(31, t0); err != nil || bal != 69 {
		t.Errorf("after the release: %d, %v; want 69", bal, err)
	}
	r = e.reservation(key, 60, t0) // TTL one hour
	e.reserve(r)
	_, err = move(10, t0.Add(30*time.Minute))
	wantErr(t, err, errs.KindPaymentRequired)
	if bal, err := move(69, t0.Add(2*hour)); err != nil || bal != 0 {
		t.Errorf("moving beside an expired hold: %d, %v; want 0", bal, err)
	}
	must(t, e.s.Release(e.ctx, r.RequestID))
	if o, w := e.balance(owner.ID), e.balance(org.WalletAccountID); o != 0 || w != 150 {
		t.Errorf("balances owner %d, wallet %d; want 0, 150", o, w)
	}
}

// testMoveCreditsConcurrent moves credits out of an account from several
// goroutines while others reserve and settle calls on it: every credit is
// spent exactly once and the balance never goes below zero.
func testMoveCreditsConcurrent(t *testing.T, e *env) {
	const start, step = 100, 5
	owner, key := e.signup(start)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	var mu sync.Mutex
	var moved, charged int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				_, err := e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: e.requestID(), From: owner.ID,
					To: org.WalletAccountID, Credits: step, Now: t0})
				switch {
				case err == nil:
					mu.Lock()
					moved += step
					mu.Unlock()
				case !errs.Is(err, errs.KindPaymentRequired):
					t.Errorf("MoveCredits: %v", err)
				}
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			for range 5 {
				r := e.reservation(key, step, t0)
				err := e.s.Reserve(e.ctx, r)
				if errs.Is(err, errs.KindPaymentRequired) {
					continue
				}
				if err != nil {
					t.Errorf("Reserve: %v", err)
					continue
				}
				if _, err := e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: step, Endpoint: "/v1/scrape", Now: t0}); err != nil {
					t.Errorf("Settle: %v", err)
					continue
				}
				mu.Lock()
				charged += step
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// Every refusal found nothing available, and nothing gives credits
	// back, so the whole balance was spent.
	if moved+charged != start || e.balance(owner.ID) != 0 || e.balance(org.WalletAccountID) != moved {
		t.Errorf("moved %d, charged %d, owner %d, wallet %d; want %d spent, owner 0, wallet = moved",
			moved, charged, e.balance(owner.ID), e.balance(org.WalletAccountID), start)
	}
	ledger := e.ledger(owner.ID)
	if want := 1 + start/step; len(ledger) != want {
		t.Errorf("owner's ledger has %d rows, want %d", len(ledger), want)
	}
	for _, l := range ledger {
		if l.Balance < 0 {
			t.Errorf("overdrawn: %+v", l)
		}
	}
	testMoveCreditsRace(t, e, owner, key, org.WalletAccountID)
}

// testMoveCreditsRace starts, at once, many moves and one call that each
// want more than half of the balance: in every round exactly one of them
// may win.
func testMoveCreditsRace(t *testing.T, e *env, owner store.Account, key store.Key, wallet int64) {
	const balance, want, movers = 100, 60, 16
	for round := range 16 {
		if _, err := e.s.Grant(e.ctx, owner.ID, balance-e.balance(owner.ID), "grant", t0); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		win := func() { mu.Lock(); wins++; mu.Unlock() }
		start := make(chan struct{})
		for range movers {
			wg.Go(func() {
				<-start
				_, err := e.s.MoveCredits(e.ctx, store.CreditMove{RequestID: e.requestID(), From: owner.ID, To: wallet, Credits: want, Now: t0})
				switch {
				case err == nil:
					win()
				case !errs.Is(err, errs.KindPaymentRequired):
					t.Errorf("MoveCredits: %v", err)
				}
			})
		}
		var r store.Reservation
		reserved := false
		wg.Go(func() {
			<-start
			r = e.reservation(key, want, t0)
			err := e.s.Reserve(e.ctx, r)
			switch {
			case err == nil:
				reserved = true
				win()
			case !errs.Is(err, errs.KindPaymentRequired):
				t.Errorf("Reserve: %v", err)
			}
		})
		close(start)
		wg.Wait()
		if reserved {
			e.settle(r.RequestID, want, t0)
		}
		if bal := e.balance(owner.ID); wins != 1 || bal != balance-want {
			t.Fatalf("round %d: %d of %d moves and a call won, balance %d; want one winner, balance %d",
				round, wins, movers, bal, balance-want)
		}
	}
}
