package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var orgTests = []test{
	{"Orgs/CreateWithWallet", testCreateOrgWallet},
	{"Orgs/Membership", testOrgs},
	{"Orgs/AddMembers", testAddOrgMembers},
	{"Orgs/SetRole", testSetOrgRole},
	{"Orgs/RemoveRevokesOnlyThatMembersOrgKeys", testRemoveOrgMember},
	{"Orgs/Transfer", testTransferOrg},
	{"Orgs/ConcurrentTransfersAndRemovals", testOrgConcurrency},
	{"Orgs/MoveCredits", testMoveCredits},
	{"Orgs/MoveCreditsCountsHolds", testMoveCreditsHolds},
	{"Orgs/MoveCreditsConcurrentNeverOverdraws", testMoveCreditsConcurrent},
}

func testCreateOrgWallet(t *testing.T, e *env) {
	owner, _, err := e.s.CreateAccount(e.ctx, store.NewAccount{Email: "boss@example.com", PasswordHash: "$argon2id$x",
		Plan: "pro", WebhookSecret: "whsec_1", InitialCredits: 50, Now: t0}, newKey())
	must(t, err)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	if org.ID == 0 || org.Name != "Acme" || org.OwnerAccountID != owner.ID || !org.CreatedAt.Equal(t0) ||
		org.WalletAccountID == 0 || org.WalletAccountID == owner.ID {
		t.Fatalf("CreateOrg = %+v", org)
	}
	got, err := e.s.OrgByID(e.ctx, org.ID)
	must(t, err)
	if !sameOrg(got, org) {
		t.Errorf("OrgByID = %+v, want %+v", got, org)
	}

	wallet, err := e.s.AccountByID(e.ctx, org.WalletAccountID)
	must(t, err)
	if wallet.Kind != store.AccountOrg || wallet.Plan != "pro" || wallet.Email != fmt.Sprintf("org:%d", org.ID) ||
		wallet.PasswordHash != "" || wallet.WebhookSecret != "" {
		t.Errorf("wallet = %+v, want kind org, plan pro, e-mail org:%d, no password or secret", wallet, org.ID)
	}
	if bal := e.balance(wallet.ID); bal != 0 {
		t.Errorf("wallet balance = %d, want 0", bal)
	}
	if l := e.ledger(wallet.ID); len(l) != 0 {
		t.Errorf("wallet ledger = %+v, want none", l)
	}
	if bal := e.balance(owner.ID); bal != 50 {
		t.Errorf("owner balance = %d, want 50 (a new org takes nothing)", bal)
	}
	if a, err := e.s.AccountByID(e.ctx, owner.ID); err != nil || a.Kind != store.AccountUser {
		t.Errorf("owner kind = %q (%v), want user", a.Kind, err)
	}
	_, err = e.s.AccountByEmail(e.ctx, wallet.Email)
	wantErr(t, err, errs.KindNotFound)

	m, err := e.s.OrgMember(e.ctx, org.ID, owner.ID)
	must(t, err)
	if m.OrgID != org.ID || m.AccountID != owner.ID || m.Email != "boss@example.com" || m.Role != store.RoleOwner || !m.CreatedAt.Equal(t0) {
		t.Errorf("owner membership = %+v", m)
	}
	if ok, err := e.s.IsOrgMember(e.ctx, org.ID, wallet.ID); err != nil || ok {
		t.Errorf("the wallet is a member of its org: %v, %v", ok, err)
	}

	_, err = e.s.CreateOrg(e.ctx, owner.ID, "", t0)
	wantErr(t, err, errs.KindInvalid)
	_, err = e.s.CreateOrg(e.ctx, owner.ID, "   ", t0)
	wantErr(t, err, errs.KindInvalid)
	_, err = e.s.CreateOrg(e.ctx, owner.ID+wallet.ID+1000, "Ghost", t0)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.CreateOrg(e.ctx, wallet.ID, "Nested", t0)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.OrgByID(e.ctx, org.ID+1000)
	wantErr(t, err, errs.KindNotFound)
	orgs, err := e.s.ListOrgs(e.ctx, owner.ID)
	must(t, err)
	if len(orgs) != 1 {
		t.Errorf("failed CreateOrgs left orgs behind: %+v", orgs)
	}

	second, err := e.s.CreateOrg(e.ctx, owner.ID, "Beta", t0)
	must(t, err)
	if second.WalletAccountID == org.WalletAccountID {
		t.Errorf("two orgs share wallet %d", second.WalletAccountID)
	}
}

