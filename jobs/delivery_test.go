package jobs_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/jobs"
)

const (
	hookSecret  = "whsec_0123456789abcdef0123456789abcdef"
	hookEventID = "job_abc123"
	hookBody    = `{"job_id":"job_abc123","result":{"url":"https://example.com","status":200}}`
)

// hookClock is an injected clock that moves only when hookSleeps sleeps.
type hookClock struct {
	mu  sync.Mutex
	now time.Time
}

func newHookClock() *hookClock { return &hookClock{now: time.Now().Truncate(time.Second)} }

func (c *hookClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *hookClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// hookSleeps is an injected Sleep that records the waits and advances the
// clock instead of sleeping.
type hookSleeps struct {
	clock *hookClock
	mu    sync.Mutex
	waits []time.Duration
}

func (s *hookSleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	s.clock.advance(d)
	return ctx.Err()
}

func (s *hookSleeps) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.waits)
}

// hookReceiver is a real HTTPS webhook receiver that verifies every try's
// signature and headers with the receiver-side API, then answers with
// respond (try is 1-based).
type hookReceiver struct {
	srv      *httptest.Server
	clock    func() time.Time
	respond  func(try int, w http.ResponseWriter, r *http.Request)
	mu       sync.Mutex
	tries    int
	signedAt []int64 // the t= of each try's signature
	problems []string
}

func newHookReceiver(t *testing.T, clock func() time.Time, respond func(try int, w http.ResponseWriter, r *http.Request)) *hookReceiver {
	t.Helper()
	h := &hookReceiver{clock: clock, respond: respond}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hookReceiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	header := r.Header.Get(jobs.SignatureHeader)
	var problems []string
	if err := jobs.VerifySignatureAt(header, body, hookSecret, 0, h.clock()); err != nil {
		problems = append(problems, "signature: "+err.Error())
	}
	if r.Method != http.MethodPost {
		problems = append(problems, "method "+r.Method)
	}
	if got := r.Header.Get("Content-Type"); got != "application/json" {
		problems = append(problems, "content-type "+got)
	}
	if got := r.Header.Get(jobs.EventIDHeader); got != hookEventID {
		problems = append(problems, "event id "+got)
	}
	if string(body) != hookBody {
		problems = append(problems, "body "+string(body))
	}
	ts, _, _ := strings.Cut(strings.TrimPrefix(header, "t="), ",")
	unix, _ := strconv.ParseInt(ts, 10, 64)

	h.mu.Lock()
	h.tries++
	try := h.tries
	h.signedAt = append(h.signedAt, unix)
	h.problems = append(h.problems, problems...)
	h.mu.Unlock()
	h.respond(try, w, r)
}

// check fails the test if any try was badly signed or shaped, and returns
// how many tries arrived.
func (h *hookReceiver) check(t *testing.T) int {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.problems {
		t.Errorf("receiver saw a bad try: %s", p)
	}
	return h.tries
}

func (h *hookReceiver) delivery() jobs.Delivery {
	return jobs.Delivery{URL: h.srv.URL + "/hooks/webinfra", EventID: hookEventID, Body: []byte(hookBody), Secret: hookSecret}
}

// answer returns a respond func that answers each try with the next code
// and repeats the last one.
func answer(codes ...int) func(int, http.ResponseWriter, *http.Request) {
	return func(try int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(codes[min(try, len(codes))-1])
	}
}

// newHookSender returns a Sender for h with an injected clock and sleep.
func newHookSender(h *hookReceiver, clock *hookClock) (*jobs.Sender, *hookSleeps) {
	sleeps := &hookSleeps{clock: clock}
	return &jobs.Sender{Client: h.srv.Client(), Now: clock.Now, Sleep: sleeps.Sleep, UserAgent: "hook-test/1"}, sleeps
}

