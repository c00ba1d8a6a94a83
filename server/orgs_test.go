package server_test

import (
	"strings"
	"testing"
)

type orgView struct {
	OrgID   int64  `json:"org_id"`
	Name    string `json:"name"`
	Role    string `json:"role"`
	Owner   bool   `json:"owner"`
	Credits int64  `json:"credits"`
	Members []struct {
		AccountID int64  `json:"account_id"`
		Email     string `json:"email"`
		Role      string `json:"role"`
	} `json:"members"`
}

// member returns the account id of the member with the e-mail.
func (o orgView) member(t *testing.T, email string) int64 {
	t.Helper()
	for _, m := range o.Members {
		if m.Email == email {
			return m.AccountID
		}
	}
	t.Fatalf("%s is not a member of %+v", email, o)
	return 0
}

func (e *env) org(key string, id int64) orgView {
	e.t.Helper()
	var o orgView
	e.want(e.call("GET", "/v1/orgs/"+itoa(id), key, nil), 200).json(e.t, &o)
	return o
}

// An org key's calls spend the org's credits and show in the org's usage,
// not the member's; roles decide who manages what; leaving revokes the
// member's org keys; ownership moves by transfer.
func TestOrganizations(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver)
		owner := e.signup("owner@example.com")
		member := e.signup("member@example.com")
		stranger := e.signup("stranger@example.com")

		var created orgView
		e.want(e.call("POST", "/v1/orgs", owner, map[string]string{"name": "Acme"}), 200).json(t, &created)
		if created.Role != "owner" || !created.Owner {
			t.Fatalf("created org = %+v", created)
		}
		org := "/v1/orgs/" + itoa(created.OrgID)

		e.want(e.call("POST", org+"/members", owner, map[string]string{"email": "member@example.com"}), 200)
		e.want(e.call("POST", org+"/members", owner, map[string]string{"email": "member@example.com"}), 409)
		e.want(e.call("POST", org+"/members", owner, map[string]string{"email": "nobody@example.com"}), 404)
		e.want(e.call("POST", org+"/members", member, map[string]string{"email": "stranger@example.com"}), 403)
		e.want(e.call("GET", org, stranger, nil), 404)
		e.want(e.call("POST", "/v1/keys", stranger, map[string]any{"org_id": created.OrgID}), 403)

		var minted struct {
			APIKey string `json:"api_key"`
		}
		e.want(e.call("POST", "/v1/keys", member, map[string]any{"org_id": created.OrgID, "label": "team"}), 200).json(t, &minted)
		orgKey := minted.APIKey

		// An empty org cannot pay; the owner funds it from their own balance.
		contacts := map[string]string{"text": "write to sales@example.com"}
		e.want(e.call("POST", "/v1/extract/contacts", orgKey, contacts), 402)
		e.want(e.call("POST", org+"/credits", owner, map[string]int64{"credits": 5000}), 402)
		e.want(e.call("POST", org+"/credits", owner, map[string]int64{"credits": 10}), 200)
		if got := e.balance(owner); got != 990 {
			t.Errorf("owner's balance after funding = %d, want 990", got)
		}
		r := e.want(e.call("POST", "/v1/extract/contacts", orgKey, contacts), 200)
		if got := r.header.Get("X-Credits-Balance"); got != "9" {
			t.Errorf("org call's x-credits-balance = %s, want the org's 9", got)
		}
		if got := e.balance(member); got != 1000 {
			t.Errorf("member's own balance = %d, want 1000", got)
		}
		e.flushUsage()
		var usage struct {
			Rows []struct {
				Endpoint string `json:"endpoint"`
			} `json:"rows"`
		}
		e.want(e.call("GET", org+"/usage", owner, nil), 200).json(t, &usage)
		if len(usage.Rows) != 2 || usage.Rows[0].Endpoint != "/v1/extract/contacts" { // the refused call and the paid one
			t.Errorf("org usage = %+v, want the org key's two calls", usage.Rows)
		}
		e.want(e.call("GET", org+"/usage?limit=1", owner, nil), 200).json(t, &usage)
		if len(usage.Rows) != 1 {
			t.Errorf("org usage with limit=1 = %d rows", len(usage.Rows))
		}
		if csv := e.want(e.call("GET", org+"/usage?format=csv", owner, nil), 200); !strings.HasPrefix(string(csv.body), "created_at,endpoint") {
			t.Errorf("org usage as CSV = %.80s", csv.body)
		}
		e.want(e.call("GET", org+"/usage", member, nil), 403)
		e.want(e.call("GET", "/v1/me/usage", member, nil), 200).json(t, &usage)
		for _, row := range usage.Rows {
			if row.Endpoint == "/v1/extract/contacts" {
				t.Error("the org key's call shows in the member's own usage")
			}
		}
		var ledger struct {
			Balance int64 `json:"balance"`
			Ledger  []struct {
				Reason string `json:"reason"`
			} `json:"ledger"`
		}
		e.want(e.call("GET", org+"/credits", owner, nil), 200).json(t, &ledger)
		if ledger.Balance != 9 || len(ledger.Ledger) != 2 || ledger.Ledger[0].Reason != "charge" || ledger.Ledger[1].Reason != "transfer_in" {
			t.Errorf("org ledger = %+v", ledger)
		}

		// Roles: only the owner changes them; the owner's only by transfer.
		view := e.org(owner, created.OrgID)
		ownerID, memberID := view.member(t, "owner@example.com"), view.member(t, "member@example.com")
		if view.Credits != 9 || len(view.Members) != 2 || view.Members[0].Role != "owner" {
			t.Errorf("org view = %+v", view)
		}
		e.want(e.call("PATCH", org+"/members/"+itoa(memberID), member, map[string]string{"role": "admin"}), 403)
		e.want(e.call("PATCH", org+"/members/"+itoa(ownerID), owner, map[string]string{"role": "member"}), 409)
		e.want(e.call("PATCH", org+"/members/"+itoa(memberID), owner, map[string]string{"role": "admin"}), 200)

		// Transfer: the old owner becomes an admin and can no longer transfer.
		e.want(e.call("POST", org+"/transfer", member, map[string]int64{"account_id": ownerID}), 403)
		e.want(e.call("POST", org+"/transfer", owner, map[string]int64{"account_id": 999999}), 422)
		e.want(e.call("POST", org+"/transfer", owner, map[string]int64{"account_id": memberID}), 200)
		view = e.org(owner, created.OrgID)
		if view.Role != "admin" || view.Owner || view.Members[0].AccountID != memberID {
			t.Errorf("after transfer = %+v", view)
		}
		e.want(e.call("POST", org+"/transfer", owner, map[string]int64{"account_id": memberID}), 403)
		e.want(e.call("DELETE", org+"/members/"+itoa(memberID), member, nil), 409) // the owner cannot leave

		// The new owner's org key keeps working; once the old owner mints
		// one and leaves, that key is refused at once.
		e.want(e.call("POST", "/v1/keys", owner, map[string]any{"org_id": created.OrgID}), 200).json(t, &minted)
		e.want(e.call("POST", "/v1/extract/contacts", minted.APIKey, contacts), 200)
		var removed struct {
			RevokedKeys int `json:"revoked_keys"`
		}
		e.want(e.call("DELETE", org+"/members/"+itoa(ownerID), owner, nil), 200).json(t, &removed)
		if removed.RevokedKeys != 1 {
			t.Errorf("leaving revoked %d keys, want 1", removed.RevokedKeys)
		}
		r = e.want(e.call("POST", "/v1/extract/contacts", minted.APIKey, contacts), 401)
		if !strings.Contains(r.detail(t), "revoked") {
			t.Errorf("a left member's org key: %s", r.body)
		}
		e.want(e.call("POST", "/v1/extract/contacts", orgKey, contacts), 200)
		e.want(e.call("GET", org, owner, nil), 404)
	})
}
