package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/billing"

	"github.com/webinfra/webinfra/jobs"
)

type deliveryReport struct {
	DeliveryID     int64  `json:"delivery_id"`
	EventID        string `json:"event_id"`
	Delivered      bool   `json:"delivered"`
	Status         string `json:"status"`
	LastStatusCode int    `json:"last_status_code"`
	Tries          []struct {
		Attempt    int `json:"Attempt"`
		Try        int `json:"Try"`
		StatusCode int `json:"StatusCode"`
	} `json:"tries"`
}

func TestWebhookTestEndpoint(t *testing.T) {
	t.Parallel()
	hook := newHookReceiver(t)
	e := newEnv(t, withQueue(hook.srv.Certificate()))
	key := e.signup("tester@example.com")
	hook.set(e.secret(key), false)

	var ok deliveryReport
	e.want(e.call("POST", "/v1/me/webhooks/test", key, map[string]any{"webhook_url": hook.srv.URL}), 200).json(t, &ok)
	ev := hook.wait(t)
	if !ok.Delivered || len(ok.Tries) != 1 || ok.Tries[0].StatusCode != 200 || ev.eventID != ok.EventID || !strings.HasPrefix(ok.EventID, "test_") {
		t.Fatalf("report %+v, event %q", ok, ev.eventID)
	}

	// A failing receiver gets the production policy: a try and three retries.
	hook.set(e.secret(key), true)
	var bad deliveryReport
	e.want(e.call("POST", "/v1/me/webhooks/test", key, map[string]any{"webhook_url": hook.srv.URL}), 200).json(t, &bad)
	if bad.Delivered || len(bad.Tries) != 4 || bad.LastStatusCode != 500 || bad.Status != "dead" {
		t.Fatalf("failing report %+v", bad)
	}
	e.want(e.call("POST", "/v1/me/webhooks/test", key, map[string]any{"webhook_url": "http://example.com/"}), 422)
}

func TestWebhookSecretRotationSignsWithTheNewSecretAtOnce(t *testing.T) {
	t.Parallel()
	hook := newHookReceiver(t)
	e := newEnv(t, withQueue(hook.srv.Certificate()))
	key := e.signup("rotate@example.com")
	old := e.secret(key)
	var rotated struct {
		WebhookSecret string `json:"webhook_secret"`
	}
	e.want(e.call("POST", "/v1/me/webhook-secret/rotate", key, nil), 200).json(t, &rotated)
	hook.set(rotated.WebhookSecret, false)
	e.want(e.call("POST", "/v1/me/webhooks/test", key, map[string]any{"webhook_url": hook.srv.URL}), 200)
	ev := hook.wait(t)
	if err := jobs.VerifySignature(ev.signature, ev.body, old, 0); err == nil {
		t.Fatal("a delivery after rotation verifies with the old secret")
	}
}

// A delivery that fails every attempt lands in the dead-letter list, the
// job's result says so in _webhook, and a replay re-sends it re-signed
// with the same event id.
func TestDeadLetterAndReplay(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		hook := newHookReceiver(t)
		e := newEnv(t, driver, withQueue(hook.srv.Certificate()))
		key := e.signup("dead@example.com")
		secret := e.secret(key)
		hook.set(secret, true)

		id := e.submit("/v1/scrape/async", key, map[string]any{"url": page(t).URL, "webhook_url": hook.srv.URL})
		j := e.jobUntil(key, id, func(j jobView) bool { return webhookOf(j).Status == "dead" })
		wh := webhookOf(j)
		if j.Status != "completed" || wh.Status != "dead" || wh.Attempts != jobs.MaxAttempts || wh.LastStatusCode != 500 {
			t.Fatalf("job %+v, _webhook %+v", j, wh)
		}

		var dead struct {
			Deliveries []struct {
				DeliveryID int64  `json:"delivery_id"`
				EventID    string `json:"event_id"`
				Status     string `json:"status"`
				Attempts   int    `json:"attempts"`
			} `json:"deliveries"`
		}
		e.want(e.call("GET", "/v1/me/webhooks/deliveries?dead=true", key, nil), 200).json(t, &dead)
		if len(dead.Deliveries) != 1 || dead.Deliveries[0].EventID != id || dead.Deliveries[0].DeliveryID != wh.DeliveryID {
			t.Fatalf("dead letters %+v", dead)
		}
		var detail struct {
			Tries []struct{} `json:"tries"`
		}
		path := "/v1/me/webhooks/deliveries/" + itoa(wh.DeliveryID)
		e.want(e.call("GET", path, key, nil), 200).json(t, &detail)
		if len(detail.Tries) != 4*jobs.MaxAttempts {
			t.Fatalf("%d tries logged, want %d", len(detail.Tries), 4*jobs.MaxAttempts)
		}
		other := e.signup("nosy@example.com")
		e.want(e.call("GET", path, other, nil), 404)
		e.want(e.call("POST", path+"/replay", other, nil), 404)

		hook.set(secret, false)
		var rep deliveryReport
		e.want(e.call("POST", path+"/replay", key, nil), 200).json(t, &rep)
		ev := hook.wait(t)
		if !rep.Delivered || ev.eventID != id {
			t.Fatalf("replay %+v, event %q", rep, ev.eventID)
		}
		if j := e.job(key, id); webhookOf(j).Status != "delivered" {
			t.Fatalf("after replay _webhook = %+v", webhookOf(j))
		}
		e.want(e.call("GET", "/v1/me/webhooks/deliveries?dead=true", key, nil), 200).json(t, &dead)
		if len(dead.Deliveries) != 0 {
			t.Fatal("a replayed delivery is still dead")
		}
	})
}

// Webhook tests are free but not unlimited: the plan's webhook_tests_per_hour,
// then 429 with Retry-After, for this account only.
func TestWebhookTestIsLimitedPerAccount(t *testing.T) {
	t.Parallel()
	hook := newHookReceiver(t)
	clk := &clock{}
	e := newEnv(t, withQueue(hook.srv.Certificate()), withPlan(billing.Plan{Credits: 1000, RequestsPerMinute: 100000, WebhookTestsPerHour: 3}), withClock(clk))
	key, other := e.signup("hook-limit@example.com"), e.signup("hook-limit-2@example.com")
	hook.set(e.secret(key), false)
	body := map[string]any{"webhook_url": hook.srv.URL}
	for range 3 {
		e.want(e.call("POST", "/v1/me/webhooks/test", key, body), 200)
	}
	r := e.want(e.call("POST", "/v1/me/webhooks/test", key, body), 429)
	if r.header.Get("Retry-After") != "1200" || !strings.Contains(r.detail(t), "3 webhook tests an hour") {
		t.Fatalf("retry-after %q, detail %q", r.header.Get("Retry-After"), r.detail(t))
	}
	e.want(e.call("POST", "/v1/me/webhooks/test", other, body), 200) // another account's own allowance
	clk.advance(20 * time.Minute)
	e.want(e.call("POST", "/v1/me/webhooks/test", key, body), 200)
}
