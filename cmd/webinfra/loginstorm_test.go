package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// procStatusKiB reads a "VmRSS:"-style line of /proc/<pid>/status, in KiB.
func procStatusKiB(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// clientFrom is an HTTP client whose connections come from local, one of
// the 127/8 loopback addresses Linux routes to lo.
func clientFrom(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 100}}
}

// The password-hashing load test of the README ("Limits and security"):
// 500 concurrent logins from 8 addresses, with the real argon2id cost
// (19 MiB a hash), against the server binary; the anonymous rate limit is
// raised so that every login reaches the hashing. The process's peak RSS
// (VmHWM) must stay under 300 MiB.
func TestLoginStormMemory(t *testing.T) {
	bin := serveBinary(t)
	if _, err := procStatusKiB(os.Getpid(), "VmHWM"); err != nil {
		t.Skipf("needs /proc: %v", err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(`{"anonymous_requests_per_minute": 100000}`), 0o600)
	p := startServe(t, bin, "--data-dir", filepath.Join(dir, "data"), "--config", cfg)
	p.signup(t, "storm@example.com")
	pid := p.cmd.Process.Pid
	before, _ := procStatusKiB(pid, "VmRSS")

	const logins, addresses = 500, 8
	statuses := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range logins {
		client := clientFrom(fmt.Sprintf("127.0.0.%d", 1+i%addresses))
		email := "storm@example.com"
		if i%2 == 1 {
			email = fmt.Sprintf("nobody-%d@example.com", i) // the dummy hash
		}
		wg.Go(func() {
			<-start
			body := fmt.Sprintf(`{"email":%q,"password":"wrong password %d"}`, email, i)
			req, _ := http.NewRequestWithContext(context.Background(), "POST", p.base+"/v1/auth/login", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			status := 0
			if res, err := client.Do(req); err == nil {
				status = res.StatusCode
				res.Body.Close()
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	peak, err := procStatusKiB(pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("500 concurrent logins from 8 addresses: RSS %d MiB before, peak %d MiB; answers %v", before>>10, peak>>10, statuses)
	if peak > 300<<10 {
		t.Errorf("peak RSS %d MiB, want under 300 MiB", peak>>10)
	}
	if statuses[0] > 0 || statuses[500] > 0 {
		t.Errorf("failed or 500 answers: %v", statuses)
	}
}
