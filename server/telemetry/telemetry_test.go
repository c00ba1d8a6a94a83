package telemetry_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/webinfra/webinfra/internal/otlptest"
	"github.com/webinfra/webinfra/server/telemetry"
)

const (
	secretAuth = "Bearer fwd-secret-7f3a9c"
	wait       = 10 * time.Second
)

var callStart = time.Date(2026, 3, 4, 5, 6, 7, 8000, time.UTC)

// callContext is a valid span context as the server puts in traceparent.
func callContext(t *testing.T, n byte) trace.SpanContext {
	t.Helper()
	tid, err := trace.TraceIDFromHex(fmt.Sprintf("4bf92f3577b34da6a3ce929d0e0e47%02x", n))
	if err != nil {
		t.Fatal(err)
	}
	sid, err := trace.SpanIDFromHex(fmt.Sprintf("00f067aa0ba902%02x", n))
	if err != nil {
		t.Fatal(err)
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
}

func call(accountID int64, requestID string) telemetry.Span {
	return telemetry.Span{
		AccountID: accountID, RequestID: requestID, Operation: "scrape",
		Method: "POST", Route: "/v1/scrape", Status: 200,
		Start: callStart, Duration: 1500 * time.Millisecond,
		CreditsCharged: 5, Tier: "http",
	}
}

func dest(r *otlptest.Receiver) telemetry.Destination {
	return telemetry.Destination{Endpoint: r.URL(), Headers: map[string]string{
		"Authorization": secretAuth, "X-Scope-OrgID": "tenant-1",
	}}
}

// newForwarding builds a Forwarding whose exporters trust the loopback
// receivers' certificate (all httptest TLS servers share it) and closes it
// when the test ends.
func newForwarding(t *testing.T, rcv *otlptest.Receiver, load telemetry.LoadFunc, opts telemetry.Options) *telemetry.Forwarding {
	t.Helper()
	if opts.HTTPClient == nil {
		opts.HTTPClient = rcv.Client()
	}
	if opts.BatchDelay == 0 {
		opts.BatchDelay = 10 * time.Millisecond
	}
	if opts.ExportTimeout == 0 {
		opts.ExportTimeout = wait
	}
	f := telemetry.New(load, &opts)
	t.Cleanup(func() { _ = f.Close(context.Background()) })
	return f
}

func closeNow(t *testing.T, f *telemetry.Forwarding) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := f.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func requestIDs(spans []otlptest.Span) []string {
	var ids []string
	for _, s := range spans {
		ids = append(ids, fmt.Sprint(s.Attributes[telemetry.AttrRequestID]))
	}
	return ids
}

func TestRecordExportsCallSpan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		span      func(*testing.T) telemetry.Span
		wantName  string
		wantAttrs map[string]any
		wantCode  codes.Code
		keepIDs   bool
	}{
		{
			name: "ok call with tier",
			span: func(t *testing.T) telemetry.Span {
				s := call(7, "req_1")
				s.Trace = callContext(t, 1)
				return s
			},
			wantName: "POST /v1/scrape",
			wantAttrs: map[string]any{
				"http.request.method": "POST", "http.route": "/v1/scrape", "http.response.status_code": int64(200),
				"webinfra.operation": "scrape", "webinfra.request_id": "req_1", "webinfra.account_id": int64(7),
				"webinfra.credits_charged": int64(5), "webinfra.tier": "http",
			},
			wantCode: codes.Unset, keepIDs: true,
		},
		{
			name: "server error without fetch, no call ids",
			span: func(*testing.T) telemetry.Span {
				s := call(7, "req_2")
				s.Method, s.Route, s.Operation, s.Status, s.Tier, s.CreditsCharged = "GET", "/v1/usage", "usage", 503, "", 0
				return s
			},
			wantName: "GET /v1/usage",
			wantAttrs: map[string]any{
				"http.request.method": "GET", "http.route": "/v1/usage", "http.response.status_code": int64(503),
				"error.type": "503", "webinfra.operation": "usage", "webinfra.request_id": "req_2",
				"webinfra.account_id": int64(7), "webinfra.credits_charged": int64(0),
			},
			wantCode: codes.Error,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rcv := otlptest.NewTLS(t)
			f := newForwarding(t, rcv, nil, telemetry.Options{ServiceVersion: "1.2.3"})
			if err := f.Add(7, 1, dest(rcv)); err != nil {
				t.Fatal(err)
			}
			s := tc.span(t)
			f.Record(context.Background(), s)
			got := rcv.Wait(t, 1, wait)[0]

			if got.Name != tc.wantName || got.Kind != trace.SpanKindServer || got.StatusCode != tc.wantCode {
				t.Errorf("span = %q kind %v status %v, want %q server %v", got.Name, got.Kind, got.StatusCode, tc.wantName, tc.wantCode)
			}
			if fmt.Sprint(got.Attributes) != fmt.Sprint(tc.wantAttrs) {
				t.Errorf("attributes =\n%v\nwant\n%v", got.Attributes, tc.wantAttrs)
			}
			if got.ResourceAttributes["service.name"] != "webinfra" || got.ResourceAttributes["service.version"] != "1.2.3" {
				t.Errorf("resource = %v", got.ResourceAttributes)
			}
			if !got.Start.Equal(callStart) || !got.End.Equal(callStart.Add(1500*time.Millisecond)) {
				t.Errorf("times = %v..%v", got.Start, got.End)
			}
			if tc.keepIDs && (got.TraceID != s.Trace.TraceID().String() || got.SpanID != s.Trace.SpanID().String()) {
				t.Errorf("ids = %s/%s, want the call's %s/%s", got.TraceID, got.SpanID, s.Trace.TraceID(), s.Trace.SpanID())
			}
			if !tc.keepIDs && (len(got.TraceID) != 32 || got.TraceID == strings.Repeat("0", 32)) {
				t.Errorf("trace id = %q, want a generated one", got.TraceID)
			}
			if got.ParentSpanID != "" {
				t.Errorf("parent = %q, want a root span", got.ParentSpanID)
			}
			h := rcv.Headers()[0]
			if h.Get("Authorization") != secretAuth || h.Get("X-Scope-OrgID") != "tenant-1" {
				t.Errorf("headers = %v", h)
			}
			if dump := fmt.Sprint(got); strings.Contains(dump, "fwd-secret") || strings.Contains(dump, "tenant-1") {
				t.Errorf("span carries a header value: %s", dump)
			}
		})
	}
}

