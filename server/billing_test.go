package server_test

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/webinfra/webinfra/billing"
)

type ledger struct {
	Balance int64 `json:"balance"`
	Ledger  []struct {
		Delta     int64  `json:"delta"`
		Reason    string `json:"reason"`
		Endpoint  string `json:"endpoint"`
		RequestID string `json:"request_id"`
	} `json:"ledger"`
}

func TestChargesOnlySuccess(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver)
		key := e.signup("payer@example.com")
		target := page(t).URL

		ok := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": target}), 200)
		for h, want := range map[string]string{"X-Credits-Cost": "1", "X-Credits-Charged": "1", "X-Credits-Balance": "999"} {
			if got := ok.header.Get(h); got != want {
				t.Errorf("%s = %q, want %q", h, got, want)
			}
		}

		failures := []struct {
			name   string
			method string
			path   string
			body   any
			status int
		}{
			{"upstream refused (server-side failure)", "POST", "/v1/scrape", map[string]any{"url": refusedURL(t)}, 502},
			{"invalid URL", "POST", "/v1/scrape", map[string]any{"url": "ftp://example.com/"}, 422},
			{"missing url", "POST", "/v1/scrape", map[string]any{}, 422},
			{"malformed JSON", "POST", "/v1/scrape", `{"url":`, 400},
			{"unavailable (no browser)", "POST", "/v1/editor/runs", map[string]any{"url": target, "steps": []map[string]any{{"action": "assert_text", "text": "Hello"}}}, 503},
		}
		for _, f := range failures {
			r := e.want(e.call(f.method, f.path, key, f.body), f.status)
			if r.header.Get("X-Credits-Charged") != "0" || r.header.Get("X-Credits-Balance") != "999" {
				t.Errorf("%s: charged %q balance %q, want 0 and 999", f.name, r.header.Get("X-Credits-Charged"), r.header.Get("X-Credits-Balance"))
			}
		}
		if c := e.call("POST", "/v1/aeo/page-audit", key, map[string]any{}).header.Get("X-Credits-Cost"); c != "3" {
			t.Errorf("page-audit sticker cost %q, want 3", c)
		}

		var l ledger
		e.want(e.call("GET", "/v1/me/credits?limit=10", key, nil), 200).json(t, &l)
		if l.Balance != 999 || len(l.Ledger) != 2 {
			t.Fatalf("ledger = %+v, want a charge and the sign-up grant", l)
		}
		if c := l.Ledger[0]; c.Delta != -1 || c.Reason != "charge" || c.Endpoint != "/v1/scrape" || c.RequestID != ok.header.Get("X-Request-Id") {
			t.Fatalf("newest ledger row = %+v", c)
		}
		if g := l.Ledger[1]; g.Delta != 1000 || g.Reason != "signup_grant" {
			t.Fatalf("oldest ledger row = %+v", g)
		}
		var page1 ledger
		e.want(e.call("GET", "/v1/me/credits?limit=1&offset=1", key, nil), 200).json(t, &page1)
		if len(page1.Ledger) != 1 || page1.Ledger[0].Reason != "signup_grant" {
			t.Fatalf("ledger page 2 = %+v", page1)
		}
	})
}

func TestLimitsRefuseWithoutCharging(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		target := page(t).URL
		scrape := map[string]any{"url": target}

		t.Run("out of credits is 402", func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, driver, withPlan(billing.Plan{Credits: 2, RequestsPerMinute: 100}))
			key := e.signup("poor@example.com")
			e.want(e.call("POST", "/v1/scrape", key, scrape), 200)
			e.want(e.call("POST", "/v1/scrape", key, scrape), 200)
			r := e.want(e.call("POST", "/v1/scrape", key, scrape), 402)
			if !strings.Contains(r.detail(t), "insufficient credits") || r.header.Get("X-Credits-Charged") != "0" {
				t.Fatalf("402 detail %q, charged %q", r.detail(t), r.header.Get("X-Credits-Charged"))
			}
			e.want(e.call("GET", "/v1/me", key, nil), 200) // free calls still work
		})
		t.Run("monthly quota is 429 naming it", func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, withPlan(billing.Plan{Credits: 100, RequestsPerMinute: 100, MonthlyRequests: 2}))
			key := e.signup("busy@example.com")
			e.want(e.call("POST", "/v1/scrape", key, scrape), 200)
			e.want(e.call("POST", "/v1/scrape", key, scrape), 200)
			r := e.want(e.call("POST", "/v1/scrape", key, scrape), 429)
			if !strings.Contains(r.detail(t), "monthly request quota") {
				t.Fatalf("quota detail %q", r.detail(t))
			}
			if e.balance(key) != 98 {
				t.Fatal("a refused call was charged")
			}
		})
		t.Run("daily cap is 429 naming it", func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			owner := e.signup("capped@example.com")
			var k minted
			e.want(e.call("POST", "/v1/keys", owner, map[string]any{"daily_cap_credits": 1}), 200).json(t, &k)
			e.want(e.call("POST", "/v1/scrape", k.APIKey, scrape), 200)
			r := e.want(e.call("POST", "/v1/scrape", k.APIKey, scrape), 429)
			if !strings.Contains(r.detail(t), "daily credit cap") {
				t.Fatalf("cap detail %q", r.detail(t))
			}
			e.want(e.call("POST", "/v1/scrape", owner, scrape), 200) // another key of the account is not capped
			if e.balance(owner) != 998 {
				t.Fatal("a refused call was charged")
			}
		})
	})
}

