package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var keyTests = []test{
	{"Keys/CreateAndLookup", testCreateKey},
	{"Keys/ScopedToAccount", testKeyScoping},
	{"Keys/Update", testUpdateKey},
	{"Keys/Revoke", testRevokeKey},
	{"Keys/Rotate", testRotateKey},
	{"Keys/SetPasswordRevokesSessions", testSetPasswordRevokesSessions},
	{"Keys/ScopeStoredAndKeptByRotation", testKeyScope},
	{"Keys/TouchKeepsTheLatestUse", testTouchKey},
	{"Keys/KeyAndAccountInOneLookup", testKeyAndAccount},
}

func testKeyAndAccount(t *testing.T, e *env) {
	acct, first := e.signup(1)
	k, a, err := e.s.KeyAndAccount(e.ctx, first.Hash)
	must(t, err)
	want, err := e.s.AccountByID(e.ctx, acct.ID)
	must(t, err)
	if !sameKey(k, first) || a.ID != want.ID || a.Email != want.Email || a.Plan != want.Plan ||
		a.PasswordHash != want.PasswordHash || a.WebhookSecret != want.WebhookSecret || !a.CreatedAt.Equal(want.CreatedAt) {
		t.Fatalf("KeyAndAccount = %+v, %+v; want %+v, %+v", k, a, first, want)
	}
	if _, _, err := e.s.KeyAndAccount(e.ctx, newKey().Hash); !errs.Is(err, errs.KindNotFound) {
		t.Fatalf("unknown hash: %v, want not found", err)
	}
}

func testKeyScope(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	if k := e.createKey(acct.ID, newKey()); k.Scope != store.ScopeAPI {
		t.Errorf("a key created without a scope has scope %q, want api", k.Scope)
	}
	full := newKey()
	full.Scope = store.ScopeFull
	k := e.createKey(acct.ID, full)
	if got, err := e.s.KeyByHash(e.ctx, full.Hash); err != nil || got.Scope != store.ScopeFull || k.Scope != store.ScopeFull {
		t.Fatalf("scope full: created %q, looked up %q (%v)", k.Scope, got.Scope, err)
	}
	rotated, err := e.s.RotateKey(e.ctx, acct.ID, k.ID, newKey(), t0.Add(time.Hour))
	if err != nil || rotated.Scope != store.ScopeFull {
		t.Fatalf("rotation: scope %q, %v", rotated.Scope, err)
	}
	bad := newKey()
	bad.Scope = "admin"
	bad.AccountID = acct.ID
	if _, err := e.s.CreateKey(e.ctx, bad); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("unknown scope: %v, want invalid", err)
	}
}

func testTouchKey(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	k := e.createKey(acct.ID, newKey())
	if !k.LastUsedAt.IsZero() {
		t.Fatalf("a new key was used at %s", k.LastUsedAt)
	}
	must(t, e.s.TouchKey(e.ctx, k.ID, t0.Add(2*time.Minute)))
	must(t, e.s.TouchKey(e.ctx, k.ID, t0.Add(time.Minute))) // an older touch arriving late
	got, err := e.s.KeyByHash(e.ctx, k.Hash)
	if err != nil || !got.LastUsedAt.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("last used %s, want %s (%v)", got.LastUsedAt, t0.Add(2*time.Minute), err)
	}
}

// sameKey compares keys, times with Equal.
func sameKey(a, b store.Key) bool {
	return a.ID == b.ID && a.AccountID == b.AccountID && bytes.Equal(a.Hash, b.Hash) && a.Prefix == b.Prefix &&
		a.Kind == b.Kind && a.Scope == b.Scope && a.Label == b.Label && a.ProjectTag == b.ProjectTag &&
		a.DailyCapCredits == b.DailyCapCredits && a.OrgID == b.OrgID &&
		a.CreatedAt.Equal(b.CreatedAt) && a.RevokedAt.Equal(b.RevokedAt)
}

