package connlimit

import (
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// serve accepts on l and holds every accepted connection open until the
// client closes it.
func serve(t *testing.T, l net.Listener) {
	t.Helper()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				buf := make([]byte, 1)
				for {
					if _, err := c.Read(buf); err != nil {
						c.Close()
						return
					}
				}
			}()
		}
	}()
}

// closedByServer reports whether the server closed c (reads see EOF).
func closedByServer(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	_, err := c.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false // still open: the read just timed out
	}
	return true
}

func TestCapPerClient(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var refused atomic.Int64
	l := New(inner, 3, func(string) { refused.Add(1) })
	t.Cleanup(func() { l.Close() })
	serve(t, l)

	dial := func(local string) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
		c, err := d.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	var held []net.Conn
	for range 3 {
		held = append(held, dial("127.0.0.1"))
	}
	extra := dial("127.0.0.1")
	if !closedByServer(extra) || refused.Load() != 1 {
		t.Fatalf("the fourth connection of one address was kept (refused %d)", refused.Load())
	}
	if other := dial("127.0.0.2"); closedByServer(other) {
		t.Fatal("another address was refused: the cap is per client")
	}
	for _, c := range held {
		if closedByServer(c) {
			t.Fatal("a connection under the cap was closed")
		}
	}
	held[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for l.Open("127.0.0.1") != 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the server notices the close on its read
	}
	if again := dial("127.0.0.1"); closedByServer(again) {
		t.Fatal("a freed slot was not given to the next connection")
	}
}

func TestReleaseOnce(t *testing.T) {
	t.Parallel()
	a, b := net.Pipe()
	defer b.Close()
	n := 0
	c := &conn{Conn: a, release: func() { n++ }}
	c.Close()
	c.Close()
	if n != 1 {
		t.Fatalf("released %d times", n)
	}
}