func testOrgs(t *testing.T, e *env) {
	owner, _ := e.signup(1)
	stranger, _ := e.signup(1)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	if org.ID == 0 || org.Name != "Acme" || org.OwnerAccountID != owner.ID || !org.CreatedAt.Equal(t0) {
		t.Errorf("CreateOrg = %+v", org)
	}
	second, err := e.s.CreateOrg(e.ctx, owner.ID, "Beta", t0)
	must(t, err)

	orgs, err := e.s.ListOrgs(e.ctx, owner.ID)
	must(t, err)
	if len(orgs) != 2 || !sameOrg(orgs[0], org) || !sameOrg(orgs[1], second) {
		t.Errorf("ListOrgs(owner) = %+v, want [%+v %+v]", orgs, org, second)
	}
	orgs, err = e.s.ListOrgs(e.ctx, stranger.ID)
	must(t, err)
	if len(orgs) != 0 {
		t.Errorf("ListOrgs(stranger) = %+v, want none", orgs)
	}

	for _, tc := range []struct {
		name         string
		org, account int64
		want         bool
	}{
		{"owner", org.ID, owner.ID, true},
		{"stranger", org.ID, stranger.ID, false},
		{"unknown org", org.ID + second.ID + 1000, owner.ID, false},
	} {
		got, err := e.s.IsOrgMember(e.ctx, tc.org, tc.account)
		must(t, err)
		if got != tc.want {
			t.Errorf("IsOrgMember(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}

	k := newKey()
	k.OrgID = org.ID
	key := e.createKey(owner.ID, k)
	if key.OrgID != org.ID {
		t.Errorf("org key has OrgID %d, want %d", key.OrgID, org.ID)
	}
	got, err := e.s.KeyByHash(e.ctx, k.Hash)
	must(t, err)
	if got.OrgID != org.ID {
		t.Errorf("KeyByHash(org key).OrgID = %d, want %d", got.OrgID, org.ID)
	}
}

func testAddOrgMembers(t *testing.T, e *env) {
	owner, _ := e.signup(1)
	ann, _ := e.signup(1)
	bob, _ := e.signup(1)
	cat, _ := e.signup(1)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)

	// Bob joins later than Ann but is added first; Cat joins with Ann.
	b, err := e.s.AddOrgMember(e.ctx, org.ID, bob.ID, store.RoleMember, t0.Add(2*time.Minute))
	must(t, err)
	if b.OrgID != org.ID || b.AccountID != bob.ID || b.Email != bob.Email || b.Role != store.RoleMember ||
		!b.CreatedAt.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("AddOrgMember(bob) = %+v", b)
	}
	a, err := e.s.AddOrgMember(e.ctx, org.ID, ann.ID, store.RoleAdmin, t0.Add(time.Minute))
	must(t, err)
	if a.Role != store.RoleAdmin || a.Email != ann.Email {
		t.Errorf("AddOrgMember(ann) = %+v", a)
	}
	_, err = e.s.AddOrgMember(e.ctx, org.ID, cat.ID, store.RoleMember, t0.Add(time.Minute))
	must(t, err)

	got, err := e.s.OrgMember(e.ctx, org.ID, ann.ID)
	must(t, err)
	if got.OrgID != a.OrgID || got.AccountID != a.AccountID || got.Email != a.Email || got.Role != a.Role || !got.CreatedAt.Equal(a.CreatedAt) {
		t.Errorf("OrgMember(ann) = %+v, want %+v", got, a)
	}
	e.wantMembers(org.ID, owner.ID, ann.ID, cat.ID, bob.ID)
	for _, id := range []int64{ann.ID, bob.ID, cat.ID} {
		if ok, err := e.s.IsOrgMember(e.ctx, org.ID, id); err != nil || !ok {
			t.Errorf("IsOrgMember(%d) = %v, %v", id, ok, err)
		}
		if orgs, err := e.s.ListOrgs(e.ctx, id); err != nil || len(orgs) != 1 || !sameOrg(orgs[0], org) {
			t.Errorf("ListOrgs(%d) = %+v, %v", id, orgs, err)
		}
	}

	_, err = e.s.AddOrgMember(e.ctx, org.ID, ann.ID, store.RoleMember, t0)
	wantErr(t, err, errs.KindConflict)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, owner.ID, store.RoleAdmin, t0)
	wantErr(t, err, errs.KindConflict)
	stranger, _ := e.signup(1)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, stranger.ID, store.RoleOwner, t0)
	wantErr(t, err, errs.KindInvalid)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, stranger.ID, "boss", t0)
	wantErr(t, err, errs.KindInvalid)
	_, err = e.s.AddOrgMember(e.ctx, org.ID+1000, stranger.ID, store.RoleMember, t0)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, stranger.ID+1000, store.RoleMember, t0)
	wantErr(t, err, errs.KindNotFound)
	other, err := e.s.CreateOrg(e.ctx, stranger.ID, "Other", t0)
	must(t, err)
	for _, wallet := range []int64{org.WalletAccountID, other.WalletAccountID} {
		_, err = e.s.AddOrgMember(e.ctx, org.ID, wallet, store.RoleMember, t0)
		wantErr(t, err, errs.KindNotFound)
	}
	_, err = e.s.OrgMember(e.ctx, org.ID, stranger.ID)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.OrgMember(e.ctx, org.ID+1000, owner.ID)
	wantErr(t, err, errs.KindNotFound)
	e.wantMembers(org.ID, owner.ID, ann.ID, cat.ID, bob.ID)
	if members, err := e.s.OrgMembers(e.ctx, org.ID+1000); err != nil || len(members) != 0 {
		t.Errorf("OrgMembers(unknown org) = %+v, %v; want none", members, err)
	}
}