func TestPlainHTTPEndpoint(t *testing.T) {
	t.Parallel()
	rcv := otlptest.New(t)
	f := newForwarding(t, rcv, nil, telemetry.Options{})
	if err := f.Add(1, 1, dest(rcv)); err != nil {
		t.Fatal(err)
	}
	f.Record(context.Background(), call(1, "req_plain"))
	if got := rcv.Wait(t, 1, wait); requestIDs(got)[0] != "req_plain" {
		t.Errorf("got %v", requestIDs(got))
	}
}

func TestAccountsGetOnlyTheirSpans(t *testing.T) {
	t.Parallel()
	rcvA, rcvB := otlptest.NewTLS(t), otlptest.NewTLS(t)
	stored := map[int64]map[int64]telemetry.Destination{
		1: {11: dest(rcvA)},
		2: {21: dest(rcvB)},
	}
	load := func(_ context.Context, id int64) (map[int64]telemetry.Destination, error) { return stored[id], nil }
	f := newForwarding(t, rcvA, load, telemetry.Options{BatchDelay: time.Hour})
	for i := range 3 {
		f.Record(context.Background(), call(1, fmt.Sprintf("a%d", i)))
		f.Record(context.Background(), call(2, fmt.Sprintf("b%d", i)))
		f.Record(context.Background(), call(3, "nobody")) // no forwarders
	}
	closeNow(t, f)
	if got := fmt.Sprint(requestIDs(rcvA.Spans())); got != "[a0 a1 a2]" {
		t.Errorf("account 1's receiver got %s", got)
	}
	if got := fmt.Sprint(requestIDs(rcvB.Spans())); got != "[b0 b1 b2]" {
		t.Errorf("account 2's receiver got %s", got)
	}
}

