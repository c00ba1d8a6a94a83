package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/webinfra/webinfra/internal/pgtest"
	"github.com/webinfra/webinfra/internal/redistest"
)

// call sends one request from local (a 127/8 address) and returns the
// status.
func call(client *http.Client, method, url, key, body string) int {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// storm sends n requests at once, alternating between the processes, and
// counts the answers by status.
func storm(n int, bases []string, send func(base string) int) map[int]int {
	var mu sync.Mutex
	counts := map[int]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			status := send(bases[i%len(bases)])
			mu.Lock()
			counts[status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return counts
}

// Two `webinfra serve` processes on one PostgreSQL database and one Redis
// keep every guarantee of one: credits, rate limits, jobs and webhooks are
// exact across both, and a process killed mid-job has its jobs finished by
// the other, charged once.
func TestTwoProcessesShareEverything(t *testing.T) {
	bin := serveBinary(t)
	dbURL, redisURL := pgtest.URL(t), redistest.URL(t)
	rcv := newReceiver(t)
	cfg := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(cfg, []byte(`{"anonymous_requests_per_minute": 20,
		"plans": {"free": {"credits": 500, "requests_per_minute": 100000, "monthly_requests": 0}}}`), 0o600)
	args := []string{"--database-url", dbURL, "--redis-url", redisURL, "--secret-key-file", writeKeyFile(t),
		"--config", cfg, "--allow-private-networks", "--ca-file", rcv.caFile, "--workers", "8",
		"--job-timeout", "5s", "--job-rescue-after", "8s"}
	a := startServe(t, bin, append(args, "--data-dir", t.TempDir())...)
	b := startServe(t, bin, append(args, "--data-dir", t.TempDir())...)
	bases := []string{a.base, b.base}
	other := clientFrom("127.0.0.9") // sign-ups spend another address's anonymous bucket

	signup := func(email string) string {
		req, _ := http.NewRequest("POST", a.base+"/v1/auth/signup", strings.NewReader(`{"email":"`+email+`","password":"a long password"}`))
		req.Header.Set("Content-Type", "application/json")
		res, err := other.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out struct {
			APIKey string `json:"api_key"`
		}
		json.NewDecoder(res.Body).Decode(&out)
		if out.APIKey == "" {
			t.Fatalf("sign-up %s: status %d", email, res.StatusCode)
		}
		return out.APIKey
	}

	t.Run("credits are exact", func(t *testing.T) {
		key := signup("credits@example.com")
		clients := spread(40) // 25 connections an address: under the per-address cap
		counts := storm(1000, bases, func(base string) int {
			return call(clients.next(), "POST", base+"/v1/extract/tables", key, `{"html":"<table><tr><td>1</td></tr></table>"}`)
		})
		var me struct {
			Credits int64 `json:"credits"`
		}
		a.get(t, "/v1/me", key, &me)
		t.Logf("1,000 one-credit calls against 500 credits, split across two processes: %v, balance %d", counts, me.Credits)
		if counts[200] != 500 || counts[402] != 500 || me.Credits != 0 {
			t.Fatalf("answers %v, balance %d; want 500 × 200, 500 × 402, balance 0", counts, me.Credits)
		}
	})

	t.Run("rate limits are shared", func(t *testing.T) {
		client := clientFrom("127.0.0.3")
		counts := storm(50, bases, func(base string) int { return call(client, "GET", base+"/v1/nothing-here", "", "") })
		t.Logf("50 anonymous calls against 20 a minute, split across two processes: %v", counts)
		if counts[404] != 20 || counts[429] != 30 {
			t.Fatalf("answers %v; want 20 × 404 and 30 × 429", counts)
		}
	})

	t.Run("jobs run once, webhooks once, a killed process's jobs finished", func(t *testing.T) {
		key := signup("jobs@example.com")
		var me struct {
			WebhookSecret string `json:"webhook_secret"`
		}
		a.get(t, "/v1/me", key, &me)
		rcv.mu.Lock()
		rcv.secret = me.WebhookSecret
		rcv.mu.Unlock()
		page := newHTTPServerT(t)
		const n = 200
		clients := spread(10)
		counts := storm(n, bases, func(base string) int {
			return call(clients.next(), "POST", base+"/v1/scrape/async", key, fmt.Sprintf(`{"url":%q,"webhook_url":%q}`, page+"/", rcv.srv.URL+"/hook"))
		})
		if counts[200] != n {
			t.Fatalf("submissions: %v", counts)
		}
		waitUntil(t, 60*time.Second, "200 webhooks", func() bool { return rcv.distinct() == n })

		// Now kill one process while it runs jobs of a holding target.
		target, running, release := holdingTarget(t, 8)
		ids := map[string]bool{}
		for i := range 8 {
			status, body := a.post(t, "/v1/scrape/async", key, fmt.Sprintf(`{"url":"%s/held/%d","webhook_url":%q}`, target, i, rcv.srv.URL+"/hook"))
			var acc struct {
				JobID string `json:"job_id"`
			}
			json.Unmarshal(body, &acc)
			if status != 200 {
				t.Fatalf("submit: %d %s", status, body)
			}
			ids[acc.JobID] = true
		}
		<-running // all eight fetching, on either process
		a.cmd.Process.Signal(syscall.SIGKILL)
		a.cmd.Wait()
		release()
		waitUntil(t, 120*time.Second, "the killed process's jobs", func() bool { return rcv.distinct() == n+8 })

		rcv.mu.Lock()
		for id, times := range rcv.events {
			if times != 1 {
				t.Errorf("event %s delivered %d times", id, times)
			}
		}
		bad := rcv.bad
		rcv.mu.Unlock()
		var credits struct {
			Balance int64 `json:"balance"`
		}
		b.get(t, "/v1/me/credits?limit=1", key, &credits)
		if bad != 0 || credits.Balance != 500-n-8 {
			t.Fatalf("%d bad signatures, balance %d; want 0 and %d (each job charged once)", bad, credits.Balance, 500-n-8)
		}
	})
}

// clientPool hands out clients from several loopback addresses in turn,
// so a storm stays under the per-address connection cap.
type clientPool struct {
	mu      sync.Mutex
	clients []*http.Client
	i       int
}

func spread(n int) *clientPool {
	p := &clientPool{}
	for i := range n {
		p.clients = append(p.clients, clientFrom(fmt.Sprintf("127.0.1.%d", i+1)))
	}
	return p
}

func (p *clientPool) next() *http.Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.i++
	return p.clients[p.i%len(p.clients)]
}

// newHTTPServerT serves a small page on loopback.
func newHTTPServerT(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<html><body><p>a page</p></body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