func testSetOrgRole(t *testing.T, e *env) {
	owner, _ := e.signup(1)
	ann, _ := e.signup(1)
	stranger, _ := e.signup(1)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, ann.ID, store.RoleMember, t0)
	must(t, err)

	for _, role := range []store.OrgRole{store.RoleAdmin, store.RoleMember, store.RoleAdmin} {
		m, err := e.s.SetOrgRole(e.ctx, org.ID, ann.ID, role)
		must(t, err)
		if m.Role != role || m.AccountID != ann.ID || m.OrgID != org.ID || m.Email != ann.Email || !m.CreatedAt.Equal(t0) {
			t.Errorf("SetOrgRole(%s) = %+v", role, m)
		}
		if got, err := e.s.OrgMember(e.ctx, org.ID, ann.ID); err != nil || got.Role != role {
			t.Errorf("after SetOrgRole(%s): %+v, %v", role, got, err)
		}
	}
	_, err = e.s.SetOrgRole(e.ctx, org.ID, owner.ID, store.RoleAdmin)
	wantErr(t, err, errs.KindConflict)
	_, err = e.s.SetOrgRole(e.ctx, org.ID, ann.ID, store.RoleOwner)
	wantErr(t, err, errs.KindInvalid)
	_, err = e.s.SetOrgRole(e.ctx, org.ID, ann.ID, "root")
	wantErr(t, err, errs.KindInvalid)
	_, err = e.s.SetOrgRole(e.ctx, org.ID, stranger.ID, store.RoleAdmin)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.SetOrgRole(e.ctx, org.ID+1000, ann.ID, store.RoleAdmin)
	wantErr(t, err, errs.KindNotFound)
	if m, err := e.s.OrgMember(e.ctx, org.ID, owner.ID); err != nil || m.Role != store.RoleOwner {
		t.Errorf("owner after refused changes: %+v, %v", m, err)
	}
	if m, err := e.s.OrgMember(e.ctx, org.ID, ann.ID); err != nil || m.Role != store.RoleAdmin {
		t.Errorf("ann after refused changes: %+v, %v", m, err)
	}
}

