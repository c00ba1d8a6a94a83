package main

import (
	"bufio"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/webinfra/webinfra/jobs"
)

// buildBinary compiles this command once per test run.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "webinfra-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "webinfra")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// serveBinary returns the built command for a test that runs it, which
// runs in parallel and is skipped in -short mode.
func serveBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// process is one `webinfra serve` process.
type process struct {
	cmd  *exec.Cmd
	base string
}

func startServe(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("serve printed no address: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	p := &process{cmd: cmd, base: regexp.MustCompile(`http://\S+`).FindString(line)}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

func (p *process) post(t *testing.T, path, key, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", p.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

func (p *process) get(t *testing.T, path, key string, v any) {
	t.Helper()
	req, _ := http.NewRequest("GET", p.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func (p *process) signup(t *testing.T, email string) (key string) {
	t.Helper()
	status, body := p.post(t, "/v1/auth/signup", "", `{"email":"`+email+`","password":"a long password"}`)
	var out struct {
		APIKey string `json:"api_key"`
	}
	if json.Unmarshal(body, &out); status != 200 || out.APIKey == "" {
		t.Fatalf("signup: %d %s", status, body)
	}
	return out.APIKey
}

// holdingTarget serves pages that wait for release (called at cleanup at
// the latest); running closes once n requests are waiting.
func holdingTarget(t *testing.T, n int32) (url string, running <-chan struct{}, release func()) {
	t.Helper()
	var arrivals atomic.Int32
	runningc, releasec := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if arrivals.Add(1) == n {
			close(runningc)
		}
		<-releasec
		io.WriteString(w, "<h1>done</h1>")
	}))
	var once sync.Once
	release = func() { once.Do(func() { close(releasec) }) }
	t.Cleanup(srv.Close)
	t.Cleanup(release) // runs first: lets held handlers return before Close waits for them
	return srv.URL, runningc, release
}

// receiver is an HTTPS webhook receiver that verifies signatures and
// counts deliveries per event id.
type receiver struct {
	srv    *httptest.Server
	caFile string
	mu     sync.Mutex
	secret string
	events map[string]int
	bad    int
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{events: map[string]int{}}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		if err := jobs.VerifySignature(req.Header.Get(jobs.SignatureHeader), body, r.secret, 0); err != nil {
			r.bad++
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.events[req.Header.Get(jobs.EventIDHeader)]++
	}))
	t.Cleanup(r.srv.Close)
	r.caFile = filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.srv.Certificate().Raw})
	if err := os.WriteFile(r.caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *receiver) distinct() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// waitUntil polls cond until it holds or the deadline passes.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A job accepted is never lost: SIGKILL the server while jobs are queued
// and running; after a restart every job completes, is charged once, and
// its webhook is delivered.
func TestJobsSurviveSIGKILL(t *testing.T) {
	bin := serveBinary(t)
	target, running, release := holdingTarget(t, 4) // the four workers each hold a job
	rcv := newReceiver(t)
	dataDir := t.TempDir()
	args := []string{"--data-dir", dataDir, "--allow-private-networks", "--ca-file", rcv.caFile, "--workers", "4"}

	first := startServe(t, bin, args...)
	key := first.signup(t, "durable@example.com")
	var me struct {
		WebhookSecret string `json:"webhook_secret"`
	}
	first.get(t, "/v1/me", key, &me)
	rcv.mu.Lock()
	rcv.secret = me.WebhookSecret
	rcv.mu.Unlock()

	const n = 12
	ids := map[string]bool{}
	for i := range n {
		status, body := first.post(t, "/v1/scrape/async", key,
			fmt.Sprintf(`{"url":"%s/page/%d","webhook_url":"%s/hook"}`, target, i, rcv.srv.URL))
		var acc struct {
			Status string `json:"status"`
			JobID  string `json:"job_id"`
		}
		json.Unmarshal(body, &acc)
		if status != 200 || acc.Status != "queued" {
			t.Fatalf("submit: %d %s", status, body)
		}
		ids[acc.JobID] = true
	}
	<-running // four running, eight queued
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.cmd.Wait()
	release()

	second := startServe(t, bin, args...)
	waitUntil(t, 60*time.Second, "every webhook", func() bool { return rcv.distinct() == n })

	var list struct {
		Jobs []struct {
			JobID    string `json:"job_id"`
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
		} `json:"jobs"`
	}
	second.get(t, "/v1/me/jobs?limit=100", key, &list)
	for _, j := range list.Jobs {
		if !ids[j.JobID] || j.Status != "completed" {
			t.Errorf("job %s: %s", j.JobID, j.Status)
		}
	}
	var credits struct {
		Balance int64 `json:"balance"`
		Ledger  []struct {
			Reason string `json:"reason"`
		} `json:"ledger"`
	}
	second.get(t, "/v1/me/credits?limit=100", key, &credits)
	charges := 0
	for _, l := range credits.Ledger {
		if l.Reason == "charge" {
			charges++
		}
		if l.Reason == "refund" {
			t.Error("a completed job was refunded")
		}
	}
	if len(list.Jobs) != n || charges != n || credits.Balance != 1000-n {
		t.Fatalf("%d jobs, %d charges, balance %d; want %d, %d, %d", len(list.Jobs), charges, credits.Balance, n, n, 1000-n)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if rcv.bad != 0 {
		t.Fatalf("%d deliveries failed signature verification", rcv.bad)
	}
}

// SIGTERM drains: jobs running when it arrives finish (within
// --shutdown-timeout) before the process exits, and are not run again.
func TestSIGTERMDrainsRunningJobs(t *testing.T) {
	bin := serveBinary(t)
	target, running, release := holdingTarget(t, 2)
	args := []string{"--data-dir", t.TempDir(), "--allow-private-networks", "--workers", "2", "--shutdown-timeout", "30s"}
	first := startServe(t, bin, args...)
	key := first.signup(t, "drain@example.com")
	for i := range 2 {
		if status, body := first.post(t, "/v1/scrape/async", key, fmt.Sprintf(`{"url":"%s/%d"}`, target, i)); status != 200 {
			t.Fatalf("submit: %d %s", status, body)
		}
	}
	<-running
	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Once the listener is closed the server is shutting down: let the
	// jobs finish now, during the drain.
	waitUntil(t, 10*time.Second, "the listener to close", func() bool {
		res, err := http.Get(first.base + "/healthz")
		if err == nil {
			res.Body.Close()
		}
		return err != nil
	})
	release()
	if err := first.cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM", err)
	}

	second := startServe(t, bin, args...)
	var list struct {
		Jobs []struct {
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
		} `json:"jobs"`
	}
	second.get(t, "/v1/me/jobs", key, &list)
	if len(list.Jobs) != 2 {
		t.Fatalf("%d jobs", len(list.Jobs))
	}
	for _, j := range list.Jobs {
		if j.Status != "completed" || j.Attempts != 1 {
			t.Errorf("job %+v: want completed in the first run's drain", j)
		}
	}
}