func testCreateKey(t *testing.T, e *env) {
	acct, first := e.signup(1)
	k := newKey()
	k.ID = 9999 // ignored
	k.Kind = store.KeyDashboard
	k.Label = "ci"
	k.ProjectTag = "crawler"
	k.DailyCapCredits = 50
	k.Scope = store.ScopeFull
	key := e.createKey(acct.ID, k)
	if key.ID == 0 || key.ID == 9999 || key.ID == first.ID {
		t.Errorf("CreateKey assigned id %d", key.ID)
	}
	want := k
	want.ID, want.AccountID, want.CreatedAt = key.ID, acct.ID, key.CreatedAt
	if !sameKey(key, want) || !key.Active() || key.CreatedAt.IsZero() {
		t.Errorf("CreateKey = %+v, want %+v", key, want)
	}
	got, err := e.s.KeyByHash(e.ctx, k.Hash)
	must(t, err)
	if !sameKey(got, key) {
		t.Errorf("KeyByHash = %+v, want %+v", got, key)
	}

	dup := newKey()
	dup.Hash = k.Hash
	dup.AccountID = acct.ID
	if _, err := e.s.CreateKey(e.ctx, dup); err == nil {
		t.Error("CreateKey with a taken hash succeeded")
	}

	keys, err := e.s.ListKeys(e.ctx, acct.ID)
	must(t, err)
	if len(keys) != 2 || keys[0].ID != first.ID || !sameKey(keys[1], key) {
		t.Errorf("ListKeys = %+v, want the first key then %+v", keys, key)
	}
	other, _ := e.signup(1)
	keys, err = e.s.ListKeys(e.ctx, other.ID)
	must(t, err)
	if len(keys) != 1 || keys[0].AccountID != other.ID {
		t.Errorf("ListKeys(other) = %+v, want only its own key", keys)
	}
}

// testKeyScoping checks that another account's key is not found by the
// calls that take an account id, and stays unchanged.
func testKeyScoping(t *testing.T, e *env) {
	mallory, _ := e.signup(1)
	_, victimKey := e.signup(1)
	now := t0.Add(time.Minute)
	_, err := e.s.UpdateKey(e.ctx, mallory.ID, victimKey.ID, store.KeyUpdate{Label: ptr("pwned")})
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.RevokeKey(e.ctx, mallory.ID, victimKey.ID, now)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.RotateKey(e.ctx, mallory.ID, victimKey.ID, newKey(), now)
	wantErr(t, err, errs.KindNotFound)
	n, err := e.s.SetPassword(e.ctx, mallory.ID, "new-hash", 0, now)
	must(t, err)
	if n != 0 { // mallory has no dashboard session; the victim's keys are not hers
		t.Errorf("SetPassword(mallory) revoked %d keys, want 0", n)
	}
	got, err := e.s.KeyByHash(e.ctx, victimKey.Hash)
	must(t, err)
	if !sameKey(got, victimKey) {
		t.Errorf("victim's key changed: %+v, want %+v", got, victimKey)
	}
	_, err = e.s.UpdateKey(e.ctx, mallory.ID, victimKey.ID+1000, store.KeyUpdate{})
	wantErr(t, err, errs.KindNotFound)
}

func testUpdateKey(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	k := newKey()
	k.Label, k.ProjectTag, k.DailyCapCredits = "old", "tag", 100
	key := e.createKey(acct.ID, k)

	steps := []struct {
		name      string
		update    store.KeyUpdate
		label     string
		tag       string
		dailyCaps int64
	}{
		{"nothing", store.KeyUpdate{}, "old", "tag", 100},
		{"label", store.KeyUpdate{Label: ptr("new")}, "new", "tag", 100},
		{"tag and cap", store.KeyUpdate{ProjectTag: ptr("other"), DailyCapCredits: ptr(int64(7))}, "new", "other", 7},
		{"clear tag", store.KeyUpdate{ProjectTag: ptr("")}, "new", "", 7},
		{"remove cap", store.KeyUpdate{DailyCapCredits: ptr(int64(0))}, "new", "", 0},
	}
	for _, st := range steps {
		got, err := e.s.UpdateKey(e.ctx, acct.ID, key.ID, st.update)
		must(t, err)
		if got.Label != st.label || got.ProjectTag != st.tag || got.DailyCapCredits != st.dailyCaps {
			t.Errorf("%s: got label %q tag %q cap %d, want %q %q %d",
				st.name, got.Label, got.ProjectTag, got.DailyCapCredits, st.label, st.tag, st.dailyCaps)
		}
		stored, err := e.s.KeyByHash(e.ctx, k.Hash)
		must(t, err)
		if !sameKey(stored, got) {
			t.Errorf("%s: stored %+v, returned %+v", st.name, stored, got)
		}
	}
}

func testRevokeKey(t *testing.T, e *env) {
	acct, key := e.signup(1)
	first, second := t0.Add(time.Minute), t0.Add(time.Hour)
	got, err := e.s.RevokeKey(e.ctx, acct.ID, key.ID, first)
	must(t, err)
	if got.Active() || !got.RevokedAt.Equal(first) {
		t.Errorf("RevokeKey: RevokedAt = %v, want %v", got.RevokedAt, first)
	}
	got, err = e.s.RevokeKey(e.ctx, acct.ID, key.ID, second)
	must(t, err)
	if !got.RevokedAt.Equal(first) {
		t.Errorf("second RevokeKey moved RevokedAt to %v, want %v", got.RevokedAt, first)
	}
	byHash, err := e.s.KeyByHash(e.ctx, key.Hash) // revoked keys are still found
	must(t, err)
	if byHash.Active() || !byHash.RevokedAt.Equal(first) {
		t.Errorf("KeyByHash(revoked) = %+v", byHash)
	}
	keys, err := e.s.ListKeys(e.ctx, acct.ID)
	must(t, err)
	if len(keys) != 1 || keys[0].Active() {
		t.Errorf("ListKeys = %+v, want the one revoked key", keys)
	}
}