func testRemoveOrgMember(t *testing.T, e *env) {
	owner, _ := e.signup(1)
	ann, annPersonal := e.signup(1)
	bob, _ := e.signup(1)
	acme, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	beta, err := e.s.CreateOrg(e.ctx, owner.ID, "Beta", t0)
	must(t, err)
	for _, add := range []struct{ org, acct int64 }{{acme.ID, ann.ID}, {acme.ID, bob.ID}, {beta.ID, ann.ID}} {
		_, err := e.s.AddOrgMember(e.ctx, add.org, add.acct, store.RoleMember, t0)
		must(t, err)
	}
	orgKey := func(acct, org int64) store.Key {
		k := newKey()
		k.OrgID = org
		return e.createKey(acct, k)
	}
	annAcme1, annAcme2, annOld := orgKey(ann.ID, acme.ID), orgKey(ann.ID, acme.ID), orgKey(ann.ID, acme.ID)
	annBeta, bobAcme, ownerAcme := orgKey(ann.ID, beta.ID), orgKey(bob.ID, acme.ID), orgKey(owner.ID, acme.ID)
	annOwn := e.createKey(ann.ID, newKey())
	revokedAt := t0.Add(time.Minute)
	_, err = e.s.RevokeKey(e.ctx, ann.ID, annOld.ID, revokedAt)
	must(t, err)

	removedAt := t0.Add(time.Hour)
	n, err := e.s.RemoveOrgMember(e.ctx, acme.ID, ann.ID, removedAt)
	must(t, err)
	if n != 2 {
		t.Errorf("RemoveOrgMember revoked %d keys, want 2", n)
	}
	for _, tc := range []struct {
		name    string
		key     store.Key
		revoked time.Time // zero: still active
	}{
		{"ann's Acme key 1", annAcme1, removedAt},
		{"ann's Acme key 2", annAcme2, removedAt},
		{"ann's Acme key revoked before", annOld, revokedAt},
		{"ann's Beta key", annBeta, time.Time{}},
		{"ann's personal key", annOwn, time.Time{}},
		{"ann's first key", annPersonal, time.Time{}},
		{"bob's Acme key", bobAcme, time.Time{}},
		{"the owner's Acme key", ownerAcme, time.Time{}},
	} {
		got, err := e.s.KeyByHash(e.ctx, tc.key.Hash)
		must(t, err)
		if !got.RevokedAt.Equal(tc.revoked) {
			t.Errorf("%s: revoked at %v, want %v", tc.name, got.RevokedAt, tc.revoked)
		}
	}
	if ok, err := e.s.IsOrgMember(e.ctx, acme.ID, ann.ID); err != nil || ok {
		t.Errorf("ann still a member of Acme: %v, %v", ok, err)
	}
	if ok, err := e.s.IsOrgMember(e.ctx, beta.ID, ann.ID); err != nil || !ok {
		t.Errorf("ann no longer a member of Beta: %v, %v", ok, err)
	}
	if orgs, err := e.s.ListOrgs(e.ctx, ann.ID); err != nil || len(orgs) != 1 || orgs[0].ID != beta.ID {
		t.Errorf("ListOrgs(ann) = %+v, %v; want Beta", orgs, err)
	}
	e.wantMembers(acme.ID, owner.ID, bob.ID)

	_, err = e.s.RemoveOrgMember(e.ctx, acme.ID, ann.ID, removedAt)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.RemoveOrgMember(e.ctx, acme.ID+beta.ID+1000, bob.ID, removedAt)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.RemoveOrgMember(e.ctx, acme.ID, owner.ID, removedAt)
	wantErr(t, err, errs.KindConflict)
	if got, err := e.s.KeyByHash(e.ctx, ownerAcme.Hash); err != nil || !got.Active() {
		t.Errorf("a refused removal revoked the owner's key: %+v, %v", got, err)
	}
	e.wantMembers(acme.ID, owner.ID, bob.ID)

	// A member with no org keys leaves; a removed member may come back.
	_, err = e.s.AddOrgMember(e.ctx, beta.ID, bob.ID, store.RoleAdmin, t0)
	must(t, err)
	if n, err := e.s.RemoveOrgMember(e.ctx, beta.ID, bob.ID, removedAt); err != nil || n != 0 {
		t.Errorf("RemoveOrgMember(bob from Beta) = %d, %v; want 0", n, err)
	}
	if _, err := e.s.AddOrgMember(e.ctx, acme.ID, ann.ID, store.RoleAdmin, removedAt); err != nil {
		t.Errorf("re-adding ann: %v", err)
	}
}