func TestAttemptStatusOutcomes(t *testing.T) {
	t.Parallel()
	allWaits := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	tests := []struct {
		name       string
		codes      []int
		delivered  bool
		tries      int
		lastStatus int
		lastError  string
	}{
		{name: "200 first try", codes: []int{200}, delivered: true, tries: 1, lastStatus: 200},
		{name: "204 first try", codes: []int{204}, delivered: true, tries: 1, lastStatus: 204},
		{name: "202 first try", codes: []int{202}, delivered: true, tries: 1, lastStatus: 202},
		{name: "500 every time", codes: []int{500}, tries: 4, lastStatus: 500, lastError: "receiver answered 500"},
		{name: "success after two failures", codes: []int{500, 503, 200}, delivered: true, tries: 3, lastStatus: 200},
		{name: "success on the last retry", codes: []int{502, 500, 429, 201}, delivered: true, tries: 4, lastStatus: 201},
		{name: "404 is retried", codes: []int{404}, tries: 4, lastStatus: 404, lastError: "receiver answered 404"},
		{name: "304 is a failure", codes: []int{304}, tries: 4, lastStatus: 304, lastError: "redirects are not followed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := newHookClock()
			h := newHookReceiver(t, clock.Now, answer(tc.codes...))
			s, sleeps := newHookSender(h, clock)
			var seen []jobs.TryResult
			res := s.Attempt(t.Context(), h.delivery(), func(tr jobs.TryResult) { seen = append(seen, tr) })

			if got := h.check(t); got != tc.tries {
				t.Fatalf("receiver saw %d tries, want %d", got, tc.tries)
			}
			if res.Delivered != tc.delivered || len(res.Tries) != tc.tries || res.LastStatusCode != tc.lastStatus {
				t.Fatalf("result = %+v, want delivered=%v tries=%d last status %d", res, tc.delivered, tc.tries, tc.lastStatus)
			}
			if !strings.Contains(res.LastError, tc.lastError) || (tc.lastError == "") != (res.LastError == "") {
				t.Fatalf("LastError = %q, want it to contain %q", res.LastError, tc.lastError)
			}
			if !slices.Equal(seen, res.Tries) {
				t.Fatalf("onTry saw %+v, result has %+v", seen, res.Tries)
			}
			if got, want := sleeps.recorded(), allWaits[:tc.tries-1]; !slices.Equal(got, want) {
				t.Fatalf("waits = %v, want %v", got, want)
			}
			for i, tr := range res.Tries {
				if tr.Try != i+1 || tr.StatusCode != tc.codes[min(i, len(tc.codes)-1)] {
					t.Fatalf("try %d = %+v", i+1, tr)
				}
			}
		})
	}
}

// TestAttemptBackoffAndFreshSignatures checks the schedule inside one
// attempt: waits of exactly 1s, 2s, 4s, and a signature made at each try's
// own time, all verified by the receiver.
func TestAttemptBackoffAndFreshSignatures(t *testing.T) {
	t.Parallel()
	clock := newHookClock()
	start := clock.Now()
	h := newHookReceiver(t, clock.Now, answer(500))
	s, sleeps := newHookSender(h, clock)
	res := s.Attempt(t.Context(), h.delivery(), nil)

	if got := h.check(t); got != 4 || res.Delivered {
		t.Fatalf("tries = %d, delivered = %v; want 4 failed tries", got, res.Delivered)
	}
	if got, want := sleeps.recorded(), []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}; !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
	offsets := []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second}
	for i, off := range offsets {
		want := start.Add(off)
		if h.signedAt[i] != want.Unix() {
			t.Errorf("try %d signed at t=%d, want %d", i+1, h.signedAt[i], want.Unix())
		}
		if !res.Tries[i].At.Equal(want) {
			t.Errorf("try %d At = %v, want %v", i+1, res.Tries[i].At, want)
		}
	}
}

