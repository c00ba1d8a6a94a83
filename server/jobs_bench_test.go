package server_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/billing"
)

// BenchmarkAsyncJobsEndToEnd measures jobs per second from submission
// (POST /v1/scrape/async with a webhook_url, 16 concurrent clients) to the
// signed webhook received by a real HTTPS receiver, each job fetching a
// loopback page, on each store driver (SQLite + River on SQLite;
// PostgreSQL + River on PostgreSQL).
func BenchmarkAsyncJobsEndToEnd(b *testing.B) {
	for _, d := range drivers {
		b.Run(d, func(b *testing.B) { benchmarkAsyncJobs(b, onDriver(d)) })
	}
}

func benchmarkAsyncJobs(b *testing.B, driver envOption) {
	hook := newHookReceiver(b)
	e := newEnv(b, driver, withQueue(hook.srv.Certificate()), withPlan(billing.Plan{Credits: 1 << 40, RequestsPerMinute: 1 << 30}),
		func(c *envConfig) { c.queue.Workers, c.queue.DeliveryWorkers = 32, 32 })
	key := e.signup("bench@example.com")
	hook.set(e.secret(key), false)
	hook.delivered = make(chan struct{}, b.N+16)
	target := page(b).URL
	body := fmt.Sprintf(`{"url":%q,"webhook_url":%q}`, target, hook.srv.URL)

	b.ResetTimer()
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if r := e.call("POST", "/v1/scrape/async", key, body); r.status != 200 {
					b.Errorf("submit: %d %s", r.status, r.body)
					return
				}
			}
		}()
	}
	wg.Wait()
	for range b.N {
		select {
		case <-hook.delivered:
		case <-time.After(60 * time.Second):
			b.Fatal("webhooks stopped arriving")
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
}