func testTransferOrg(t *testing.T, e *env) {
	owner, _ := e.signup(1)
	ann, _ := e.signup(1)
	bob, _ := e.signup(1)
	stranger, _ := e.signup(1)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, ann.ID, store.RoleAdmin, t0.Add(time.Minute))
	must(t, err)
	_, err = e.s.AddOrgMember(e.ctx, org.ID, bob.ID, store.RoleMember, t0.Add(2*time.Minute))
	must(t, err)

	_, err = e.s.TransferOrg(e.ctx, org.ID, stranger.ID)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.TransferOrg(e.ctx, org.ID, owner.ID)
	wantErr(t, err, errs.KindConflict)
	_, err = e.s.TransferOrg(e.ctx, org.ID+1000, ann.ID)
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.TransferOrg(e.ctx, org.ID, org.WalletAccountID)
	wantErr(t, err, errs.KindNotFound)
	if got, err := e.s.OrgByID(e.ctx, org.ID); err != nil || !sameOrg(got, org) {
		t.Fatalf("refused transfers changed the org: %+v, %v", got, err)
	}

	moved, err := e.s.TransferOrg(e.ctx, org.ID, bob.ID)
	must(t, err)
	want := org
	want.OwnerAccountID = bob.ID
	if !sameOrg(moved, want) {
		t.Errorf("TransferOrg = %+v, want %+v", moved, want)
	}
	if got, err := e.s.OrgByID(e.ctx, org.ID); err != nil || !sameOrg(got, want) {
		t.Errorf("OrgByID after transfer = %+v, %v; want %+v", got, err, want)
	}
	for id, role := range map[int64]store.OrgRole{owner.ID: store.RoleAdmin, ann.ID: store.RoleAdmin, bob.ID: store.RoleOwner} {
		if m, err := e.s.OrgMember(e.ctx, org.ID, id); err != nil || m.Role != role {
			t.Errorf("member %d after transfer: %+v, %v; want role %s", id, m, err, role)
		}
	}
	e.wantMembers(org.ID, bob.ID, owner.ID, ann.ID)

	// The new owner is the owner everywhere; the old one is an admin.
	_, err = e.s.SetOrgRole(e.ctx, org.ID, bob.ID, store.RoleMember)
	wantErr(t, err, errs.KindConflict)
	_, err = e.s.RemoveOrgMember(e.ctx, org.ID, bob.ID, t0)
	wantErr(t, err, errs.KindConflict)
	_, err = e.s.TransferOrg(e.ctx, org.ID, bob.ID)
	wantErr(t, err, errs.KindConflict)
	if _, err := e.s.SetOrgRole(e.ctx, org.ID, owner.ID, store.RoleMember); err != nil {
		t.Errorf("demoting the old owner: %v", err)
	}
	if _, err := e.s.RemoveOrgMember(e.ctx, org.ID, owner.ID, t0); err != nil {
		t.Errorf("removing the old owner: %v", err)
	}
	e.wantMembers(org.ID, bob.ID, ann.ID)
}