func TestAttemptCustomBackoff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		backoff []time.Duration
		tries   int
	}{
		{name: "empty means one try", backoff: []time.Duration{}, tries: 1},
		{name: "two waits", backoff: []time.Duration{5 * time.Second, time.Minute}, tries: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := newHookClock()
			h := newHookReceiver(t, clock.Now, answer(503))
			s, sleeps := newHookSender(h, clock)
			s.Backoff = tc.backoff
			res := s.Attempt(t.Context(), h.delivery(), nil)
			if got := h.check(t); got != tc.tries || len(res.Tries) != tc.tries {
				t.Fatalf("tries = %d (result %d), want %d", got, len(res.Tries), tc.tries)
			}
			if got := sleeps.recorded(); !slices.Equal(got, tc.backoff) {
				t.Fatalf("waits = %v, want %v", got, tc.backoff)
			}
		})
	}
}

func TestAttemptDoesNotFollowRedirects(t *testing.T) {
	t.Parallel()
	clock := newHookClock()
	var mu sync.Mutex
	targetHits := 0
	h := newHookReceiver(t, clock.Now, func(_ int, w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			mu.Lock()
			targetHits++
			mu.Unlock()
			return
		}
		http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
	})
	s, _ := newHookSender(h, clock)
	res := s.Attempt(t.Context(), h.delivery(), nil)
	if res.Delivered || len(res.Tries) != 4 || res.LastStatusCode != http.StatusTemporaryRedirect {
		t.Fatalf("result = %+v, want 4 failed tries with 307", res)
	}
	if !strings.Contains(res.LastError, "redirects are not followed") {
		t.Fatalf("LastError = %q", res.LastError)
	}
	mu.Lock()
	defer mu.Unlock()
	if targetHits != 0 {
		t.Fatalf("redirect target was hit %d times", targetHits)
	}
	if h.srv.Client().CheckRedirect != nil {
		t.Fatal("Attempt changed the caller's client")
	}
	h.check(t)
}

func TestAttemptRetriesConnectionErrors(t *testing.T) {
	t.Parallel()
	t.Run("closed server", func(t *testing.T) {
		t.Parallel()
		clock := newHookClock()
		h := newHookReceiver(t, clock.Now, answer(200))
		s, sleeps := newHookSender(h, clock)
		h.srv.Close()
		res := s.Attempt(t.Context(), h.delivery(), nil)
		if res.Delivered || len(res.Tries) != 4 || res.LastStatusCode != 0 || res.LastError == "" {
			t.Fatalf("result = %+v, want 4 failed tries without a status", res)
		}
		for _, tr := range res.Tries {
			if tr.StatusCode != 0 || tr.Error == "" || strings.Contains(tr.Error, h.srv.URL) {
				t.Fatalf("try = %+v, want a connection error that does not repeat the URL", tr)
			}
		}
		if got := len(sleeps.recorded()); got != 3 {
			t.Fatalf("%d waits, want 3", got)
		}
	})
	t.Run("connection dropped, then success", func(t *testing.T) {
		t.Parallel()
		clock := newHookClock()
		h := newHookReceiver(t, clock.Now, func(try int, w http.ResponseWriter, _ *http.Request) {
			if try == 1 {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					_ = conn.Close()
				}
				return
			}
			w.WriteHeader(http.StatusOK)
		})
		s, _ := newHookSender(h, clock)
		res := s.Attempt(t.Context(), h.delivery(), nil)
		if got := h.check(t); got != 2 || !res.Delivered {
			t.Fatalf("receiver saw %d tries, result %+v; want delivered on try 2", got, res)
		}
		if first := res.Tries[0]; first.StatusCode != 0 || first.Error == "" {
			t.Fatalf("first try = %+v, want a connection error", first)
		}
	})
}

