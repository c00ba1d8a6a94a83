package connlimit

import (
	"net"
	"sync"

	"github.com/webinfra/webinfra/internal/clientaddr"
)

// Listener wraps a net.Listener, refusing a client's connection beyond
// PerClient open ones.
type Listener struct {
	net.Listener
	perClient int
	refused   func(key string) // optional: told of each refusal

	mu   sync.Mutex
	open map[string]int
}

// New caps the open connections per client address of ln at perClient
// (≤ 0: no cap). refused, when not nil, is called with the client key of
// each connection closed for being over the cap.
func New(ln net.Listener, perClient int, refused func(key string)) *Listener {
	return &Listener{Listener: ln, perClient: perClient, refused: refused, open: map[string]int{}}
}

// Accept returns the next connection of a client under its cap; one over
// the cap is closed and the wait goes on.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.perClient <= 0 {
			return c, nil
		}
		key := clientaddr.Key(c.RemoteAddr().String())
		if l.take(key) {
			return &conn{Conn: c, release: func() { l.give(key) }}, nil
		}
		// Told before the close, so that by the time the client sees
		// the connection end the refusal has been counted.
		if l.refused != nil {
			l.refused(key)
		}
		c.Close()
	}
}

// Open returns how many connections the client key holds now.
func (l *Listener) Open(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open[key]
}

func (l *Listener) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key] >= l.perClient {
		return false
	}
	l.open[key]++
	return true
}

func (l *Listener) give(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key) // the map holds only clients with open connections
	}
}

// conn frees its client's slot once, however often it is closed.
type conn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
