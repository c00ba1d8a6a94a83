package server_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

type keyInfo struct {
	KeyID           int64  `json:"key_id"`
	Prefix          string `json:"prefix"`
	Kind            string `json:"kind"`
	Label           string `json:"label"`
	ProjectTag      string `json:"project_tag"`
	DailyCapCredits int64  `json:"daily_cap_credits"`
	OrgID           *int64 `json:"org_id"`
	Active          bool   `json:"active"`
}

type minted struct {
	Key    keyInfo `json:"key"`
	APIKey string  `json:"api_key"`
}

func TestKeyLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.signup("owner@example.com")

	var k minted
	e.want(e.call("POST", "/v1/keys", owner, map[string]any{"label": "ci", "project_tag": "crawler", "daily_cap_credits": 50}), 200).json(t, &k)
	if k.Key.Label != "ci" || k.Key.ProjectTag != "crawler" || k.Key.DailyCapCredits != 50 || k.Key.Kind != "developer" || !strings.HasPrefix(k.APIKey, k.Key.Prefix) {
		t.Fatalf("created key = %+v", k)
	}
	e.want(e.call("GET", "/v1/me", k.APIKey, nil), 200)

	list := e.want(e.call("GET", "/v1/keys", owner, nil), 200)
	if strings.Contains(string(list.body), k.APIKey) || strings.Contains(string(list.body), "api_key") {
		t.Fatal("listing reveals a raw key")
	}

	id := itoa(k.Key.KeyID)
	var upd struct {
		Key keyInfo `json:"key"`
	}
	e.want(e.call("PATCH", "/v1/keys/"+id, owner, map[string]any{"label": "ci-2"}), 200).json(t, &upd)
	if upd.Key.Label != "ci-2" || upd.Key.ProjectTag != "crawler" || upd.Key.DailyCapCredits != 50 {
		t.Fatalf("PATCH label changed other fields: %+v", upd.Key)
	}
	e.want(e.call("PATCH", "/v1/keys/"+id, owner, map[string]any{"project_tag": "", "daily_cap_credits": 0}), 200).json(t, &upd)
	if upd.Key.ProjectTag != "" || upd.Key.DailyCapCredits != 0 || upd.Key.Label != "ci-2" {
		t.Fatalf("empty tag and cap 0 should clear both: %+v", upd.Key)
	}
	if d := e.want(e.call("PATCH", "/v1/keys/"+id, owner, map[string]any{"org_id": 1}), 422).detail(t); !strings.Contains(d, "body.org_id") {
		t.Fatalf("PATCH org_id detail %q", d)
	}
	e.want(e.call("PATCH", "/v1/keys/"+id, owner, map[string]any{"daily_cap_credits": -1}), 422)

	// Rotation: the replacement inherits, the old key stops working.
	e.want(e.call("PATCH", "/v1/keys/"+id, owner, map[string]any{"project_tag": "p", "daily_cap_credits": 7}), 200)
	var rot minted
	e.want(e.call("POST", "/v1/keys/"+id+"/rotate", owner, nil), 200).json(t, &rot)
	if rot.APIKey == k.APIKey || rot.Key.KeyID == k.Key.KeyID || rot.Key.Label != "ci-2" || rot.Key.ProjectTag != "p" || rot.Key.DailyCapCredits != 7 || rot.Key.Kind != "developer" {
		t.Fatalf("rotated key = %+v", rot)
	}
	e.want(e.call("GET", "/v1/me", k.APIKey, nil), 401)
	e.want(e.call("GET", "/v1/me", rot.APIKey, nil), 200)
	e.want(e.call("POST", "/v1/keys/"+id+"/rotate", owner, nil), 409)

	// Revocation.
	var rev struct {
		Key keyInfo `json:"key"`
	}
	e.want(e.call("DELETE", "/v1/keys/"+itoa(rot.Key.KeyID), owner, nil), 200).json(t, &rev)
	if rev.Key.Active {
		t.Fatal("revoked key still active")
	}
	e.want(e.call("GET", "/v1/me", rot.APIKey, nil), 401)
	e.want(e.call("DELETE", "/v1/keys/999999", owner, nil), 404)
}

func TestKeysAreScopedToTheirAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.signup("alice@example.com")
	mallory := e.signup("mallory@example.com")
	var k minted
	e.want(e.call("POST", "/v1/keys", alice, map[string]any{"label": "alice's"}), 200).json(t, &k)
	id := itoa(k.Key.KeyID)

	e.want(e.call("PATCH", "/v1/keys/"+id, mallory, map[string]any{"label": "mine"}), 404)
	e.want(e.call("DELETE", "/v1/keys/"+id, mallory, nil), 404)
	e.want(e.call("POST", "/v1/keys/"+id+"/rotate", mallory, nil), 404)
	list := e.want(e.call("GET", "/v1/keys", mallory, nil), 200)
	if strings.Contains(string(list.body), "alice") {
		t.Fatal("another account's key is listed")
	}
	e.want(e.call("GET", "/v1/me", k.APIKey, nil), 200) // untouched
}

func TestOrgKeysNeedMembership(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.signup("alice@example.com")
	bob := e.signup("bob@example.com")
	var org struct {
		OrgID int64 `json:"org_id"`
		Owner bool  `json:"owner"`
	}
	e.want(e.call("POST", "/v1/orgs", alice, map[string]any{"name": "Acme"}), 200).json(t, &org)
	if !org.Owner {
		t.Fatal("creator is not the owner")
	}
	var k minted
	e.want(e.call("POST", "/v1/keys", alice, map[string]any{"org_id": org.OrgID, "label": "team"}), 200).json(t, &k)
	if k.Key.OrgID == nil || *k.Key.OrgID != org.OrgID {
		t.Fatalf("org key = %+v", k.Key)
	}
	for _, id := range []int64{org.OrgID, 424242} {
		r := e.want(e.call("POST", "/v1/keys", bob, map[string]any{"org_id": id}), 403)
		if !strings.Contains(r.detail(t), "not a member") {
			t.Fatalf("detail %q", r.detail(t))
		}
	}
	// The org key inherits its org on rotation.
	var rot minted
	e.want(e.call("POST", "/v1/keys/"+itoa(k.Key.KeyID)+"/rotate", alice, nil), 200).json(t, &rot)
	if rot.Key.OrgID == nil || *rot.Key.OrgID != org.OrgID {
		t.Fatalf("rotated org key = %+v", rot.Key)
	}
}

// A request in flight when its key is revoked completes; the next one is 401.
func TestRevocationLetsInFlightRequestsFinish(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := e.signup("owner@example.com")
	var k minted
	e.want(e.call("POST", "/v1/keys", owner, map[string]any{"label": "doomed"}), 200).json(t, &k)

	slow, arrived, release := newSlowPage(t)

	var wg sync.WaitGroup
	var inFlight resp
	wg.Add(1)
	go func() {
		defer wg.Done()
		inFlight = e.call("POST", "/v1/scrape", k.APIKey, map[string]any{"url": slow})
	}()
	<-arrived
	e.want(e.call("DELETE", "/v1/keys/"+itoa(k.Key.KeyID), owner, nil), 200)
	release()
	wg.Wait()
	e.want(inFlight, 200)
	if inFlight.header.Get("X-Credits-Charged") != "1" {
		t.Fatalf("in-flight call charged %q", inFlight.header.Get("X-Credits-Charged"))
	}
	e.want(e.call("POST", "/v1/scrape", k.APIKey, map[string]any{"url": slow}), 401)
}

// newSlowPage serves a page whose first request signals arrival and waits
// for release (called at cleanup at the latest, so a failing test cannot
// hang).
func newSlowPage(t *testing.T) (url string, arrived <-chan struct{}, release func()) {
	t.Helper()
	arrivedc, releasec := make(chan struct{}), make(chan struct{})
	var arrive, free sync.Once
	url = newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		arrive.Do(func() { close(arrivedc) })
		<-releasec
		w.Write([]byte("<p>slow</p>"))
	})
	release = func() { free.Do(func() { close(releasec) }) }
	t.Cleanup(release)
	return url, arrivedc, release
}
