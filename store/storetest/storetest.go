package storetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// Run runs the conformance suite. open must return a fresh, empty store
// for each call; Run closes it when the subtest ends (so Close must be
// safe to call again if open also registers it). Subtests run in
// parallel, each on its own store.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	groups := [][]test{accountTests, keyTests, orgTests, creditTests, windowTests, usageTests, idempotencyTests, concurrencyTests, jobTests, webhookTests, deleteTests, forwarderTests}
	for _, group := range groups {
		for _, tc := range group {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				s := open(t)
				t.Cleanup(func() {
					if err := s.Close(); err != nil {
						t.Errorf("Close: %v", err)
					}
				})
				tc.fn(t, &env{t: t, s: s, ctx: t.Context()})
			})
		}
	}
}

// test is one named conformance case.
type test struct {
	name string
	fn   func(t *testing.T, e *env)
}

// t0 is the suite's reference time: whole seconds, so every driver's time
// precision keeps it exactly.
var t0 = time.Date(2026, time.March, 10, 12, 0, 0, 0, time.UTC)

// hour is a hold TTL long enough to outlive a test.
const hour = time.Hour

// env bundles a store under test with helpers that fail the test on
// unexpected errors.
type env struct {
	t      *testing.T
	s      store.Store
	ctx    context.Context
	emails atomic.Int64
	reqs   atomic.Int64
}

// newKey returns a developer key with a fresh random hash.
func newKey() store.Key {
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		panic(err)
	}
	rawKey := "osk_" + hex.EncodeToString(raw)
	sum := sha256.Sum256([]byte(rawKey))
	return store.Key{Hash: sum[:], Prefix: rawKey[:12], Kind: store.KeyDeveloper}
}

// signup creates an account with credits and returns it with its first key.
func (e *env) signup(credits int64) (store.Account, store.Key) {
	e.t.Helper()
	n := e.emails.Add(1)
	acct, key, err := e.s.CreateAccount(e.ctx, store.NewAccount{
		Email:          fmt.Sprintf("user%d@example.com", n),
		PasswordHash:   "$argon2id$v=19$m=65536,t=1,p=4$c2FsdA$aGFzaA",
		Plan:           "free",
		WebhookSecret:  "whsec_00",
		InitialCredits: credits,
		Now:            t0,
	}, newKey())
	if err != nil {
		e.t.Fatalf("CreateAccount: %v", err)
	}
	return acct, key
}

// createKey stores k for the account.
func (e *env) createKey(accountID int64, k store.Key) store.Key {
	e.t.Helper()
	k.AccountID = accountID
	k.CreatedAt = t0
	out, err := e.s.CreateKey(e.ctx, k)
	if err != nil {
		e.t.Fatalf("CreateKey: %v", err)
	}
	return out
}

// requestID returns a fresh request id.
func (e *env) requestID() string { return fmt.Sprintf("req_%d", e.reqs.Add(1)) }

// reservation is a metered reservation of credits for the key, at now.
func (e *env) reservation(key store.Key, credits int64, now time.Time) store.Reservation {
	return store.Reservation{
		RequestID: e.requestID(),
		AccountID: key.AccountID,
		KeyID:     key.ID,
		Credits:   credits,
		Now:       now,
		TTL:       hour,
	}
}

// reserve reserves r and fails the test on error.
func (e *env) reserve(r store.Reservation) {
	e.t.Helper()
	if err := e.s.Reserve(e.ctx, r); err != nil {
		e.t.Fatalf("Reserve(%+v): %v", r, err)
	}
}

// settle settles the request and returns the balance.
func (e *env) settle(requestID string, charged int64, now time.Time) int64 {
	e.t.Helper()
	bal, err := e.s.Settle(e.ctx, store.Settlement{RequestID: requestID, Charged: charged, Endpoint: "/v1/scrape", Now: now})
	if err != nil {
		e.t.Fatalf("Settle(%s, %d): %v", requestID, charged, err)
	}
	return bal
}

// charge reserves and settles credits for the key at now.
func (e *env) charge(key store.Key, credits int64, now time.Time) int64 {
	e.t.Helper()
	r := e.reservation(key, credits, now)
	e.reserve(r)
	return e.settle(r.RequestID, credits, now)
}

func (e *env) balance(accountID int64) int64 {
	e.t.Helper()
	b, err := e.s.Balance(e.ctx, accountID)
	if err != nil {
		e.t.Fatalf("Balance: %v", err)
	}
	return b
}

func (e *env) monthlyRequests(accountID int64, now time.Time) int64 {
	e.t.Helper()
	n, err := e.s.MonthlyRequests(e.ctx, accountID, now)
	if err != nil {
		e.t.Fatalf("MonthlyRequests: %v", err)
	}
	return n
}

// ledger returns the account's whole ledger, newest first, paging by 50.
func (e *env) ledger(accountID int64) []store.LedgerEntry {
	e.t.Helper()
	var all []store.LedgerEntry
	for offset := 0; ; offset += 50 {
		page, err := e.s.Ledger(e.ctx, accountID, 50, offset)
		if err != nil {
			e.t.Fatalf("Ledger: %v", err)
		}
		all = append(all, page...)
		if len(page) < 50 {
			return all
		}
	}
}

// wantErr fails unless err has the kind and its text contains every part.
func wantErr(t *testing.T, err error, kind errs.Kind, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", kind)
	}
	if got := errs.KindOf(err); got != kind {
		t.Fatalf("got error %q of kind %s, want %s", err, got, kind)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
