package storetest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var deleteTests = []test{
	{"Delete/ErasesEverything", testDeleteErasesEverything},
	{"Delete/OwnedOrgWithMembersIsConflict", testDeleteBlockedByOrg},
	{"Delete/UnknownAndWalletsAreNotFound", testDeleteNotAPerson},
	{"Delete/CallsInFlight", testDeleteCallsInFlight},
	{"Accounts/OAuthLogin", testOAuthAccounts},
	{"Jobs/PayerIsRefunded", testJobPayer},
	{"Usage/Count", testCountUsage},
}

// fill gives the account a bit of everything DeleteAccount must erase:
// usage, ledger rows, an idempotency record, a finished job with a
// delivery and its log, a queued job, a forwarder. It returns the queued
// job's id.
func (e *env) fill(key store.Key) string {
	e.t.Helper()
	acct := key.AccountID
	e.charge(key, 2, t0)
	e.insertUsage(usageRow(e.requestID(), key, t0), usageRow(e.requestID(), key, t0.Add(time.Second)))
	if _, started := e.begin(acct, "idem-1", []byte("hash"), t0, t0.Add(time.Hour)); !started {
		e.t.Fatal("BeginIdempotent did not start")
	}
	done := e.createJob(key, 1, t0)
	_, err := e.s.FinishJob(e.ctx, store.JobOutcome{JobID: done.ID, Status: store.JobCompleted, Result: jobInput,
		Delivery: &store.WebhookDelivery{EventID: done.ID, URL: "https://hooks.example.com/in", Payload: []byte(`{}`)}, Now: t0})
	must(e.t, err)
	d := e.getJob(done.ID).DeliveryID
	e.finishAttempt(d, store.DeliveryDead, 1, 500, "boom", t0)
	queued := e.createJob(key, 1, t0)
	e.createForwarder(store.Forwarder{AccountID: acct, Endpoint: "https://otel.example.com/v1/traces", CreatedAt: t0})
	return queued.ID
}

func testDeleteErasesEverything(t *testing.T, e *env) {
	acct, key := e.signup(100)
	other, otherKey := e.signup(100)
	queued := e.fill(key)
	otherQueued := e.fill(otherKey)

	solo, err := e.s.CreateOrg(e.ctx, acct.ID, "Solo", t0)
	must(t, err)
	orgKey := newKey()
	orgKey.OrgID = solo.ID
	orgKey = e.createKey(acct.ID, orgKey)
	e.insertUsage(usageRow(e.requestID(), store.Key{ID: orgKey.ID, AccountID: solo.WalletAccountID}, t0))

	team, err := e.s.CreateOrg(e.ctx, other.ID, "Team", t0)
	must(t, err)
	_, err = e.s.AddOrgMember(e.ctx, team.ID, acct.ID, store.RoleMember, t0)
	must(t, err)
	teamKey := newKey()
	teamKey.OrgID = team.ID
	teamKey = e.createKey(acct.ID, teamKey)

	del, err := e.s.DeleteAccount(e.ctx, acct.ID)
	must(t, err)
	if !slices.Equal(del.CancelledJobs, []string{queued}) || !slices.Equal(del.DeletedOrgs, []int64{solo.ID}) ||
		!slices.Equal(del.LeftOrgs, []int64{solo.ID, team.ID}) {
		t.Errorf("Deletion = %+v, want cancelled [%s], deleted orgs [%d], left [%d %d]", del, queued, solo.ID, solo.ID, team.ID)
	}

	notFound := func(what string, err error) {
		t.Helper()
		if !errs.Is(err, errs.KindNotFound) {
			t.Errorf("%s after deletion: %v, want not found", what, err)
		}
	}
	_, err = e.s.AccountByID(e.ctx, acct.ID)
	notFound("AccountByID", err)
	_, err = e.s.AccountByEmail(e.ctx, acct.Email)
	notFound("AccountByEmail", err)
	for _, k := range []store.Key{key, orgKey, teamKey} {
		_, err = e.s.KeyByHash(e.ctx, k.Hash)
		notFound("KeyByHash", err)
	}
	_, err = e.s.GetJob(e.ctx, queued)
	notFound("GetJob", err)
	_, err = e.s.OrgByID(e.ctx, solo.ID)
	notFound("OrgByID(solo org)", err)
	_, err = e.s.AccountByID(e.ctx, solo.WalletAccountID)
	notFound("AccountByID(solo org's wallet)", err)
	for _, id := range []int64{acct.ID, solo.WalletAccountID} {
		if n, err := e.s.CountUsage(e.ctx, id); err != nil || n != 0 {
			t.Errorf("CountUsage(%d) = %d, %v; want 0", id, n, err)
		}
		if l := e.ledger(id); len(l) != 0 {
			t.Errorf("ledger of %d: %d rows left", id, len(l))
		}
		if jobs, err := e.s.ListJobs(e.ctx, id, 100, 0); err != nil || len(jobs) != 0 {
			t.Errorf("ListJobs(%d) = %d jobs, %v", id, len(jobs), err)
		}
		if ds := e.deliveries(id); len(ds) != 0 {
			t.Errorf("deliveries of %d: %d left", id, len(ds))
		}
		if fs := e.listForwarders(id); len(fs) != 0 {
			t.Errorf("forwarders of %d: %d left", id, len(fs))
		}
	}
	if pending, err := e.s.PendingDeliveries(e.ctx, 0); err != nil {
		t.Fatal(err)
	} else {
		for _, d := range pending {
			if d.AccountID == acct.ID {
				t.Errorf("a pending delivery of the deleted account is left: %+v", d)
			}
		}
	}
	if _, started := e.begin(acct.ID, "idem-1", []byte("other"), t0, t0.Add(time.Hour)); !started {
		t.Error("the deleted account's idempotency record is still live")
	}
	members, err := e.s.OrgMembers(e.ctx, team.ID)
	must(t, err)
	if len(members) != 1 || members[0].AccountID != other.ID {
		t.Errorf("team members after deletion = %+v, want only the owner", members)
	}

	// The other account is untouched.
	if n, err := e.s.CountUsage(e.ctx, other.ID); err != nil || n != 2 {
		t.Errorf("other account's usage = %d, %v; want 2", n, err)
	}
	if got := e.getJob(otherQueued); got.Status != store.JobQueued {
		t.Errorf("other account's queued job = %+v", got)
	}
	if _, err := e.s.KeyByHash(e.ctx, otherKey.Hash); err != nil {
		t.Errorf("other account's key: %v", err)
	}
	if fs := e.listForwarders(other.ID); len(fs) != 1 {
		t.Errorf("other account's forwarders = %d, want 1", len(fs))
	}

	// The address is free again.
	_, _, err = e.s.CreateAccount(e.ctx, store.NewAccount{Email: acct.Email, PasswordHash: "x", Plan: "free",
		WebhookSecret: "whsec_00", Now: t0}, newKey())
	must(t, err)
}

