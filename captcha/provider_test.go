package captcha_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/captcha"
	"github.com/webinfra/webinfra/captcha/captchatest"
	"github.com/webinfra/webinfra/errs"
)

var v2Request = captcha.SolveRequest{Type: "recaptcha_v2", SiteKey: recaptchaKey, PageURL: pageURL}

// TestPollingUntilReady: the first poll comes after InitialDelay, the
// others every PollInterval, until "ready".
func TestPollingUntilReady(t *testing.T) {
	t.Parallel()
	for _, d := range []captchatest.Dialect{captchatest.TwoCaptcha, captchatest.CapSolver} {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			srv := fakes(t, d, captchatest.Config{Pending: 3})
			opts := optionsFor(srv, d)
			opts.InitialDelay, opts.PollInterval = 7*time.Second, 2*time.Second
			c, slept := newClient(t, opts)
			sol, err := c.Solve(context.Background(), v2Request)
			if err != nil {
				t.Fatal(err)
			}
			if sol.Token != captchatest.DefaultToken {
				t.Errorf("token %q", sol.Token)
			}
			if got := srv.Polls(); got != 4 {
				t.Errorf("%d polls, want 3 processing + 1 ready", got)
			}
			want := []time.Duration{7 * time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}
			if got := slept.all(); !reflect.DeepEqual(got, want) {
				t.Errorf("waited %v, want %v", got, want)
			}
		})
	}
}

// TestDefaultPolling: 5 s before the first poll and between polls.
func TestDefaultPolling(t *testing.T) {
	t.Parallel()
	srv := fakes(t, captchatest.TwoCaptcha, captchatest.Config{Pending: 1})
	c, slept := newClient(t, optionsFor(srv, captchatest.TwoCaptcha))
	if _, err := c.Solve(context.Background(), v2Request); err != nil {
		t.Fatal(err)
	}
	if got, want := slept.all(), []time.Duration{5 * time.Second, 5 * time.Second}; !reflect.DeepEqual(got, want) {
		t.Errorf("waited %v, want %v", got, want)
	}
}

// TestNeverReadyTimesOut: a task still processing after Timeout is
// errs.KindTimeout, counted in the waits (the Sleep is instant).
func TestNeverReadyTimesOut(t *testing.T) {
	t.Parallel()
	for _, d := range []captchatest.Dialect{captchatest.TwoCaptcha, captchatest.CapSolver} {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			srv := fakes(t, d, captchatest.Config{NeverReady: true})
			c, slept := newClient(t, optionsFor(srv, d))
			_, err := c.Solve(context.Background(), v2Request)
			wantKind(t, err, errs.KindTimeout)
			if !strings.Contains(err.Error(), string(d)) || !strings.Contains(err.Error(), "2m0s") {
				t.Errorf("%q should name the provider and the timeout", err)
			}
			var total time.Duration
			for _, w := range slept.all() {
				total += w
			}
			if total != captcha.DefaultTimeout {
				t.Errorf("waited %s in all, want %s", total, captcha.DefaultTimeout)
			}
			if got := srv.Polls(); got != 24 {
				t.Errorf("%d polls, want 24 (5 s, then every 5 s, within 120 s)", got)
			}
		})
	}
}