// TestAttemptTimesOutSlowReceivers uses a short TryTimeout; it is the only
// test here that waits on the real clock.
func TestAttemptTimesOutSlowReceivers(t *testing.T) {
	t.Parallel()
	clock := newHookClock()
	h := newHookReceiver(t, clock.Now, func(try int, w http.ResponseWriter, r *http.Request) {
		if try <= 2 {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			// Never answer a slow try: returning normally would send an
			// implicit 200, which can race the sender's own deadline
			// (the sender closing the connection is what ends the wait).
			panic(http.ErrAbortHandler)
		}
		w.WriteHeader(http.StatusOK)
	})
	s, sleeps := newHookSender(h, clock)
	// Long enough for a fresh TLS handshake on a loaded CI machine, short
	// enough to keep the test quick.
	s.TryTimeout = time.Second
	begin := time.Now()
	res := s.Attempt(t.Context(), h.delivery(), nil)
	if took := time.Since(begin); took > 5*time.Second {
		t.Fatalf("attempt took %v; the try timeout did not cut the slow tries", took)
	}
	if got := h.check(t); got != 3 || !res.Delivered || len(res.Tries) != 3 {
		t.Fatalf("receiver saw %d tries, result %+v; want delivered on try 3", got, res)
	}
	for _, tr := range res.Tries[:2] {
		if tr.StatusCode != 0 || tr.Error != "no response within 1s" {
			t.Fatalf("slow try = %+v, want a timeout", tr)
		}
	}
	if got, want := sleeps.recorded(), []time.Duration{time.Second, 2 * time.Second}; !slices.Equal(got, want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
}

func TestAttemptReadsABoundedResponse(t *testing.T) {
	t.Parallel()
	const huge = 64 << 20
	written := make(chan int, 1)
	clock := newHookClock()
	h := newHookReceiver(t, clock.Now, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk, n := make([]byte, 32<<10), 0
		for n < huge {
			m, err := w.Write(chunk)
			n += m
			if err != nil {
				break
			}
		}
		written <- n
	})
	s, _ := newHookSender(h, clock)
	res := s.Attempt(t.Context(), h.delivery(), nil)
	if !res.Delivered || len(res.Tries) != 1 {
		t.Fatalf("result = %+v, want delivered on the first try", res)
	}
	if n := <-written; n >= huge {
		t.Fatalf("receiver wrote its whole %d-byte body; the sender read it all", n)
	}
	h.check(t)
}

func TestAttemptStopsWhenContextEnds(t *testing.T) {
	t.Parallel()
	clock := newHookClock()
	h := newHookReceiver(t, clock.Now, answer(500))
	ctx, cancel := context.WithCancel(t.Context())
	s := &jobs.Sender{Client: h.srv.Client(), Now: clock.Now, Sleep: func(ctx context.Context, _ time.Duration) error {
		cancel()
		return ctx.Err()
	}}
	res := s.Attempt(ctx, h.delivery(), nil)
	if got := h.check(t); got != 1 || len(res.Tries) != 1 || res.Delivered {
		t.Fatalf("receiver saw %d tries, result %+v; want one failed try", got, res)
	}
	if !strings.Contains(res.LastError, "stopped before try 2") || res.LastStatusCode != 500 {
		t.Fatalf("result = %+v", res)
	}
}

func TestAttemptRefusesBadURLs(t *testing.T) {
	t.Parallel()
	plain := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		t.Error("plain-HTTP receiver was called")
	}))
	t.Cleanup(plain.Close)
	s := &jobs.Sender{Client: plain.Client(), Sleep: func(context.Context, time.Duration) error {
		t.Error("slept before a refused URL")
		return nil
	}}
	res := s.Attempt(t.Context(), jobs.Delivery{URL: plain.URL, Body: []byte(hookBody), Secret: hookSecret}, func(jobs.TryResult) {
		t.Error("onTry called for a refused URL")
	})
	if res.Delivered || len(res.Tries) != 0 || !strings.Contains(res.LastError, "must use https") {
		t.Fatalf("result = %+v, want no tries and a https error", res)
	}
}

// TestAttemptNilClientIsGuarded: without a client, Sender uses the
// SSRF-guarded one, which refuses a loopback receiver before connecting.
func TestAttemptNilClientIsGuarded(t *testing.T) {
	t.Parallel()
	clock := newHookClock()
	h := newHookReceiver(t, clock.Now, answer(200))
	s := &jobs.Sender{Now: clock.Now, Backoff: []time.Duration{}}
	res := s.Attempt(t.Context(), h.delivery(), nil)
	if got := h.check(t); got != 0 || res.Delivered || res.LastError == "" {
		t.Fatalf("receiver saw %d tries, result %+v; want a refused try", got, res)
	}
}
