package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The dashboard is scoped to the session's account exactly as the API is:
// another account's key, job, delivery, forwarder and organization are 404
// in its pages and its forms, and nothing of theirs changes; a browser
// without a session is sent to the log-in page.
func TestDashboardShowsOnlyTheSessionsAccount(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		hook := newHookReceiver(t)
		e := newEnv(t, driver, withQueue(hook.srv.Certificate()), withDashboard())
		owner := e.signup("owner@example.com")
		hook.set(e.secret(owner), true)
		jobID := e.submit("/v1/scrape/async", owner, map[string]any{"url": page(t).URL, "webhook_url": hook.srv.URL})
		delivery := webhookOf(e.jobUntil(owner, jobID, func(j jobView) bool { return webhookOf(j).Status == "dead" })).DeliveryID
		var key struct {
			Key struct {
				KeyID int64 `json:"key_id"`
			} `json:"key"`
		}
		e.want(e.call("POST", "/v1/keys", owner, map[string]any{"label": "theirs"}), 200).json(t, &key)
		var org struct {
			OrgID int64 `json:"org_id"`
		}
		e.want(e.call("POST", "/v1/orgs", owner, map[string]any{"name": "Theirs"}), 200).json(t, &org)
		var fwd struct {
			ForwarderID int64 `json:"forwarder_id"`
		}
		e.want(e.call("POST", "/v1/me/forwarders", owner, map[string]any{"endpoint": hook.srv.URL + "/v1/traces"}), 200).json(t, &fwd)

		// The owner sees them in the dashboard.
		b := e.browser()
		b.login("owner@example.com")
		for _, path := range []string{"/dashboard/jobs/" + jobID, "/dashboard/webhooks/deliveries/" + itoa(delivery),
			"/dashboard/keys/" + itoa(key.Key.KeyID) + "/edit", "/dashboard/orgs/" + itoa(org.OrgID)} {
			b.want(b.get(path), 200)
		}
		if p := b.get("/dashboard/webhooks/dead"); !strings.Contains(p.body, jobID) {
			t.Fatal("the dead-letter view lacks the owner's dead delivery")
		}

		// Another account's session gets 404 for each.
		nosy := e.browser()
		nosyKey := nosy.signup("nosy@example.com")
		nosy.get("/dashboard/")
		for _, path := range []string{"/dashboard/jobs/" + jobID, "/dashboard/webhooks/deliveries/" + itoa(delivery),
			"/dashboard/keys/" + itoa(key.Key.KeyID) + "/edit", "/dashboard/orgs/" + itoa(org.OrgID),
			"/dashboard/usage/" + strings.Repeat("0", 32)} {
			if p := nosy.get(path); p.status != http.StatusNotFound {
				t.Errorf("GET %s as another account: status %d, want 404", path, p.status)
			}
		}
		for _, path := range []string{"/dashboard/keys/" + itoa(key.Key.KeyID) + "/revoke", "/dashboard/keys/" + itoa(key.Key.KeyID) + "/rotate",
			"/dashboard/keys/" + itoa(key.Key.KeyID), "/dashboard/webhooks/deliveries/" + itoa(delivery) + "/replay",
			"/dashboard/forwarders/" + itoa(fwd.ForwarderID) + "/delete", "/dashboard/orgs/" + itoa(org.OrgID) + "/members"} {
			if p := nosy.post(path, url.Values{"label": {"mine now"}, "email": {"nosy@example.com"}}); p.status != http.StatusNotFound {
				t.Errorf("POST %s as another account: status %d, want 404", path, p.status)
			}
		}
		if p := nosy.get("/dashboard/webhooks/dead"); strings.Contains(p.body, jobID) {
			t.Error("another account's dead-letter view shows the owner's delivery")
		}
		if n := e.activeKeys(owner, "developer"); n != 2 {
			t.Fatalf("the owner has %d developer keys after another account's posts, want 2", n)
		}
		var fl struct {
			Forwarders []struct{} `json:"forwarders"`
		}
		e.want(e.call("GET", "/v1/me/forwarders", owner, nil), 200).json(t, &fl)
		if len(fl.Forwarders) != 1 {
			t.Fatal("another account's post deleted the owner's forwarder")
		}

		// No session: the log-in page, for pages and posts alike.
		anon := e.browser()
		for _, p := range []htmlPage{anon.get("/dashboard/jobs/" + jobID), anon.post("/dashboard/keys", url.Values{})} {
			if p.status != http.StatusSeeOther || !strings.HasPrefix(p.header.Get("Location"), "/dashboard/login") {
				t.Errorf("without a session: status %d, Location %q", p.status, p.header.Get("Location"))
			}
		}

		// The dashboard's own calls are page views, not API traffic: the
		// usage log holds none of them.
		e.flushUsage()
		var usage struct {
			Rows []struct{} `json:"rows"`
		}
		e.want(e.call("GET", "/v1/me/usage", nosyKey, nil), 200).json(t, &usage)
		if len(usage.Rows) != 0 {
			t.Fatalf("%d usage rows for an account that only used the dashboard, want 0", len(usage.Rows))
		}
	})
}

// Deleting an account that owns a team organization with other members
// is refused (409), and the page says in words what to do; once ownership
// is transferred, the deletion goes through and the session ends.
func TestDashboardExplainsTheDeletionConflict(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withDashboard())
	b := e.browser()
	b.signup("founder@example.com")
	e.signup("member@example.com")
	b.get("/dashboard/orgs")
	p := b.want(b.post("/dashboard/orgs", url.Values{"name": {"Team"}}), http.StatusSeeOther)
	orgPage := p.header.Get("Location")
	b.get(orgPage)
	b.want(b.post(orgPage+"/members", url.Values{"email": {"member@example.com"}, "role": {"member"}}), http.StatusSeeOther)

	b.get("/dashboard/account")
	p = b.post("/dashboard/account/delete", url.Values{"password": {"correct horse battery"}})
	if p.status != http.StatusConflict || !strings.Contains(p.body, "transfer ownership to another member or remove the other members") {
		t.Fatalf("deletion with a team: status %d, body %.800s", p.status, p.body)
	}
	p = b.post("/dashboard/account/delete", url.Values{"password": {"wrong password"}})
	if p.status != http.StatusForbidden || !strings.Contains(p.body, `id="f-password-err"`) {
		t.Fatalf("a wrong password is not shown beside its field: status %d", p.status)
	}

	detail := b.get(orgPage)
	memberID := regexMatch(t, `<option value="(\d+)">member@example.com</option>`, detail.body)
	b.want(b.post(orgPage+"/transfer", url.Values{"account_id": {memberID}}), http.StatusSeeOther)
	b.get("/dashboard/account")
	p = b.want(b.post("/dashboard/account/delete", url.Values{"password": {"correct horse battery"}}), 200)
	if !strings.Contains(p.body, "Account deleted") {
		t.Fatalf("after deletion: %.400s", p.body)
	}
	if p := b.get("/dashboard/"); p.status != http.StatusSeeOther {
		t.Fatalf("the deleted account's session still opens the dashboard: %d", p.status)
	}
}
