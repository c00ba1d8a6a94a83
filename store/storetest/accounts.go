package storetest

import (
	"bytes"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var accountTests = []test{
	{"Accounts/SignupCreatesAccountGrantAndKey", testSignup},
	{"Accounts/DuplicateEmailIsConflict", testDuplicateEmail},
	{"Accounts/SignupIsAtomic", testSignupAtomic},
	{"Accounts/UnknownIsNotFound", testUnknownAccount},
	{"Accounts/SetWebhookSecret", testSetWebhookSecret},
}

func testSignup(t *testing.T, e *env) {
	first := newKey()
	first.Label = "default"
	acct, key, err := e.s.CreateAccount(e.ctx, store.NewAccount{
		Email:          "ann@example.com",
		PasswordHash:   "$argon2id$hash",
		Plan:           "free",
		WebhookSecret:  "whsec_abc",
		InitialCredits: 1000,
		Now:            t0,
	}, first)
	must(t, err)
	if acct.ID == 0 || acct.Email != "ann@example.com" || acct.PasswordHash != "$argon2id$hash" ||
		acct.Plan != "free" || acct.WebhookSecret != "whsec_abc" || !acct.CreatedAt.Equal(t0) {
		t.Errorf("CreateAccount returned %+v", acct)
	}
	if key.ID == 0 || key.AccountID != acct.ID || !bytes.Equal(key.Hash, first.Hash) ||
		key.Prefix != first.Prefix || key.Kind != store.KeyDeveloper || key.Label != "default" || !key.Active() {
		t.Errorf("first key = %+v", key)
	}

	for name, get := range map[string]func() (store.Account, error){
		"AccountByID":    func() (store.Account, error) { return e.s.AccountByID(e.ctx, acct.ID) },
		"AccountByEmail": func() (store.Account, error) { return e.s.AccountByEmail(e.ctx, "ann@example.com") },
	} {
		got, err := get()
		must(t, err)
		if !sameAccount(got, acct) {
			t.Errorf("%s = %+v, want %+v", name, got, acct)
		}
	}

	byHash, err := e.s.KeyByHash(e.ctx, first.Hash)
	must(t, err)
	if byHash.ID != key.ID || byHash.AccountID != acct.ID {
		t.Errorf("KeyByHash = %+v, want key %d of account %d", byHash, key.ID, acct.ID)
	}
	if bal := e.balance(acct.ID); bal != 1000 {
		t.Errorf("balance = %d, want 1000", bal)
	}
	ledger := e.ledger(acct.ID)
	if len(ledger) != 1 {
		t.Fatalf("ledger has %d rows, want 1: %+v", len(ledger), ledger)
	}
	if l := ledger[0]; l.Delta != 1000 || l.Balance != 1000 || l.Reason != "signup_grant" || !l.CreatedAt.Equal(t0) {
		t.Errorf("signup ledger row = %+v", l)
	}
}

func testDuplicateEmail(t *testing.T, e *env) {
	acct, _ := e.signup(10)
	second := newKey()
	_, _, err := e.s.CreateAccount(e.ctx, store.NewAccount{
		Email: acct.Email, PasswordHash: "x", Plan: "free", WebhookSecret: "whsec_1", InitialCredits: 10, Now: t0,
	}, second)
	wantErr(t, err, errs.KindConflict)
	_, err = e.s.KeyByHash(e.ctx, second.Hash)
	wantErr(t, err, errs.KindNotFound)
	if bal := e.balance(acct.ID); bal != 10 {
		t.Errorf("first account's balance = %d, want 10", bal)
	}
}

// testSignupAtomic makes the first key fail (its hash is taken) and checks
// that neither the account nor its grant was left behind.
func testSignupAtomic(t *testing.T, e *env) {
	_, taken := e.signup(10)
	dup := newKey()
	dup.Hash = taken.Hash
	_, _, err := e.s.CreateAccount(e.ctx, store.NewAccount{
		Email: "bob@example.com", PasswordHash: "x", Plan: "free", WebhookSecret: "whsec_1", InitialCredits: 10, Now: t0,
	}, dup)
	if err == nil {
		t.Fatal("CreateAccount with a taken key hash succeeded")
	}
	_, err = e.s.AccountByEmail(e.ctx, "bob@example.com")
	wantErr(t, err, errs.KindNotFound)
	// The e-mail is still free: nothing of the failed sign-up remains.
	acct, _, err := e.s.CreateAccount(e.ctx, store.NewAccount{
		Email: "bob@example.com", PasswordHash: "x", Plan: "free", WebhookSecret: "whsec_1", InitialCredits: 10, Now: t0,
	}, newKey())
	must(t, err)
	if n := len(e.ledger(acct.ID)); n != 1 {
		t.Errorf("ledger has %d rows after a clean sign-up, want 1", n)
	}
}

func testUnknownAccount(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	_, err := e.s.AccountByID(e.ctx, acct.ID+1000)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.AccountByEmail(e.ctx, "nobody@example.com")
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.Balance(e.ctx, acct.ID+1000)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.KeyByHash(e.ctx, newKey().Hash)
	wantErr(t, err, errs.KindNotFound)
}

func testSetWebhookSecret(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	other, _ := e.signup(1)
	must(t, e.s.SetWebhookSecret(e.ctx, acct.ID, "whsec_new"))
	got, err := e.s.AccountByID(e.ctx, acct.ID)
	must(t, err)
	if got.WebhookSecret != "whsec_new" {
		t.Errorf("WebhookSecret = %q, want whsec_new", got.WebhookSecret)
	}
	untouched, err := e.s.AccountByID(e.ctx, other.ID)
	must(t, err)
	if untouched.WebhookSecret != other.WebhookSecret {
		t.Errorf("another account's secret changed to %q", untouched.WebhookSecret)
	}
	wantErr(t, e.s.SetWebhookSecret(e.ctx, other.ID+1000, "whsec_x"), errs.KindNotFound)
}

// sameAccount compares accounts, times with Equal.
func sameAccount(a, b store.Account) bool {
	return a.ID == b.ID && a.Email == b.Email && a.PasswordHash == b.PasswordHash && a.Plan == b.Plan &&
		a.WebhookSecret == b.WebhookSecret && a.CreatedAt.Equal(b.CreatedAt)
}
