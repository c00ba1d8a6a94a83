package whoistest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// maxQueryBytes bounds the query line the server reads.
const maxQueryBytes = 1024

// Whois is a whois server (RFC 3912) on 127.0.0.1: for each connection it
// reads one query line, writes the answer and closes. A query with no
// answer gets Verisign's "No match for" text.
type Whois struct {
	// Addr is the server's "127.0.0.1:port".
	Addr string

	answers map[string]string // lower-case query → answer
	garbage bool
	silent  bool
	delay   time.Duration

	ctx     context.Context // done when the test ends
	wg      sync.WaitGroup
	mu      sync.Mutex
	queries []string
}

// WhoisOption changes how a Whois server behaves.
type WhoisOption func(*Whois)

// WhoisGarbage makes the server answer every query with GarbageAnswer.
func WhoisGarbage() WhoisOption { return func(w *Whois) { w.garbage = true } }

// WhoisSilent makes the server read the query and never answer, holding
// the connection open until the client gives up or the test ends.
func WhoisSilent() WhoisOption { return func(w *Whois) { w.silent = true } }

// WhoisSlow makes the server wait d before answering.
func WhoisSlow(d time.Duration) WhoisOption { return func(w *Whois) { w.delay = d } }

// StartWhois starts a whois server answering answers (query → text; the
// query is matched without regard to case) and stops it when the test
// ends.
func StartWhois(t testing.TB, answers map[string]string, opts ...WhoisOption) *Whois {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("whoistest: listen: %v", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	w := &Whois{Addr: ln.Addr().String(), answers: map[string]string{}, ctx: ctx}
	for q, a := range answers {
		w.answers[strings.ToLower(q)] = a
	}
	for _, opt := range opts {
		opt(w)
	}
	w.wg.Add(1)
	go w.accept(ln)
	t.Cleanup(func() {
		stop()
		ln.Close()
		w.wg.Wait()
	})
	return w
}

// Queries are the query lines received so far, in order.
func (w *Whois) Queries() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.queries...)
}

func (w *Whois) accept(ln net.Listener) {
	defer w.wg.Done()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		w.wg.Add(1)
		go w.serve(conn)
	}
}

func (w *Whois) serve(conn net.Conn) {
	defer w.wg.Done()
	defer conn.Close()
	stop := context.AfterFunc(w.ctx, func() { conn.Close() })
	defer stop()
	line, err := bufio.NewReader(io.LimitReader(conn, maxQueryBytes)).ReadString('\n')
	if err != nil {
		return
	}
	query := strings.TrimSpace(line)
	w.mu.Lock()
	w.queries = append(w.queries, query)
	w.mu.Unlock()
	switch {
	case w.silent:
		// Hold the connection: the client must give up on its own.
		_, _ = io.Copy(io.Discard, conn)
		return
	case w.delay > 0:
		select {
		case <-time.After(w.delay):
		case <-w.ctx.Done():
			return
		}
	}
	_, _ = io.WriteString(conn, w.answer(query))
}

func (w *Whois) answer(query string) string {
	if w.garbage {
		return GarbageAnswer
	}
	if a, ok := w.answers[strings.ToLower(query)]; ok {
		return a
	}
	return NoMatchWhois(query)
}

// Dialer returns a dial function (the shape of net.Dialer.DialContext and
// of whois.Options.Dial) that connects "host:port" names to the loopback
// addresses routes gives them (e.g. "whois.iana.org:43" →
// iana.Addr), so that a whois client's real IANA lookup and referral run
// against local servers. An address with no route fails like an
// unreachable host.
func Dialer(routes map[string]string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	table := map[string]string{}
	for from, to := range routes {
		table[strings.ToLower(from)] = to
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		to, ok := table[strings.ToLower(addr)]
		if !ok {
			return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("whoistest: no route to %s", addr)}
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
}

// Chain is the whois referral chain for ExampleDomain on loopback: IANA
// (answering "com"), the .com registry (RegistryWhois, referring to the
// registrar) and the registrar (RegistrarWhois).
type Chain struct {
	IANA, Registry, Registrar *Whois
	// Dial routes IANAWhoisHost, RegistryWhoisHost and
	// RegistrarWhoisHost (port 43) to the three servers.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// StartChain starts the three servers of a referral chain; registrar
// options (WhoisSilent, WhoisGarbage, ...) apply to the registrar only.
func StartChain(t testing.TB, registrarOpts ...WhoisOption) *Chain {
	t.Helper()
	c := &Chain{
		IANA:      StartWhois(t, map[string]string{"com": IANAComWhois}),
		Registry:  StartWhois(t, map[string]string{ExampleDomain: RegistryWhois}),
		Registrar: StartWhois(t, map[string]string{ExampleDomain: RegistrarWhois}, registrarOpts...),
	}
	c.Dial = Dialer(map[string]string{
		IANAWhoisHost + ":43":      c.IANA.Addr,
		RegistryWhoisHost + ":43":  c.Registry.Addr,
		RegistrarWhoisHost + ":43": c.Registrar.Addr,
	})
	return c
}