func testDeleteBlockedByOrg(t *testing.T, e *env) {
	owner, key := e.signup(100)
	member, _ := e.signup(100)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme Research", t0)
	must(t, err)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, member.ID, store.RoleAdmin, t0)
	must(t, err)
	e.insertUsage(usageRow(e.requestID(), key, t0))

	_, err = e.s.DeleteAccount(e.ctx, owner.ID)
	if !errs.Is(err, errs.KindConflict) || !strings.Contains(err.Error(), "Acme Research") {
		t.Fatalf("DeleteAccount(owner of a team) = %v, want a conflict naming the org", err)
	}
	if _, err := e.s.KeyByHash(e.ctx, key.Hash); err != nil {
		t.Errorf("a refused deletion changed the keys: %v", err)
	}
	if n, _ := e.s.CountUsage(e.ctx, owner.ID); n != 1 {
		t.Errorf("a refused deletion changed the usage log: %d rows", n)
	}

	// Once ownership moves, the old owner (now an admin) can go.
	_, err = e.s.TransferOrg(e.ctx, org.ID, member.ID)
	must(t, err)
	del, err := e.s.DeleteAccount(e.ctx, owner.ID)
	must(t, err)
	if len(del.DeletedOrgs) != 0 || !slices.Equal(del.LeftOrgs, []int64{org.ID}) {
		t.Errorf("Deletion = %+v, want the org left, not deleted", del)
	}
	if got, err := e.s.OrgByID(e.ctx, org.ID); err != nil || got.OwnerAccountID != member.ID {
		t.Errorf("OrgByID after the old owner left = %+v, %v", got, err)
	}
}

func testDeleteNotAPerson(t *testing.T, e *env) {
	owner, _ := e.signup(100)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	for _, id := range []int64{org.WalletAccountID, owner.ID + 1000} {
		if _, err := e.s.DeleteAccount(e.ctx, id); !errs.Is(err, errs.KindNotFound) {
			t.Errorf("DeleteAccount(%d) = %v, want not found", id, err)
		}
	}
	if _, err := e.s.AccountByID(e.ctx, org.WalletAccountID); err != nil {
		t.Errorf("the wallet is gone after a refused deletion: %v", err)
	}
}

