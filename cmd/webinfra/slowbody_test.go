package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"
)

// slowClient opens a connection from local, sends the headers of a
// sign-up with a 1,000-byte body, then trickles the body a byte every
// tick. It returns when the server closes the connection, with how long
// that took, or after giveUp.
func slowClient(server, local string, tick, giveUp time.Duration) (closedAfter time.Duration, closed bool) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	c, err := d.Dial("tcp", server)
	if err != nil {
		return 0, true
	}
	defer c.Close()
	start := time.Now()
	fmt.Fprintf(c, "POST /v1/auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
	gone := make(chan struct{})
	go func() {
		io.Copy(io.Discard, c) // returns when the server closes
		close(gone)
	}()
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-gone:
			return time.Since(start), true
		case <-t.C:
			if time.Since(start) > giveUp {
				return time.Since(start), false
			}
			c.Write([]byte("x"))
		}
	}
}

// The slowloris load test of the README ("Limits and security"): 200
// connections trickling a body one byte at a time, 150 of them from one
// address and 50 from five others. With body_read_seconds 2 and
// max_connections_per_ip 64 (both from the config file), every
// connection is closed: those over the cap at once, the others when the
// body deadline passes.
func TestSlowBodiesAreCutOff(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(cfg, []byte(`{"limits": {"body_read_seconds": 2, "max_connections_per_ip": 64}}`), 0o600)
	base, _ := serveInProcess(t, "--config", cfg)
	addr := base[len("http://"):]

	const tick, giveUp = 300 * time.Millisecond, 20 * time.Second
	type outcome struct {
		after  time.Duration
		closed bool
	}
	var mu sync.Mutex
	byAddr := map[string][]outcome{}
	var wg sync.WaitGroup
	dial := func(local string, n int) {
		for range n {
			wg.Go(func() {
				after, closed := slowClient(addr, local, tick, giveUp)
				mu.Lock()
				byAddr[local] = append(byAddr[local], outcome{after, closed})
				mu.Unlock()
			})
		}
	}
	dial("127.0.0.1", 150)
	for i := 2; i <= 6; i++ {
		dial(fmt.Sprintf("127.0.0.%d", i), 10)
	}
	wg.Wait()

	var all []time.Duration
	var refusedAtOnce int
	for local, outs := range byAddr {
		for _, o := range outs {
			if !o.closed {
				t.Fatalf("a connection from %s was still open after %s", local, giveUp)
			}
			all = append(all, o.after)
			if o.after < time.Second {
				refusedAtOnce++
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	t.Logf("200 slow connections: %d closed within 1 s (over the per-address cap), the last after %s; median %s",
		refusedAtOnce, all[len(all)-1].Round(10*time.Millisecond), all[len(all)/2].Round(10*time.Millisecond))
	if refusedAtOnce < 150-64 {
		t.Errorf("only %d connections were refused at once; one address held more than 64", refusedAtOnce)
	}
	if last := all[len(all)-1]; last > 5*time.Second {
		t.Errorf("the last slow connection was closed after %s; the body deadline is 2 s", last)
	}
}
