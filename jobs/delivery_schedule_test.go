package jobs_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/jobs"
)

// statusTransport answers every request in memory with a fixed status.
// The synctest tests below use it because a bubble's fake clock only moves
// when every goroutine is blocked inside the bubble, which real sockets are
// not; the HTTPS receiver tests above cover the wire.
type statusTransport struct {
	mu     sync.Mutex
	status int
	at     []time.Time
}

func (st *statusTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	st.mu.Lock()
	st.at = append(st.at, time.Now())
	st.mu.Unlock()
	if r.Body != nil {
		_ = r.Body.Close()
	}
	return &http.Response{StatusCode: st.status, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
}

func TestAttemptDefaultSleep(t *testing.T) {
	t.Parallel()
	d := jobs.Delivery{URL: "https://hooks.example/webinfra", EventID: hookEventID, Body: []byte(hookBody), Secret: hookSecret}
	t.Run("waits 1s, 2s, 4s", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			st := &statusTransport{status: 500}
			s := &jobs.Sender{Client: &http.Client{Transport: st}}
			start := time.Now()
			res := s.Attempt(t.Context(), d, nil)
			if res.Delivered || len(res.Tries) != 4 {
				t.Fatalf("result = %+v, want 4 failed tries", res)
			}
			var offsets []time.Duration
			for _, at := range st.at {
				offsets = append(offsets, at.Sub(start))
			}
			if want := []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second}; !slices.Equal(offsets, want) {
				t.Fatalf("tries at %v, want %v", offsets, want)
			}
		})
	})
	t.Run("stops when ctx ends mid-wait", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			st := &statusTransport{status: 503}
			s := &jobs.Sender{Client: &http.Client{Transport: st}}
			ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
			defer cancel()
			start := time.Now()
			res := s.Attempt(ctx, d, nil)
			if took := time.Since(start); took != 1500*time.Millisecond {
				t.Fatalf("attempt returned after %v, want 1.5s (when ctx ended during the 2s wait)", took)
			}
			if len(res.Tries) != 2 || !strings.Contains(res.LastError, "stopped before try 3") ||
				!strings.Contains(res.LastError, context.DeadlineExceeded.Error()) {
				t.Fatalf("result = %+v, want 2 tries and a stop before try 3", res)
			}
		})
	})
	t.Run("cancel ends the wait at once", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			st := &statusTransport{status: 500}
			s := &jobs.Sender{Client: &http.Client{Transport: st}, Backoff: []time.Duration{time.Hour}}
			ctx, cancel := context.WithCancel(t.Context())
			go func() {
				time.Sleep(3 * time.Second)
				cancel()
			}()
			start := time.Now()
			res := s.Attempt(ctx, d, nil)
			if took := time.Since(start); took != 3*time.Second || len(res.Tries) != 1 {
				t.Fatalf("took %v with %d tries, want 3s and 1 try", took, len(res.Tries))
			}
			if !errors.Is(ctx.Err(), context.Canceled) || !strings.Contains(res.LastError, "context canceled") {
				t.Fatalf("LastError = %q", res.LastError)
			}
		})
	})
}

func TestAttemptDelay(t *testing.T) {
	t.Parallel()
	want := map[int]time.Duration{
		-1: 0, 0: 0,
		1: time.Minute, 2: 10 * time.Minute, 3: time.Hour, 4: 6 * time.Hour,
		5: 0, 6: 0,
	}
	for attempt, d := range want {
		if got := jobs.AttemptDelay(attempt); got != d {
			t.Errorf("AttemptDelay(%d) = %v, want %v", attempt, got, d)
		}
	}
	if jobs.MaxAttempts != 5 {
		t.Fatalf("MaxAttempts = %d, want 5", jobs.MaxAttempts)
	}
}

// TestAttemptScheduleFitsInADay plays the whole delivery on a fake clock:
// MaxAttempts attempts, each failing as slowly as possible (every try runs
// into the default 15s timeout, with the default waits between tries), with
// AttemptDelay between attempts. The last attempt must end within 24 hours.
func TestAttemptScheduleFitsInADay(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		slow := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done() // no answer: the try timeout ends it
			return nil, r.Context().Err()
		})}
		s := &jobs.Sender{Client: slow}
		d := jobs.Delivery{URL: "https://hooks.example/webinfra", EventID: hookEventID, Body: []byte(hookBody), Secret: hookSecret}
		start := time.Now()
		for attempt := 1; attempt <= jobs.MaxAttempts; attempt++ {
			before := time.Now()
			res := s.Attempt(t.Context(), d, nil)
			if res.Delivered || len(res.Tries) != 4 {
				t.Fatalf("attempt %d = %+v, want 4 failed tries", attempt, res)
			}
			if took, want := time.Since(before), 4*jobs.DefaultTryTimeout+7*time.Second; took != want {
				t.Fatalf("attempt %d took %v, want %v", attempt, took, want)
			}
			if attempt < jobs.MaxAttempts {
				if jobs.AttemptDelay(attempt) <= 0 {
					t.Fatalf("AttemptDelay(%d) = 0 before the last attempt", attempt)
				}
				time.Sleep(jobs.AttemptDelay(attempt))
			}
		}
		if total := time.Since(start); total >= 24*time.Hour {
			t.Fatalf("five slow attempts end %v after the first, want under 24h", total)
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestValidateWebhookURL(t *testing.T) {
	t.Parallel()
	long := "https://example.com/" + strings.Repeat("a", 2048-len("https://example.com/"))
	tests := []struct {
		url  string
		want string // part of the message; empty means valid
	}{
		{url: "https://example.com/hooks/webinfra"},
		{url: "https://example.com"},
		{url: "https://example.com:8443/hook?source=webinfra#frag"},
		{url: "HTTPS://Example.COM/hook"},
		{url: "https://[2001:db8::1]/hook"},
		{url: long},
		{url: long + "a", want: "at most 2048 characters"},
		{url: "", want: "must not be empty"},
		{url: "   ", want: "must not be empty"},
		{url: "http://example.com/hook", want: "must use https"},
		{url: "HTTP://example.com/hook", want: "must use https"},
		{url: "ftp://example.com/hook", want: "must use https"},
		{url: "ws://example.com/hook", want: "must use https"},
		{url: "example.com/hook", want: "absolute https URL"},
		{url: "//example.com/hook", want: "absolute https URL"},
		{url: "/hooks/webinfra", want: "absolute https URL"},
		{url: "https://", want: "with a host"},
		{url: "https:///hook", want: "with a host"},
		{url: "https://:443/hook", want: "with a host"},
		{url: "https:example.com", want: "with a host"},
		{url: "https://user:secret@example.com/hook", want: "user name or password"},
		{url: "https://user@example.com/hook", want: "user name or password"},
		{url: "https://exa mple.com/hook", want: "not a valid URL"},
		{url: "https://example.com/ho\nok", want: "not a valid URL"},
		{url: " https://example.com/hook", want: "not a valid URL"},
		{url: "https://example.com:http/hook", want: "not a valid URL"},
		{url: "https://[::1/hook", want: "not a valid URL"},
	}
	for _, tc := range tests {
		err := jobs.ValidateWebhookURL(tc.url)
		if tc.want == "" {
			if err != nil {
				t.Errorf("ValidateWebhookURL(%q) = %v, want nil", tc.url, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ValidateWebhookURL(%q) = %v, want an error containing %q", tc.url, err, tc.want)
			continue
		}
		if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != "webhook_url" {
			t.Errorf("ValidateWebhookURL(%q): kind %q field %q, want invalid webhook_url", tc.url, errs.KindOf(err), errs.FieldOf(err))
		}
	}
}
