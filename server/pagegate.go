package server

import (
	"context"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/webinfra/webinfra/errs"
)

// pageGate bounds the bytes of pages the server parses and extracts at
// once (limits.page_bytes_in_flight): the body of each call that carries
// a page, held until the call ends (holdPage), and each page a call
// fetches: held while its formats are built (admitFetched), or, when the
// call goes on to extract from it (loadPage), until the call ends. Page work can take
// some 60 times a page's size in memory (extract/content's
// BenchmarkHostilePages), and per-client caps alone (connections, rate,
// credits) let a few clients send enough hostile pages at once to exhaust
// it. A page waits its turn in arrival order (x/sync's weighted semaphore
// is FIFO) up to limits.page_wait_ms, then the call is answered 503 with
// Retry-After; nothing is charged.
type pageGate struct {
	sem  *semaphore.Weighted
	size int64
	wait time.Duration
}

// pageRetryAfter is the Retry-After of a call the gate turned away: about
// the time a costly page takes.
const pageRetryAfter = 5 * time.Second

func newPageGate(size int64, wait time.Duration) *pageGate {
	return &pageGate{sem: semaphore.NewWeighted(size), size: size, wait: wait}
}

// acquire lets in a page of n bytes for a caller already holding held, or
// gives up after the gate's wait or when ctx ends. A page larger than what
// the gate can give the caller counts as all of it: it runs alone rather
// than never. It returns the bytes taken, for release.
func (g *pageGate) acquire(ctx context.Context, n, held int64) (int64, error) {
	n = min(max(n, 0), g.size-held)
	if n <= 0 {
		return 0, nil
	}
	waitCtx, cancel := context.WithTimeout(ctx, g.wait)
	defer cancel()
	if err := g.sem.Acquire(waitCtx, n); err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, errs.RetryLater(errs.KindUnavailable, pageRetryAfter,
			"the server is busy with other pages (limits.page_bytes_in_flight); retry in %s", pageRetryAfter)
	}
	return n, nil
}

func (g *pageGate) release(n int64) {
	if n > 0 {
		g.sem.Release(n)
	}
}

// holdPage lets in a page of n bytes for the rest of the call in ctx; the
// pipeline releases it when the call ends (releasePages). Outside a call
// (a job's run) it does nothing: jobs are bounded by the queue's workers.
func (s *Server) holdPage(ctx context.Context, n int64) error {
	c := callFrom(ctx)
	if c == nil {
		return nil
	}
	got, err := s.pages.acquire(ctx, n, c.pageBytes.Load())
	c.pageBytes.Add(got)
	return err
}

// releasePages gives back what the call held.
func (s *Server) releasePages(c *call) { s.pages.release(c.pageBytes.Swap(0)) }

// admitFetched is the fetch.PageAdmission of every call: a page the call
// fetched is let in while its formats are built. Outside a call it lets
// every page in.
func (s *Server) admitFetched(ctx context.Context, n int64) (release func(), err error) {
	c := callFrom(ctx)
	if c == nil {
		return func() {}, nil
	}
	got, err := s.pages.acquire(ctx, n, c.pageBytes.Load())
	if err != nil {
		return nil, err
	}
	return func() { s.pages.release(got) }, nil
}
