package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/webinfra/webinfra/billing"
)

type noopRequest struct {
	N int `json:"n"`
}

type noopResponse struct {
	N int `json:"n"`
}

func noop(_ context.Context, in *noopRequest) (*noopResponse, error) {
	return &noopResponse{N: in.N}, nil
}

func noopOperation() Operation {
	return jsonOp(post("bench-noop", "/v1/bench/noop", tagOther, "benchmark no-op", standard), noop)
}

// backends are the deployments the benchmarks compare side by side.
var backends = []string{"sqlite", "postgres+redis"}

// benchServer is the reference server on a backend with one extra charged
// no-op operation, and a key with credits for any b.N.
func benchServer(b *testing.B, backend string) (url, key string) {
	cfg := billing.DefaultConfig()
	cfg.Plans[cfg.DefaultPlan] = billing.Plan{Name: cfg.DefaultPlan, Credits: 1 << 40, RequestsPerMinute: 1 << 30}
	return internalServerOn(b, backend, cfg, noopOperation())
}

// bareServer serves the same no-op through huma with no pipeline: no key,
// no limits, no credits, no log.
func bareServer(b *testing.B) string {
	mux := http.NewServeMux()
	api := humago.New(mux, huma.DefaultConfig("bare", "1.0.0"))
	huma.Register(api, huma.Operation{Method: "POST", Path: "/v1/bench/noop"}, func(ctx context.Context, in *bodyInput[noopRequest]) (*bodyOutput[noopResponse], error) {
		out, _ := noop(ctx, &in.Body)
		return reply(out), nil
	})
	ts := httptest.NewServer(mux)
	b.Cleanup(ts.Close)
	return ts.URL
}

func postNoop(b *testing.B, client *http.Client, url, key string) {
	req, _ := http.NewRequest("POST", url+"/v1/bench/noop", bytes.NewBufferString(`{"n":1}`))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		b.Fatalf("status %d", res.StatusCode)
	}
	if key != "" && res.Header.Get("X-Credits-Charged") != "1" {
		b.Fatal("the call was not charged")
	}
}

// BenchmarkNoopLatency measures one call at a time, side by side: the bare
// handler and the full authenticated, charged, logged path. It reports the
// median latency of each; the difference is what the pipeline adds.
func BenchmarkNoopLatency(b *testing.B) {
	for _, mode := range append([]string{"bare"}, backends...) {
		b.Run(mode, func(b *testing.B) {
			url, key := "", ""
			if mode == "bare" {
				url = bareServer(b)
			} else {
				url, key = benchServer(b, mode)
			}
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				postNoop(b, client, url, key)
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "median-µs")
		})
	}
}

// BenchmarkNoopThroughput drives the authenticated, charged, logged no-op
// from 16 concurrent clients on each backend and reports requests per
// second.
func BenchmarkNoopThroughput(b *testing.B) {
	for _, backend := range backends {
		b.Run(backend, func(b *testing.B) {
			url, key := benchServer(b, backend)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			b.SetParallelism(8)
			start := time.Now()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					postNoop(b, client, url, key)
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
		})
	}
}
