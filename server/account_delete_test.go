package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/apikey"
	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store"
)

// cancellations records the subscription hook's calls.
type cancellations struct {
	mu  sync.Mutex
	ids []int64
}

func (c *cancellations) CancelAtPeriodEnd(_ context.Context, a store.Account) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids = append(c.ids, a.ID)
	return nil
}

func (c *cancellations) seen() []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int64(nil), c.ids...)
}

// Deleting an account: confirmed by the password, refused (409, naming
// the org) while the caller owns a team with other members, then the
// account, its keys and its log are gone, its keys get 401 at once, the
// subscription hook is told, and the address can sign up again.
func TestDeleteAccount(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		subs := &cancellations{}
		e := newEnv(t, driver, withServer(func(o *server.Options) { o.Subscriptions = subs }))
		key := e.signup("leaving@example.com")
		other := e.signup("staying@example.com")
		var minted struct {
			APIKey string `json:"api_key"`
		}
		e.want(e.call("POST", "/v1/keys", key, map[string]string{"label": "second"}), 200).json(t, &minted)
		e.want(e.call("POST", "/v1/extract/contacts", key, map[string]string{"text": "a@example.com"}), 200)
		e.want(e.call("POST", "/v1/extract/contacts", other, map[string]string{"text": "a@example.com"}), 200)
		acct, err := e.st.AccountByEmail(context.Background(), "leaving@example.com")
		if err != nil {
			t.Fatal(err)
		}

		e.want(e.call("POST", "/v1/me/delete", key, map[string]string{}), 422)
		r := e.want(e.call("POST", "/v1/me/delete", key, map[string]string{"password": "wrong password!"}), 403)
		if !strings.Contains(string(r.body), "password") {
			t.Errorf("wrong password: %s", r.body)
		}
		e.want(e.call("POST", "/v1/me/delete", minted.APIKey, map[string]string{"password": "correct horse battery"}), 403) // an api-scope key

		var org orgView
		e.want(e.call("POST", "/v1/orgs", key, map[string]string{"name": "Leaving Labs"}), 200).json(t, &org)
		e.want(e.call("POST", "/v1/orgs/"+itoa(org.OrgID)+"/members", key, map[string]string{"email": "staying@example.com"}), 200)
		r = e.want(e.call("POST", "/v1/me/delete", key, map[string]string{"password": "correct horse battery"}), 409)
		if !strings.Contains(r.detail(t), "Leaving Labs") {
			t.Errorf("409 does not name the org: %s", r.body)
		}
		e.want(e.call("GET", "/v1/me", key, nil), 200) // nothing changed

		stayingID := e.org(key, org.OrgID).member(t, "staying@example.com")
		e.want(e.call("DELETE", "/v1/orgs/"+itoa(org.OrgID)+"/members/"+itoa(stayingID), key, nil), 200)
		var out struct {
			Deleted     bool    `json:"deleted"`
			AccountID   int64   `json:"account_id"`
			DeletedOrgs []int64 `json:"deleted_orgs"`
		}
		e.want(e.call("POST", "/v1/me/delete", key, map[string]string{"password": "correct horse battery"}), 200).json(t, &out)
		if !out.Deleted || out.AccountID != acct.ID || len(out.DeletedOrgs) != 1 || out.DeletedOrgs[0] != org.OrgID {
			t.Errorf("delete answer = %+v", out)
		}
		for _, k := range []string{key, minted.APIKey} {
			e.want(e.call("GET", "/v1/me", k, nil), 401)
		}
		e.want(e.call("POST", "/v1/auth/login", "", map[string]string{"email": "leaving@example.com", "password": "correct horse battery"}), 401)
		e.flushUsage()
		if n, err := e.st.CountUsage(context.Background(), acct.ID); err != nil || n != 0 {
			t.Errorf("usage rows after deletion: %d, %v", n, err)
		}
		if got := subs.seen(); len(got) != 1 || got[0] != acct.ID {
			t.Errorf("subscription hook calls = %v, want [%d]", got, acct.ID)
		}
		if got := e.balance(other); got != 999 {
			t.Errorf("another account's balance = %d", got)
		}
		e.signup("leaving@example.com")
	})
}

// An OAuth-only account has no password: it confirms with its e-mail.
func TestDeleteOAuthAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	minted := apikey.New()
	_, _, err := e.st.CreateAccount(context.Background(), store.NewAccount{Email: "oauth@example.com", Login: store.LoginOAuth,
		Plan: "free", WebhookSecret: "whsec_00", InitialCredits: 10, Now: time.Now()},
		store.Key{Hash: minted.Hash, Prefix: minted.Display, Kind: store.KeyDeveloper, Scope: store.ScopeFull})
	if err != nil {
		t.Fatal(err)
	}
	key := minted.Raw
	r := e.want(e.call("POST", "/v1/me/delete", key, map[string]string{"password": "anything at all"}), 422)
	if !strings.Contains(string(r.body), "confirm_email") {
		t.Errorf("OAuth account without confirm_email: %s", r.body)
	}
	e.want(e.call("POST", "/v1/me/delete", key, map[string]string{"confirm_email": "someone@example.com"}), 403)
	e.want(e.call("POST", "/v1/me/delete", key, map[string]string{"confirm_email": "OAuth@Example.com"}), 200)
	e.want(e.call("GET", "/v1/me", key, nil), 401)
}

// A job running when its account is deleted is cancelled: it finishes
// into nothing, no webhook is sent and no record is left.
func TestDeleteAccountCancelsJobs(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		hook := newHookReceiver(t)
		e := newEnv(t, driver, withQueue(hook.srv.Certificate()))
		key := e.signup("busy@example.com")
		hook.set(e.secret(key), false)
		started, release := make(chan struct{}, 1), make(chan struct{})
		target := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
			started <- struct{}{}
			<-release
			io.WriteString(w, "<html><body><p>late</p></body></html>")
		})
		id := e.submit("/v1/scrape/async", key, map[string]any{"url": target, "webhook_url": hook.srv.URL + "/hook"})
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatal("the job never started")
		}
		var out struct {
			CancelledJobs int `json:"cancelled_jobs"`
		}
		e.want(e.call("POST", "/v1/me/delete", key, map[string]string{"password": "correct horse battery"}), 200).json(t, &out)
		if out.CancelledJobs != 1 {
			t.Errorf("cancelled_jobs = %d, want 1", out.CancelledJobs)
		}
		close(release)
		if err := e.q.Stop(context.Background()); err != nil { // waits for the running job to end
			t.Fatal(err)
		}
		hook.mu.Lock()
		events := len(hook.events)
		hook.mu.Unlock()
		if events != 0 {
			t.Errorf("%d webhooks were sent for a deleted account's job", events)
		}
		if _, err := e.st.GetJob(context.Background(), id); !errs.Is(err, errs.KindNotFound) {
			t.Errorf("the job record after deletion: %v", err)
		}
		if pending, err := e.st.PendingDeliveries(context.Background(), 0); err != nil || len(pending) != 0 {
			t.Errorf("pending deliveries after deletion: %d, %v", len(pending), err)
		}
	})
}