// TestProviderErrors: an errorCode becomes errs.KindUpstream naming the
// provider and the code, never the key, even when the provider echoes it.
func TestProviderErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		dialect   captchatest.Dialect
		cfg       captchatest.Config
		key       string // the key configured, when not the fake's
		mentions  []string
		retryable bool
	}{
		{"create error", captchatest.TwoCaptcha, captchatest.Config{CreateError: "ERROR_ZERO_BALANCE", Description: "no money on account {key}"},
			"", []string{"2captcha refused the task: ERROR_ZERO_BALANCE", "no balance", "--twocaptcha-key", "no money on account [api key]"}, false},
		{"create error capsolver", captchatest.CapSolver, captchatest.Config{CreateError: "ERROR_SETTLEMENT_FAILED", Description: "{key}: settlement failed"},
			"", []string{"capsolver refused the task: ERROR_SETTLEMENT_FAILED", "--capsolver-key"}, false},
		{"result error", captchatest.TwoCaptcha, captchatest.Config{Pending: 1, ResultError: "ERROR_CAPTCHA_UNSOLVABLE"},
			"", []string{"2captcha failed the task: ERROR_CAPTCHA_UNSOLVABLE", "try again"}, false},
		{"result error capsolver", captchatest.CapSolver, captchatest.Config{ResultError: "ERROR_CAPTCHA_UNSOLVABLE", Description: "unsolvable for {key}"},
			"", []string{"capsolver failed the task: ERROR_CAPTCHA_UNSOLVABLE"}, false},
		{"wrong key", captchatest.TwoCaptcha, captchatest.Config{}, "wrong-key-123456",
			[]string{"ERROR_KEY_DOES_NOT_EXIST", "refused the operator's API key", "--twocaptcha-key (WEBINFRA_TWOCAPTCHA_KEY)"}, false},
		{"wrong key capsolver", captchatest.CapSolver, captchatest.Config{}, "wrong-key-123456",
			[]string{"ERROR_KEY_DENIED_ACCESS", "--capsolver-key (WEBINFRA_CAPSOLVER_KEY)"}, false},
		{"busy", captchatest.TwoCaptcha, captchatest.Config{CreateError: "ERROR_NO_SLOT_AVAILABLE"},
			"", []string{"ERROR_NO_SLOT_AVAILABLE", "busy"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := fakes(t, tc.dialect, tc.cfg)
			opts := optionsFor(srv, tc.dialect)
			key := srv.Key()
			if tc.key != "" {
				key = tc.key
				opts.TwoCaptchaKey, opts.CapSolverKey = "", ""
				if tc.dialect == captchatest.CapSolver {
					opts.CapSolverKey = key
				} else {
					opts.TwoCaptchaKey = key
				}
			}
			c, _ := newClient(t, opts)
			_, err := c.Solve(context.Background(), v2Request)
			wantKind(t, err, errs.KindUpstream)
			msg := err.Error()
			for _, m := range tc.mentions {
				if !strings.Contains(msg, m) {
					t.Errorf("%q does not mention %q", msg, m)
				}
			}
			if strings.Contains(msg, key) {
				t.Errorf("%q echoes the client key", msg)
			}
			var e *errs.Error
			if errors.As(err, &e); (e.RetryAfter > 0) != tc.retryable {
				t.Errorf("retry after %s", e.RetryAfter)
			}
		})
	}
}

// TestUnusableAnswers: answers a client cannot use are errs.KindUpstream
// naming the provider, whatever is wrong with them.
func TestUnusableAnswers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		create string // createTask's answer
		status int
		result string // getTaskResult's answer
		header map[string]string
		want   string
		retry  bool
	}{
		{name: "not JSON", create: "<html>Bad gateway</html>", want: "other than its JSON"},
		{name: "HTTP 500", create: "oops", status: 500, want: "HTTP 500"},
		{name: "HTTP 429", create: "slow down", status: 429, header: map[string]string{"Retry-After": "30"}, want: "busy", retry: true},
		{name: "HTTP error with error body", create: `{"errorId":1,"errorCode":"ERROR_KEY_DENIED_ACCESS"}`, status: 401, want: "ERROR_KEY_DENIED_ACCESS"},
		{name: "no taskId", create: `{"errorId":0}`, want: "no taskId"},
		{name: "odd taskId", create: `{"errorId":0,"taskId":{"a":1}}`, want: "taskId"},
		{name: "unknown status", create: `{"errorId":0,"taskId":5}`, result: `{"errorId":0,"status":"weird"}`, want: `unknown task status "weird"`},
		{name: "failed status", create: `{"errorId":0,"taskId":5}`, result: `{"errorId":0,"status":"failed"}`, want: "could not solve"},
		{name: "ready without solution", create: `{"errorId":0,"taskId":5}`, result: `{"errorId":0,"status":"ready"}`, want: "without a solution"},
		{name: "ready without token", create: `{"errorId":0,"taskId":5}`, result: `{"errorId":0,"status":"ready","solution":{"text":"x"}}`, want: "without a token"},
		{name: "too large", create: `{"errorId":0,"taskId":5,"pad":"` + strings.Repeat("x", 5000) + `"}`, want: "more than 4096 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				if tc.status != 0 {
					w.WriteHeader(tc.status)
				}
				if strings.HasSuffix(r.URL.Path, "/createTask") {
					_, _ = w.Write([]byte(tc.create))
					return
				}
				_, _ = w.Write([]byte(tc.result))
			}))
			t.Cleanup(srv.Close)
			c, _ := newClient(t, captcha.Options{TwoCaptchaKey: "secret-key-42", TwoCaptchaURL: srv.URL + "/api/", MaxResponseBytes: 4096})
			_, err := c.Solve(context.Background(), v2Request)
			wantKind(t, err, errs.KindUpstream)
			if !strings.Contains(err.Error(), "2captcha") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q should name 2captcha and say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret-key-42") || strings.Contains(err.Error(), srv.Listener.Addr().String()) {
				t.Errorf("%q reveals the key or the provider's address", err)
			}
			var e *errs.Error
			if errors.As(err, &e); (e.RetryAfter > 0) != tc.retry {
				t.Errorf("retry after %s", e.RetryAfter)
			}
		})
	}
}