func TestCostEstimate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withPlan(billing.Plan{Credits: 1000, RequestsPerMinute: 3}), frozenClock())
	key := e.signup("estimator@example.com")
	cases := []struct {
		body map[string]any
		cost int64
	}{
		{map[string]any{"endpoint": "/v1/scrape"}, 1},
		{map[string]any{"endpoint": "POST /v1/aeo/page-audit"}, 3},
		{map[string]any{"endpoint": "/v1/aeo/competitor-diff"}, 3},
		{map[string]any{"endpoint": "/v1/intel/geoip/bulk", "items": 40}, 40},
		{map[string]any{"endpoint": "/v1/scrape", "use_residential_proxy": true}, 3},
		{map[string]any{"endpoint": "/v1/me"}, 0},
	}
	first := e.want(e.call("POST", "/v1/me/cost-estimate", key, cases[0].body), 200)
	for _, c := range cases {
		var out struct {
			Cost int64 `json:"cost"`
		}
		r := e.want(e.call("POST", "/v1/me/cost-estimate", key, c.body), 200)
		r.json(t, &out)
		if out.Cost != c.cost {
			t.Errorf("%v: cost %d, want %d", c.body, out.Cost, c.cost)
		}
		if r.header.Get("X-Ratelimit-Remaining") != first.header.Get("X-Ratelimit-Remaining") {
			t.Errorf("cost-estimate consumed the rate limit: remaining %s then %s", first.header.Get("X-Ratelimit-Remaining"), r.header.Get("X-Ratelimit-Remaining"))
		}
	}
	if d := e.want(e.call("POST", "/v1/me/cost-estimate", key, map[string]any{"endpoint": "/v1/nope"}), 422).detail(t); !strings.Contains(d, "body.endpoint") {
		t.Fatalf("unknown endpoint detail %q", d)
	}
	if e.balance(key) != 1000 {
		t.Fatal("cost-estimate charged credits")
	}
}

// 1,000 concurrent one-credit calls against 500 credits: exactly 500 run.
func TestConcurrentCallsNeverOverspend(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver, withPlan(billing.Plan{Credits: 500, RequestsPerMinute: 100000}))
		key := e.signup("race@example.com")
		target := page(t).URL
		var ok, refused atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 1000 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				switch r := e.call("POST", "/v1/scrape", key, map[string]any{"url": target}); r.status {
				case 200:
					ok.Add(1)
				case 402:
					refused.Add(1)
				default:
					t.Errorf("status %d: %s", r.status, r.body)
				}
			}()
		}
		close(start)
		wg.Wait()
		if ok.Load() != 500 || refused.Load() != 500 {
			t.Fatalf("%d succeeded and %d were refused, want 500 and 500", ok.Load(), refused.Load())
		}
		if b := e.balance(key); b != 0 {
			t.Fatalf("balance %d, want 0", b)
		}
	})
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withPlan(billing.Plan{Credits: 1000, RequestsPerMinute: 20}), frozenClock())
	key := e.signup("limited@example.com")
	var ok, limited atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.call("GET", "/v1/me", key, nil)
			switch r.status {
			case 200:
				ok.Add(1)
			case http.StatusTooManyRequests:
				limited.Add(1)
				if string(r.body) != `{"detail":"Rate limit exceeded"}`+"\n" || r.header.Get("Retry-After") == "" || r.header.Get("X-Ratelimit-Remaining") != "0" {
					t.Errorf("429 body %q headers %v", r.body, r.header)
				}
			default:
				t.Errorf("status %d", r.status)
			}
		}()
	}
	wg.Wait()
	// The signup call used the IP bucket, not the account's: 20 of 50 pass.
	if ok.Load() != 20 || limited.Load() != 30 {
		t.Fatalf("%d allowed, %d limited; want 20 and 30", ok.Load(), limited.Load())
	}
}