// countingLoad serves a mutable store and counts the calls.
type countingLoad struct {
	mu    sync.Mutex
	sets  map[int64]map[int64]telemetry.Destination
	err   error
	calls int
}

func (l *countingLoad) load(_ context.Context, id int64) (map[int64]telemetry.Destination, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if l.err != nil {
		return nil, l.err
	}
	return l.sets[id], nil
}

func (l *countingLoad) set(id int64, set map[int64]telemetry.Destination, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sets[id], l.err = set, err
}

func (l *countingLoad) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls
}

// fakeClock is the injected Now.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestAddTakesEffectAtOnce(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	store := &countingLoad{sets: map[int64]map[int64]telemetry.Destination{}}
	f := newForwarding(t, rcv, store.load, telemetry.Options{Refresh: time.Hour})
	f.Record(context.Background(), call(5, "before")) // loads the empty set; cached for an hour
	store.set(5, map[int64]telemetry.Destination{1: dest(rcv)}, nil)
	if err := f.Add(5, 1, dest(rcv)); err != nil {
		t.Fatal(err)
	}
	f.Record(context.Background(), call(5, "after"))
	closeNow(t, f)
	if got := fmt.Sprint(requestIDs(rcv.Spans())); got != "[after]" {
		t.Errorf("received %s, want [after]", got)
	}
	if n := store.count(); n != 1 {
		t.Errorf("Load called %d times, want 1", n)
	}
}

func TestRemoveFlushesBufferedAndStopsNew(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	f := newForwarding(t, rcv, nil, telemetry.Options{BatchDelay: time.Hour})
	if err := f.Add(5, 1, dest(rcv)); err != nil {
		t.Fatal(err)
	}
	f.Record(context.Background(), call(5, "buffered"))
	f.Remove(5, 1) // returns at once; the buffered span is flushed in the background
	f.Record(context.Background(), call(5, "after-remove"))
	rcv.Wait(t, 1, wait) // delivered long before the hour-long batch delay
	closeNow(t, f)
	if got := fmt.Sprint(requestIDs(rcv.Spans())); got != "[buffered]" {
		t.Errorf("received %s, want [buffered]", got)
	}
}

func TestLoadAndRefresh(t *testing.T) {
	t.Parallel()
	rcv1, rcv2 := otlptest.NewTLS(t), otlptest.NewTLS(t)
	store := &countingLoad{sets: map[int64]map[int64]telemetry.Destination{9: {1: dest(rcv1)}}}
	clock := &fakeClock{now: callStart}
	f := newForwarding(t, rcv1, store.load, telemetry.Options{Refresh: 2 * time.Second, Now: clock.Now, BatchDelay: time.Hour})

	f.Record(context.Background(), call(9, "first")) // not cached: loaded
	clock.Advance(1999 * time.Millisecond)
	f.Record(context.Background(), call(9, "cached"))
	if n := store.count(); n != 1 {
		t.Fatalf("Load called %d times within Refresh, want 1", n)
	}

	// Another process replaced the forwarder; seen after Refresh.
	store.set(9, map[int64]telemetry.Destination{2: dest(rcv2)}, nil)
	clock.Advance(time.Millisecond)
	f.Record(context.Background(), call(9, "refreshed"))
	if n := store.count(); n != 2 {
		t.Fatalf("Load called %d times after Refresh, want 2", n)
	}

	// A failing store keeps the last known set.
	store.set(9, nil, errors.New("database is down"))
	clock.Advance(2 * time.Second)
	f.Record(context.Background(), call(9, "stale"))
	if n := store.count(); n != 3 {
		t.Fatalf("Load called %d times, want 3", n)
	}

	closeNow(t, f)
	if got := fmt.Sprint(requestIDs(rcv1.Spans())); got != "[first cached]" {
		t.Errorf("old receiver got %s", got)
	}
	if got := fmt.Sprint(requestIDs(rcv2.Spans())); got != "[refreshed stale]" {
		t.Errorf("new receiver got %s", got)
	}
}

