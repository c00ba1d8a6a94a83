package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer collects output written by the server goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The README walk-through, against `webinfra serve` itself: sign up, make a
// charged /v1/scrape call and read every header SPEC §8 promises.
func TestServeWalkThrough(t *testing.T) {
	t.Parallel()
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<html><body><h1>Example Domain</h1></body></html>")
	}))
	defer target.Close()

	base, stop := serveInProcess(t, "--allow-private-networks")

	res, err := http.Post(base+"/v1/auth/signup", "application/json", strings.NewReader(`{"email":"newcomer@example.com","password":"a long password"}`))
	if err != nil {
		t.Fatal(err)
	}
	var signup struct {
		APIKey string `json:"api_key"`
	}
	json.NewDecoder(res.Body).Decode(&signup)
	res.Body.Close()
	if !strings.HasPrefix(signup.APIKey, "osk_") {
		t.Fatalf("sign-up gave no key (status %d)", res.StatusCode)
	}

	req, _ := http.NewRequest("POST", base+"/v1/scrape", strings.NewReader(`{"url":"`+target.URL+`"}`))
	req.Header.Set("Authorization", "Bearer "+signup.APIKey)
	req.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "# Example Domain") {
		t.Fatalf("scrape: %d %s", res.StatusCode, body)
	}
	for _, h := range []string{"X-Request-Id", "Traceparent", "Server-Timing", "X-Ratelimit-Limit", "X-Ratelimit-Remaining",
		"X-Ratelimit-Reset", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "X-Credits-Cost",
		"X-Credits-Charged", "X-Credits-Balance", "Cache-Control", "X-Tier-Used", "X-Cascade-Path"} {
		if res.Header.Get(h) == "" {
			t.Errorf("header %s missing", h)
		}
	}
	if res.Header.Get("X-Credits-Balance") != "999" {
		t.Errorf("balance after one call = %q", res.Header.Get("X-Credits-Balance"))
	}

	stop() // SIGTERM's path: graceful shutdown
}

// serveInProcess runs `webinfra serve` on a free loopback port with a fresh
// data dir and the extra args, and returns its base URL and a stop
// function that shuts it down gracefully and checks it returned cleanly.
func serveInProcess(t *testing.T, args ...string) (base string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	stderr := &syncBuffer{}
	dataDir := filepath.Join(t.TempDir(), "data")
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir}, args...), stdoutW, stderr)
		stdoutW.Close()
	}()
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no listening line: %v; stderr: %s", err, stderr.String())
	}
	go io.Copy(io.Discard, stdoutR)
	base = regexp.MustCompile(`http://\S+`).FindString(line)
	if base == "" {
		cancel()
		t.Fatalf("listening line %q has no address", line)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("serve returned %v; stderr: %s", err, stderr.String())
				}
			case <-time.After(30 * time.Second):
				t.Error("serve did not shut down")
			}
		})
	}
	t.Cleanup(stop)
	return base, stop
}

func TestServeRejectsBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := map[string][]string{
		"postgres without a shared key": {"serve", "--data-dir", dir, "--database-url", "postgres://127.0.0.1:1/test"},
		"missing config":                {"serve", "--data-dir", dir, "--config", filepath.Join(dir, "nope.json")},
		"missing CA file":               {"serve", "--data-dir", dir, "--ca-file", filepath.Join(dir, "nope.pem")},
		"bad network":                   {"serve", "--data-dir", dir, "--allow-networks", "10.1.0.0/16,10.2.0.0/99"},
		"unknown flag":                  {"serve", "--bogus"},
		"unknown command":               {"frobnicate"},
	}
	for name, args := range cases {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A busy address is an error before any job worker starts, and serve
// returns (it does not hang with the queue running).
func TestServeBusyAddress(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	args := []string{"serve", "--data-dir", t.TempDir(), "--addr", busy.Addr().String()}
	err = run(t.Context(), args, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("err = %v, want the address in use", err)
	}
}
