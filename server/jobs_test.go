package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/jobs"
)

// hookReceiver is a real HTTPS webhook receiver: it verifies every
// delivery's signature with the secret it is told and records them.
type hookReceiver struct {
	srv *httptest.Server

	mu        sync.Mutex
	secret    string
	fail      bool // answer 500
	events    []hookEvent
	badSigs   int
	delivered chan struct{}
}

type hookEvent struct {
	eventID   string
	signature string
	body      []byte
}

func newHookReceiver(t testing.TB) *hookReceiver {
	t.Helper()
	h := &hookReceiver{delivered: make(chan struct{}, 100)}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.fail {
			http.Error(w, "receiver down", http.StatusInternalServerError)
			return
		}
		sig := r.Header.Get(jobs.SignatureHeader)
		if err := jobs.VerifySignature(sig, body, h.secret, 0); err != nil {
			h.badSigs++
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		h.events = append(h.events, hookEvent{eventID: r.Header.Get(jobs.EventIDHeader), signature: sig, body: body})
		h.delivered <- struct{}{}
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookReceiver) set(secret string, fail bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.secret, h.fail = secret, fail
}

func (h *hookReceiver) wait(t *testing.T) hookEvent {
	t.Helper()
	select {
	case <-h.delivered:
	case <-time.After(20 * time.Second):
		t.Fatal("no webhook arrived")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.events[len(h.events)-1]
}

func (e *env) secret(key string) string {
	e.t.Helper()
	var me struct {
		WebhookSecret string `json:"webhook_secret"`
	}
	e.want(e.call("GET", "/v1/me", key, nil), 200).json(e.t, &me)
	return me.WebhookSecret
}

type jobView struct {
	JobID    string          `json:"job_id"`
	Kind     string          `json:"kind"`
	Status   string          `json:"status"`
	Result   json.RawMessage `json:"result"`
	Error    string          `json:"error"`
	Attempts int             `json:"attempts"`
}

// job polls GET /v1/jobs/{id} until the job is final.
func (e *env) job(key, id string) jobView {
	e.t.Helper()
	return e.jobUntil(key, id, func(j jobView) bool { return j.Status == "completed" || j.Status == "failed" })
}

// jobUntil polls GET /v1/jobs/{id} until done says so (or 20 seconds).
func (e *env) jobUntil(key, id string, done func(jobView) bool) jobView {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var j jobView
		e.want(e.call("GET", "/v1/jobs/"+id, key, nil), 200).json(e.t, &j)
		if done(j) || time.Now().After(deadline) {
			return j
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// webhookOf reads the _webhook field of a job's result.
func webhookOf(j jobView) (out struct {
	Status         string `json:"status"`
	Attempts       int    `json:"attempts"`
	DeliveryID     int64  `json:"delivery_id"`
	LastStatusCode int    `json:"last_status_code"`
}) {
	var r struct {
		Webhook json.RawMessage `json:"_webhook"`
	}
	json.Unmarshal(j.Result, &r)
	json.Unmarshal(r.Webhook, &out)
	return out
}

func (e *env) submit(path, key string, body any) string {
	e.t.Helper()
	var acc struct {
		Status string `json:"status"`
		JobID  string `json:"job_id"`
	}
	e.want(e.call("POST", path, key, body), 200).json(e.t, &acc)
	if acc.Status != "queued" || !strings.HasPrefix(acc.JobID, "job_") {
		e.t.Fatalf("submission answered %+v", acc)
	}
	return acc.JobID
}

func TestAsyncScrapeDeliversSignedWebhook(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		hook := newHookReceiver(t)
		e := newEnv(t, driver, withQueue(hook.srv.Certificate()))
		key := e.signup("async@example.com")
		hook.set(e.secret(key), false)
		target := page(t).URL

		id := e.submit("/v1/scrape/async", key, map[string]any{"url": target, "webhook_url": hook.srv.URL + "/hook"})
		ev := hook.wait(t)
		var payload struct {
			JobID  string          `json:"job_id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(ev.body, &payload); err != nil || payload.JobID != id || ev.eventID != id {
			t.Fatalf("webhook body %s event %q", ev.body, ev.eventID)
		}

		j := e.jobUntil(key, id, func(j jobView) bool { return webhookOf(j).Status == "delivered" })
		if j.Status != "completed" || j.Kind != "scrape" || j.Attempts != 1 {
			t.Fatalf("job %+v", j)
		}
		// The result has the shape of POST /v1/scrape's answer, plus _webhook.
		sync := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": target}), 200)
		var syncKeys, asyncKeys map[string]json.RawMessage
		sync.json(t, &syncKeys)
		json.Unmarshal(j.Result, &asyncKeys)
		for k := range syncKeys {
			if _, ok := asyncKeys[k]; !ok {
				t.Errorf("async result lacks %q", k)
			}
		}
		if webhook := webhookOf(j); webhook.Status != "delivered" || webhook.Attempts != 1 {
			t.Fatalf("_webhook = %s", asyncKeys["_webhook"])
		}
		if e.balance(key) != 998 { // the async call and the sync one
			t.Fatalf("balance %d", e.balance(key))
		}

		// Another account cannot see the job.
		other := e.signup("other@example.com")
		e.want(e.call("GET", "/v1/jobs/"+id, other, nil), 404)
	})
}

func TestWebhookURLIsCheckedAtSubmission(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withQueue(), strictFetch())
	key := e.signup("strict@example.com")
	cases := []struct {
		url    string
		status int
	}{
		{"http://example.com/hook", 422},             // plain HTTP
		{"https://127.0.0.1/hook", 403},              // loopback: the SSRF guard
		{"https://169.254.169.254/latest/hook", 403}, // metadata
		{"not a url", 422},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", "/v1/scrape/async", key, map[string]any{"url": "https://example.com/", "webhook_url": c.url}), c.status)
		if !strings.Contains(r.detail(t), "webhook_url") || r.header.Get("X-Credits-Charged") != "0" {
			t.Errorf("%s: detail %q charged %q", c.url, r.detail(t), r.header.Get("X-Credits-Charged"))
		}
	}
	var list struct {
		Jobs []jobView `json:"jobs"`
	}
	e.want(e.call("GET", "/v1/me/jobs", key, nil), 200).json(t, &list)
	if len(list.Jobs) != 0 || e.balance(key) != 1000 {
		t.Fatalf("a refused submission left %d jobs, balance %d", len(list.Jobs), e.balance(key))
	}
}

func TestBatchAsyncChargesPerSuccessfulURL(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver, withQueue(), func(c *envConfig) { c.server.MaxBatchURLs = 3 })
		key := e.signup("batch@example.com")
		good := page(t).URL
		urls := []string{good + "/a", refusedURL(t), good + "/b"}

		r := e.want(e.call("POST", "/v1/scrape/batch/async", key, map[string]any{"urls": append(urls, good), "format": "markdown"}), 422)
		if !strings.Contains(r.detail(t), "body.urls") {
			t.Fatalf("too many URLs: detail %q", r.detail(t))
		}
		id := e.submit("/v1/scrape/batch/async", key, map[string]any{"urls": urls, "format": "markdown"})
		j := e.job(key, id)
		var res batchResult
		json.Unmarshal(j.Result, &res)
		if j.Status != "completed" || res.Succeeded != 2 || res.Failed != 1 || !res.Results[0].OK || res.Results[1].OK || res.Results[1].Error == "" || !strings.Contains(res.Results[2].Markdown, "Hello") {
			t.Fatalf("batch job %+v result %+v", j, res)
		}
		var l ledger
		e.want(e.call("GET", "/v1/me/credits", key, nil), 200).json(t, &l)
		if l.Balance != 998 || l.Ledger[0].Reason != "refund" || l.Ledger[0].Delta != 1 || l.Ledger[1].Delta != -3 {
			t.Fatalf("ledger %+v: want a charge of 3 and a refund of 1", l)
		}
	})
}

func TestJobsWithoutWebhookArePolledAndListed(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		e := newEnv(t, driver, withQueue())
		key := e.signup("poll@example.com")
		var ids []string
		for range 3 {
			ids = append(ids, e.submit("/v1/scrape/async", key, map[string]any{"url": page(t).URL}))
		}
		failing := e.submit("/v1/scrape/async", key, map[string]any{"url": refusedURL(t)})
		if j := e.job(key, failing); j.Status != "failed" || j.Error == "" {
			t.Fatalf("failing job %+v", j)
		}
		for _, id := range ids {
			if j := e.job(key, id); j.Status != "completed" {
				t.Fatalf("job %s %+v", id, j)
			}
		}
		var list struct {
			Jobs   []jobView `json:"jobs"`
			Limit  int       `json:"limit"`
			Offset int       `json:"offset"`
		}
		e.want(e.call("GET", "/v1/me/jobs?limit=2&offset=1", key, nil), 200).json(t, &list)
		if len(list.Jobs) != 2 || list.Limit != 2 || list.Offset != 1 || list.Jobs[0].JobID != ids[2] || list.Jobs[1].JobID != ids[1] {
			t.Fatalf("page = %+v, want jobs %s and %s", list, ids[2], ids[1])
		}
		if e.balance(key) != 997 {
			t.Fatalf("balance %d: the failed job should be refunded", e.balance(key))
		}
	})
}

// POST /v1/crawl runs as a job: max_pages is charged up front and the
// pages not crawled are refunded; the result reaches the webhook.
func TestCrawlJob(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		hook := newHookReceiver(t)
		e := newEnv(t, driver, withQueue(hook.srv.Certificate()))
		key := e.signup("crawler@example.com")
		hook.set(e.secret(key), false)
		site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
			links := map[string]string{"/": `<a href="/a">a</a> <a href="/b">b</a>`, "/a": `<a href="/c">c</a>`, "/b": `<a href="/">home</a>`, "/c": "end"}
			body, ok := links[r.URL.Path]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body><h1>" + r.URL.Path + "</h1>" + body + "</body></html>"))
		})

		r := e.call("POST", "/v1/crawl", key, map[string]any{"seeds": []string{site + "/"}, "max_pages": 10, "webhook_url": hook.srv.URL})
		e.want(r, 200)
		if r.header.Get("X-Credits-Charged") != "10" {
			t.Fatalf("charged %q, want max_pages", r.header.Get("X-Credits-Charged"))
		}
		var acc struct {
			JobID string `json:"job_id"`
		}
		r.json(t, &acc)
		ev := hook.wait(t)
		if ev.eventID != acc.JobID {
			t.Fatalf("webhook for %q", ev.eventID)
		}
		j := e.job(key, acc.JobID)
		var res struct {
			Pages []struct {
				URL string `json:"url"`
			} `json:"pages"`
			Crawled int `json:"crawled"`
		}
		json.Unmarshal(j.Result, &res)
		if j.Status != "completed" || res.Crawled != 4 || len(res.Pages) != 4 {
			t.Fatalf("crawl job %+v result %+v", j, res)
		}
		if b := e.balance(key); b != 996 {
			t.Fatalf("balance %d, want 1000 - 4 pages", b)
		}
		if d := e.want(e.call("POST", "/v1/crawl", key, map[string]any{"seeds": []string{}}), 422).detail(t); !strings.Contains(d, "seeds") {
			t.Fatalf("empty seeds: %q", d)
		}
	})
}

// A crawled page answered 400 or more is listed with its status but not
// counted as crawled, and its credit is refunded with the pages never
// reached.
func TestCrawlDoesNotChargeFailedPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withQueue())
	key := e.signup("crawl-errors@example.com")
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><body><a href="/ok">ok</a> <a href="/gone">gone</a> <a href="/broken">broken</a></body></html>`))
		case "/ok":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body>fine</body></html>"))
		case "/broken":
			http.Error(w, "oops", http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	})
	r := e.want(e.call("POST", "/v1/crawl", key, map[string]any{"seeds": []string{site + "/"}, "max_pages": 10}), 200)
	var acc struct {
		JobID string `json:"job_id"`
	}
	r.json(t, &acc)
	j := e.job(key, acc.JobID)
	var res struct {
		Pages []struct {
			URL        string `json:"url"`
			StatusCode int    `json:"status_code"`
		} `json:"pages"`
		Crawled int `json:"crawled"`
		Failed  int `json:"failed"`
	}
	json.Unmarshal(j.Result, &res)
	statuses := map[string]int{}
	for _, p := range res.Pages {
		statuses[strings.TrimPrefix(p.URL, site)] = p.StatusCode
	}
	if j.Status != "completed" || res.Crawled != 2 || res.Failed != 2 || statuses["/gone"] != 404 || statuses["/broken"] != 500 {
		t.Fatalf("job %s: crawled %d, failed %d, statuses %v", j.Status, res.Crawled, res.Failed, statuses)
	}
	if b := e.balance(key); b != 998 {
		t.Fatalf("balance %d, want 1000 - 2 pages answered below 400", b)
	}
}

// A crawl's patterns and rate are bounded by the server's limits and the
// plan: a clear 422 naming the field, nothing charged, no job.
func TestCrawlLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withQueue())
	key := e.signup("crawl-limits@example.com")
	seeds := []string{page(t).URL}
	many := make([]string, 21)
	for i := range many {
		many[i] = fmt.Sprintf("/section-%d/", i)
	}
	cases := []struct {
		name, field string
		body        map[string]any
	}{
		{"too many patterns", "body.include", map[string]any{"seeds": seeds, "include": many[:11], "exclude": many[11:]}},
		{"a long pattern", "body.exclude[1]", map[string]any{"seeds": seeds, "exclude": []string{"/a/", "/" + strings.Repeat("b", 600)}}},
		{"a pattern too complex", "body.include[0]", map[string]any{"seeds": seeds, "include": []string{strings.Repeat(`\pL{999}`, 20)}}},
		{"rate over the plan's cap", "body.rate_per_host", map[string]any{"seeds": seeds, "rate_per_host": 50, "ignore_robots": true}},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", "/v1/crawl", key, c.body), 422)
		if !strings.Contains(string(r.body), `"location":"`+c.field+`"`) {
			t.Errorf("%s: %s", c.name, r.body)
		}
	}
	if b := e.balance(key); b != 1000 {
		t.Fatalf("balance %d: refused crawls were charged", b)
	}
	e.want(e.call("POST", "/v1/crawl", key, map[string]any{"seeds": seeds, "rate_per_host": 10, "include": many[:20], "max_pages": 1}), 200)
}

// A crawl that leaves rate_per_host out runs at the crawl default or the
// plan's cap, whichever is lower: the job's stored input says which.
func TestCrawlDefaultRateHeldToThePlanCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withQueue(), withPlan(billing.Plan{Credits: 1000, RequestsPerMinute: 100000, MaxCrawlRatePerHost: 2}))
	key := e.signup("slow-plan@example.com")
	var acc struct {
		JobID string `json:"job_id"`
	}
	e.want(e.call("POST", "/v1/crawl", key, map[string]any{"seeds": []string{page(t).URL}, "max_pages": 1}), 200).json(t, &acc)
	job, err := e.st.GetJob(context.Background(), acc.JobID)
	if err != nil {
		t.Fatal(err)
	}
	var input struct {
		RatePerHost float64 `json:"rate_per_host"`
	}
	json.Unmarshal(job.Input, &input)
	if input.RatePerHost != 2 {
		t.Fatalf("stored rate_per_host %g, want the plan's cap 2", input.RatePerHost)
	}
}