// testDeleteCallsInFlight: a call reserved before the deletion cannot
// charge the erased account afterwards, nor log under it, and new calls
// are refused.
func testDeleteCallsInFlight(t *testing.T, e *env) {
	acct, key := e.signup(100)
	r := e.reservation(key, 5, t0)
	e.reserve(r)
	_, err := e.s.DeleteAccount(e.ctx, acct.ID)
	must(t, err)
	if _, err := e.s.Settle(e.ctx, store.Settlement{RequestID: r.RequestID, Charged: 5, Endpoint: "/v1/scrape", Now: t0}); err == nil {
		t.Error("Settle of a deleted account's call succeeded")
	}
	if l := e.ledger(acct.ID); len(l) != 0 {
		t.Errorf("ledger rows after deletion: %+v", l)
	}
	if err := e.s.Reserve(e.ctx, e.reservation(key, 1, t0)); err == nil {
		t.Error("Reserve for a deleted account succeeded")
	}
	// The usage row of a call that finishes after the deletion is dropped.
	e.insertUsage(usageRow(e.requestID(), key, t0))
	if n, err := e.s.CountUsage(e.ctx, acct.ID); err != nil || n != 0 {
		t.Errorf("usage of a deleted account after the deletion: %d rows, %v", n, err)
	}
}

func testOAuthAccounts(t *testing.T, e *env) {
	acct, _, err := e.s.CreateAccount(e.ctx, store.NewAccount{Email: "oauth@example.com", Login: store.LoginOAuth,
		Plan: "free", WebhookSecret: "whsec_00", Now: t0}, newKey())
	must(t, err)
	got, err := e.s.AccountByID(e.ctx, acct.ID)
	must(t, err)
	if got.Login != store.LoginOAuth || got.Kind != store.AccountUser || got.PasswordHash != "" {
		t.Errorf("OAuth account = %+v", got)
	}
	pw, _ := e.signup(0)
	if pw.Login != store.LoginPassword || pw.Kind != store.AccountUser {
		t.Errorf("password account = %+v", pw)
	}
	for name, bad := range map[string]store.NewAccount{
		"oauth with a password":   {Email: "a@example.com", Login: store.LoginOAuth, PasswordHash: "x"},
		"password without a hash": {Email: "b@example.com"},
		"unknown login":           {Email: "c@example.com", Login: "saml", PasswordHash: "x"},
		"not an address":          {Email: "org:1", PasswordHash: "x"},
	} {
		bad.Plan, bad.WebhookSecret, bad.Now = "free", "whsec_00", t0
		if _, _, err := e.s.CreateAccount(e.ctx, bad, newKey()); !errs.Is(err, errs.KindInvalid) {
			t.Errorf("CreateAccount(%s) = %v, want invalid", name, err)
		}
	}
}

// testJobPayer: a job charged to an org's wallet is refunded there.
func testJobPayer(t *testing.T, e *env) {
	acct, key := e.signup(100)
	org, err := e.s.CreateOrg(e.ctx, acct.ID, "Acme", t0)
	must(t, err)
	j, err := e.s.CreateJob(e.ctx, store.Job{ID: newJobID(), AccountID: acct.ID, KeyID: key.ID, PayerID: org.WalletAccountID,
		Kind: "scrape", Input: jobInput, Credits: 3, CreatedAt: t0})
	must(t, err)
	if j.PayerID != org.WalletAccountID || j.Payer() != org.WalletAccountID {
		t.Errorf("CreateJob payer = %d, want %d", j.PayerID, org.WalletAccountID)
	}
	_, err = e.s.FinishJob(e.ctx, store.JobOutcome{JobID: j.ID, Status: store.JobFailed, Error: "x", Refund: 3, Now: t0})
	must(t, err)
	if got := e.balance(org.WalletAccountID); got != 3 {
		t.Errorf("wallet balance after the refund = %d, want 3", got)
	}
	if got := e.balance(acct.ID); got != 100 {
		t.Errorf("member's balance after the org's refund = %d, want 100", got)
	}
	own := e.createJob(key, 0, t0)
	if own.PayerID != 0 || own.Payer() != acct.ID {
		t.Errorf("a personal job's payer = %d (%d)", own.PayerID, own.Payer())
	}
}

func testCountUsage(t *testing.T, e *env) {
	_, key := e.signup(0)
	_, other := e.signup(0)
	for i := range 5 {
		e.insertUsage(usageRow(e.requestID(), key, t0.Add(time.Duration(i)*time.Second)))
	}
	e.insertUsage(usageRow(e.requestID(), other, t0))
	if n, err := e.s.CountUsage(e.ctx, key.AccountID); err != nil || n != 5 {
		t.Errorf("CountUsage = %d, %v; want 5", n, err)
	}
}