// TestProviderUnreachable hides the operator's provider address.
func TestProviderUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close()
	c, _ := newClient(t, captcha.Options{CapSolverKey: "k", CapSolverURL: addr})
	_, err := c.Solve(context.Background(), v2Request)
	wantKind(t, err, errs.KindUpstream)
	if !strings.Contains(err.Error(), "capsolver unreachable") || strings.Contains(err.Error(), strings.TrimPrefix(addr, "http://")) {
		t.Errorf("%q: want the provider named and its address hidden", err)
	}
}

// TestProviderSlowAnswer: a provider that does not answer within Timeout
// is errs.KindTimeout.
func TestProviderSlowAnswer(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first
	c, _ := newClient(t, captcha.Options{TwoCaptchaKey: "k", TwoCaptchaURL: srv.URL, Timeout: 50 * time.Millisecond})
	_, err := c.Solve(context.Background(), v2Request)
	wantKind(t, err, errs.KindTimeout)
}

// TestCallerCancels: cancelling the caller's context while waiting ends
// the solve with the context's error.
func TestCallerCancels(t *testing.T) {
	t.Parallel()
	srv := fakes(t, captchatest.TwoCaptcha, captchatest.Config{NeverReady: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := optionsFor(srv, captchatest.TwoCaptcha)
	polls := 0
	opts.Sleep = func(ctx context.Context, _ time.Duration) error {
		if polls++; polls == 3 {
			cancel()
		}
		return ctx.Err()
	}
	c, _ := newClient(t, opts)
	_, err := c.Solve(ctx, v2Request)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want context.Canceled", err)
	}
}

// TestProviderDirectly uses a Provider without a Client.
func TestProviderDirectly(t *testing.T) {
	t.Parallel()
	srv := fakes(t, captchatest.CapSolver, captchatest.Config{})
	p, err := captcha.NewCapSolver(srv.Key(), &captcha.ProviderOptions{BaseURL: srv.URL, Sleep: (&sleeps{}).sleep})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "capsolver" || p.Supports(captcha.TypeHCaptcha) || !p.Supports(captcha.TypeTurnstile) {
		t.Errorf("%s: wrong name or types", p.Name())
	}
	_, err = p.Solve(context.Background(), captcha.Task{Type: captcha.TypeHCaptcha, SiteKey: hcaptchaKey, PageURL: pageURL})
	wantKind(t, err, errs.KindInvalid)
	if len(srv.Requests()) != 0 {
		t.Error("an unsupported task reached the provider")
	}
	if _, err := captcha.NewTwoCaptcha("  ", nil); errs.FieldOf(err) != "--twocaptcha-key" {
		t.Errorf("empty key: %v", err)
	}
}