func TestLoadFailureWithoutCacheRetries(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	store := &countingLoad{sets: map[int64]map[int64]telemetry.Destination{}}
	store.set(4, nil, errors.New("database is down"))
	f := newForwarding(t, rcv, store.load, telemetry.Options{Refresh: time.Hour, BatchDelay: time.Hour})
	f.Record(context.Background(), call(4, "lost"))
	store.set(4, map[int64]telemetry.Destination{1: dest(rcv)}, nil)
	f.Record(context.Background(), call(4, "kept"))
	closeNow(t, f)
	if got := fmt.Sprint(requestIDs(rcv.Spans())); got != "[kept]" {
		t.Errorf("received %s", got)
	}
	if n := store.count(); n != 2 {
		t.Errorf("Load called %d times, want 2", n)
	}
}

func TestLoadIgnoresCallerCancellation(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	load := func(ctx context.Context, id int64) (map[int64]telemetry.Destination, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return map[int64]telemetry.Destination{1: dest(rcv)}, nil
	}
	f := newForwarding(t, rcv, load, telemetry.Options{BatchDelay: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the request is over when its span is recorded
	f.Record(ctx, call(3, "late"))
	closeNow(t, f)
	if got := len(rcv.Spans()); got != 1 {
		t.Errorf("received %d spans, want 1", got)
	}
}

func TestEvictionFlushesAndReloads(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	store := &countingLoad{sets: map[int64]map[int64]telemetry.Destination{1: {1: dest(rcv)}, 2: {2: dest(rcv)}}}
	f := newForwarding(t, rcv, store.load, telemetry.Options{MaxAccounts: 1, BatchDelay: time.Hour, Refresh: time.Hour})
	f.Record(context.Background(), call(1, "one"))
	f.Record(context.Background(), call(2, "two")) // evicts account 1, flushing "one"
	rcv.Wait(t, 1, wait)
	if st := f.Stats(); st.Accounts != 1 || st.Forwarders != 1 {
		t.Errorf("stats = %+v, want 1 account, 1 forwarder", st)
	}
	f.Record(context.Background(), call(1, "one-again"))
	if n := store.count(); n != 3 {
		t.Errorf("Load called %d times, want 3", n)
	}
	closeNow(t, f)
	if got := len(rcv.Spans()); got != 3 {
		t.Errorf("received %d spans, want 3", got)
	}
}

func TestCloseFlushes(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	f := newForwarding(t, rcv, nil, telemetry.Options{BatchDelay: time.Hour})
	if err := f.Add(1, 1, dest(rcv)); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		f.Record(context.Background(), call(1, fmt.Sprint(i)))
	}
	if n := len(rcv.Spans()); n != 0 {
		t.Fatalf("%d spans before Close with an hour's batch delay", n)
	}
	closeNow(t, f)
	if got := fmt.Sprint(requestIDs(rcv.Spans())); got != "[0 1 2]" {
		t.Errorf("received %s after Close", got)
	}
	if st := f.Stats(); st.Queued != 3 || st.Exported != 3 {
		t.Errorf("stats = %+v", st)
	}
	f.Record(context.Background(), call(1, "closed")) // no-op, no panic
	if err := f.Add(1, 2, dest(rcv)); err == nil {
		t.Error("Add after Close succeeded")
	}
}

func TestFailedExportsAreCounted(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	rcv.SetStatus(http.StatusServiceUnavailable)
	f := newForwarding(t, rcv, nil, telemetry.Options{BatchDelay: time.Hour})
	if err := f.Add(1, 1, dest(rcv)); err != nil {
		t.Fatal(err)
	}
	f.Record(context.Background(), call(1, "x"))
	f.Record(context.Background(), call(1, "y"))
	closeNow(t, f)
	if st := f.Stats(); st.Failed != 2 || st.Exported != 0 {
		t.Errorf("stats = %+v, want 2 failed", st)
	}
	if n := len(rcv.Headers()); n != 1 {
		t.Errorf("%d export requests, want 1 (no retries)", n)
	}
}