func testRotateKey(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	org, err := e.s.CreateOrg(e.ctx, acct.ID, "Acme", t0)
	must(t, err)
	k := newKey()
	k.Kind, k.Label, k.ProjectTag, k.DailyCapCredits, k.OrgID = store.KeyDashboard, "ci", "crawler", 40, org.ID
	old := e.createKey(acct.ID, k)

	repl := newKey()
	repl.Label, repl.ProjectTag, repl.DailyCapCredits, repl.Kind = "ignored", "ignored", 1, store.KeyDeveloper
	now := t0.Add(time.Hour)
	fresh, err := e.s.RotateKey(e.ctx, acct.ID, old.ID, repl, now)
	must(t, err)
	if fresh.ID == old.ID || fresh.AccountID != acct.ID || !bytes.Equal(fresh.Hash, repl.Hash) || fresh.Prefix != repl.Prefix {
		t.Errorf("RotateKey = %+v", fresh)
	}
	if fresh.Kind != old.Kind || fresh.Label != "ci" || fresh.ProjectTag != "crawler" ||
		fresh.DailyCapCredits != 40 || fresh.OrgID != org.ID || !fresh.Active() {
		t.Errorf("rotated key did not inherit the old settings: %+v", fresh)
	}
	stored, err := e.s.KeyByHash(e.ctx, repl.Hash)
	must(t, err)
	if !sameKey(stored, fresh) {
		t.Errorf("stored %+v, returned %+v", stored, fresh)
	}
	gone, err := e.s.KeyByHash(e.ctx, old.Hash)
	must(t, err)
	if !gone.RevokedAt.Equal(now) {
		t.Errorf("old key RevokedAt = %v, want %v", gone.RevokedAt, now)
	}

	again := newKey()
	_, err = e.s.RotateKey(e.ctx, acct.ID, old.ID, again, now)
	wantErr(t, err, errs.KindConflict)
	_, err = e.s.KeyByHash(e.ctx, again.Hash)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.RotateKey(e.ctx, acct.ID, fresh.ID+1000, newKey(), now)
	wantErr(t, err, errs.KindNotFound)
}

func testSetPasswordRevokesSessions(t *testing.T, e *env) {
	acct, dev := e.signup(1)
	other, _ := e.signup(1)
	dash := func(accountID int64) store.Key {
		k := newKey()
		k.Kind = store.KeyDashboard
		return e.createKey(accountID, k)
	}
	d1, d2, d3 := dash(acct.ID), dash(acct.ID), dash(acct.ID)
	otherDash := dash(other.ID)
	early, now := t0.Add(time.Minute), t0.Add(time.Hour)
	_, err := e.s.RevokeKey(e.ctx, acct.ID, d3.ID, early)
	must(t, err)

	n, err := e.s.SetPassword(e.ctx, acct.ID, "$argon2id$new", d2.ID, now)
	must(t, err)
	if n != 1 {
		t.Errorf("SetPassword revoked %d sessions, want 1 (d1; d2 kept, d3 already revoked)", n)
	}
	got, err := e.s.AccountByID(e.ctx, acct.ID)
	must(t, err)
	if got.PasswordHash != "$argon2id$new" {
		t.Errorf("password hash = %q", got.PasswordHash)
	}
	_, err = e.s.SetPassword(e.ctx, 1<<40, "x", 0, now)
	wantErr(t, err, errs.KindNotFound)
	want := map[int64]time.Time{dev.ID: {}, d1.ID: now, d2.ID: {}, d3.ID: early}
	keys, err := e.s.ListKeys(e.ctx, acct.ID)
	must(t, err)
	for _, k := range keys {
		if !k.RevokedAt.Equal(want[k.ID]) {
			t.Errorf("key %d RevokedAt = %v, want %v", k.ID, k.RevokedAt, want[k.ID])
		}
	}
	still, err := e.s.KeyByHash(e.ctx, otherDash.Hash)
	must(t, err)
	if !still.Active() {
		t.Error("another account's dashboard key was revoked")
	}
	n, err = e.s.SetPassword(e.ctx, acct.ID, "$argon2id$newer", d2.ID, now)
	must(t, err)
	if n != 0 {
		t.Errorf("second SetPassword revoked %d, want 0", n)
	}
}