// testOrgConcurrency runs transfers to every member at once (each must
// succeed, and one owner must remain), then races a transfer to a member
// against that member's removal (exactly one may win).
func testOrgConcurrency(t *testing.T, e *env) {
	owner, _ := e.signup(1)
	org, err := e.s.CreateOrg(e.ctx, owner.ID, "Acme", t0)
	must(t, err)
	var members []int64
	for range 6 {
		a, _ := e.signup(1)
		_, err := e.s.AddOrgMember(e.ctx, org.ID, a.ID, store.RoleAdmin, t0)
		must(t, err)
		members = append(members, a.ID)
	}
	var wg sync.WaitGroup
	errc := make(chan error, len(members))
	for _, id := range members {
		wg.Go(func() {
			_, err := e.s.TransferOrg(e.ctx, org.ID, id)
			errc <- err
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Errorf("concurrent transfer: %v", err)
		}
	}
	got, err := e.s.OrgByID(e.ctx, org.ID)
	must(t, err)
	all, err := e.s.OrgMembers(e.ctx, org.ID)
	must(t, err)
	owners := 0
	for _, m := range all {
		if m.Role == store.RoleOwner {
			owners++
			if m.AccountID != got.OwnerAccountID {
				t.Errorf("member %d has role owner, the org names %d", m.AccountID, got.OwnerAccountID)
			}
		}
	}
	if owners != 1 || len(all) != 7 || all[0].AccountID != got.OwnerAccountID {
		t.Fatalf("after concurrent transfers: %+v, org %+v", all, got)
	}

	for i, id := range members {
		if id == got.OwnerAccountID {
			continue
		}
		var tErr, rErr error
		var wg sync.WaitGroup
		wg.Go(func() { _, tErr = e.s.TransferOrg(e.ctx, org.ID, id) })
		wg.Go(func() { _, rErr = e.s.RemoveOrgMember(e.ctx, org.ID, id, t0) })
		wg.Wait()
		switch {
		case tErr == nil && errs.Is(rErr, errs.KindConflict):
			if o, err := e.s.OrgByID(e.ctx, org.ID); err != nil || o.OwnerAccountID != id {
				t.Errorf("round %d: transfer won but the owner is %+v, %v", i, o, err)
			}
		case rErr == nil && errs.Is(tErr, errs.KindNotFound):
			if ok, err := e.s.IsOrgMember(e.ctx, org.ID, id); err != nil || ok {
				t.Errorf("round %d: removal won but %d is a member: %v", i, id, err)
			}
		default:
			t.Errorf("round %d: transfer %v, removal %v; want exactly one to win", i, tErr, rErr)
		}
	}
	o, err := e.s.OrgByID(e.ctx, org.ID)
	must(t, err)
	m, err := e.s.OrgMember(e.ctx, org.ID, o.OwnerAccountID)
	if err != nil || m.Role != store.RoleOwner {
		t.Errorf("the org's owner %d: %+v, %v", o.OwnerAccountID, m, err)
	}
}

// wantMembers checks OrgMembers lists exactly these accounts, in order.
func (e *env) wantMembers(orgID int64, accountIDs ...int64) {
	e.t.Helper()
	members, err := e.s.OrgMembers(e.ctx, orgID)
	if err != nil {
		e.t.Fatalf("OrgMembers: %v", err)
	}
	got := make([]int64, len(members))
	for i, m := range members {
		got[i] = m.AccountID
		if m.OrgID != orgID || m.Email == "" || !m.Role.Valid() || (i == 0) != (m.Role == store.RoleOwner) {
			e.t.Errorf("OrgMembers[%d] = %+v", i, m)
		}
	}
	if !slices.Equal(got, accountIDs) {
		e.t.Errorf("OrgMembers = %v, want %v", got, accountIDs)
	}
}

// sameOrg compares orgs, times with Equal.
func sameOrg(a, b store.Org) bool {
	return a.ID == b.ID && a.Name == b.Name && a.OwnerAccountID == b.OwnerAccountID &&
		a.WalletAccountID == b.WalletAccountID && a.CreatedAt.Equal(b.CreatedAt)
}
