package server_test

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/billing"
)

func TestIdempotentReplay(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver)
		key := e.signup("idem@example.com")
		body := map[string]any{"url": page(t).URL}

		first := e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "order-1"), 200)
		again := e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "order-1"), 200)
		if again.header.Get("Idempotency-Replayed") != "true" || first.header.Get("Idempotency-Replayed") != "" {
			t.Fatalf("Idempotency-Replayed: first %q, replay %q", first.header.Get("Idempotency-Replayed"), again.header.Get("Idempotency-Replayed"))
		}
		if !bytes.Equal(first.body, again.body) || again.header.Get("X-Tier-Used") != "direct" {
			t.Fatal("replay differs from the first response")
		}
		if again.header.Get("X-Credits-Charged") != "0" || again.header.Get("X-Credits-Balance") != "999" {
			t.Fatalf("replay charged %q, balance %q", again.header.Get("X-Credits-Charged"), again.header.Get("X-Credits-Balance"))
		}
		if again.header.Get("X-Request-Id") == first.header.Get("X-Request-Id") {
			t.Fatal("a replay must have its own request id")
		}

		other := map[string]any{"url": page(t).URL + "/other"}
		r := e.want(e.call("POST", "/v1/scrape", key, other, "Idempotency-Key", "order-1"), 422)
		if !strings.Contains(r.detail(t), "Idempotency-Key") {
			t.Fatalf("mismatch detail %q", r.detail(t))
		}
		// Keys are per account: another account's "order-1" is its own.
		stranger := e.signup("stranger@example.com")
		e.want(e.call("POST", "/v1/scrape", stranger, other, "Idempotency-Key", "order-1"), 200)
		if e.balance(key) != 999 {
			t.Fatal("balance moved")
		}
	})
}

// A key is kept for 24 hours; after that the same request runs (and is
// charged) again.
func TestIdempotencyKeyExpiresAfter24Hours(t *testing.T) {
	t.Parallel()
	var c clock
	e := newEnv(t, withClock(&c))
	key := e.signup("ttl@example.com")
	body := map[string]any{"url": page(t).URL}
	e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "daily"), 200)
	c.advance(24*time.Hour - time.Second)
	if r := e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "daily"); r.header.Get("Idempotency-Replayed") != "true" {
		t.Fatal("not replayed within 24 hours")
	}
	c.advance(2 * time.Second)
	r := e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "daily"), 200)
	if r.header.Get("Idempotency-Replayed") != "" || r.header.Get("X-Credits-Charged") != "1" {
		t.Fatal("an expired key was replayed")
	}
	if e.balance(key) != 998 {
		t.Fatalf("balance %d, want two charges", e.balance(key))
	}
}

func TestIdempotentDuplicateInFlightIs409(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver)
		key := e.signup("inflight@example.com")
		slow, arrived, release := newSlowPage(t)
		body := map[string]any{"url": slow}

		var wg sync.WaitGroup
		var first resp
		wg.Add(1)
		go func() {
			defer wg.Done()
			first = e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "k")
		}()
		<-arrived
		dup := e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "k"), 409)
		if dup.header.Get("X-Credits-Charged") != "0" {
			t.Fatal("the duplicate was charged")
		}
		release()
		wg.Wait()
		e.want(first, 200)
		e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "k"), 200)
		if e.balance(key) != 999 {
			t.Fatalf("balance %d, want one charge", e.balance(key))
		}
	})
}

func TestIdempotencyKeyFreedAfterServerFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("retry@example.com")
	body := map[string]any{"url": refusedURL(t)}
	e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "again"), 502)
	r := e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "again"), 502)
	if r.header.Get("Idempotency-Replayed") != "" {
		t.Fatal("a server-side failure was stored for replay")
	}
	e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", strings.Repeat("x", 300)), 422)
}

// Many identical requests at once: exactly one runs and is charged.
func TestConcurrentIdempotentRequestsChargeOnce(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver)
		key := e.signup("herd@example.com")
		body := map[string]any{"url": page(t).URL}
		var wg sync.WaitGroup
		statuses := make([]int, 50)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "herd").status
			}()
		}
		wg.Wait()
		for _, s := range statuses {
			if s != 200 && s != 409 {
				t.Fatalf("status %d", s)
			}
		}
		if b := e.balance(key); b != 999 {
			t.Fatalf("balance %d: the herd was charged more than once", b)
		}
	})
}

// withLimits changes the server's limits (the config file's "limits").
func withLimits(change func(*billing.Limits)) envOption {
	return func(c *envConfig) { change(&c.server.Billing.Limits) }
}

// An answer over limits.idempotency_max_response_bytes is not kept: its
// retry gets a clear 409, never a partial body, and is not charged again.
func TestIdempotentAnswerTooLargeToKeep(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withLimits(func(l *billing.Limits) { l.IdempotencyMaxResponseBytes = 4096 }))
	key := e.signup("idem-large@example.com")
	big := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html><body><p>" + strings.Repeat("large answer ", 2000) + "</p></body></html>"))
	})
	body := map[string]any{"url": big}
	first := e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "big-1"), 200)
	if len(first.body) <= 4096 {
		t.Fatalf("the answer (%d bytes) must be over the limit for this test", len(first.body))
	}
	retry := e.want(e.call("POST", "/v1/scrape", key, body, "Idempotency-Key", "big-1"), 409)
	if d := retry.detail(t); !strings.Contains(d, "over this server's 4096-byte limit") || !strings.Contains(d, "new Idempotency-Key") {
		t.Fatalf("retry detail %q", d)
	}
	if e.balance(key) != 999 {
		t.Fatalf("balance %d: charged once", e.balance(key))
	}
	small := e.want(e.call("POST", "/v1/keys", key, map[string]any{"label": "k"}, "Idempotency-Key", "small-1"), 200)
	again := e.want(e.call("POST", "/v1/keys", key, map[string]any{"label": "k"}, "Idempotency-Key", "small-1"), 200)
	if string(small.body) != string(again.body) || again.header.Get("Idempotency-Replayed") != "true" {
		t.Fatalf("a small answer is still replayed: %s vs %s", small.body, again.body)
	}
}
