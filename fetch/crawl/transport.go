package crawl

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// hostLimiter is the crawl's http.RoundTripper. It wraps the fetcher's
// SSRF-guarded transport, so every crawl request, redirect hops included,
// is dialled through the guard, and adds per host (host:port):
//
//   - a parallelism limit: at most parallelism requests in flight, a slot
//     being held until the response body is closed;
//   - a token-bucket rate (golang.org/x/time/rate, burst 1), lowered for a
//     host whose robots.txt sets a Crawl-delay (slowTo);
//   - a timeout for each request that starts once the request has its slot
//     and its token, so waiting in the queue never counts against it.
//
// Waiting honours the request's context, so cancelling the crawl releases
// queued requests at once.
type hostLimiter struct {
	next        http.RoundTripper
	parallelism int
	rate        rate.Limit
	timeout     time.Duration

	mu    sync.Mutex
	hosts map[string]*hostSlot
}

type hostSlot struct {
	sem     chan struct{}
	limiter *rate.Limiter // rate.Inf when unthrottled
}

func newHostLimiter(next http.RoundTripper, parallelism int, perSecond rate.Limit, timeout time.Duration) *hostLimiter {
	return &hostLimiter{next: next, parallelism: parallelism, rate: perSecond, timeout: timeout, hosts: map[string]*hostSlot{}}
}

func (l *hostLimiter) slot(host string) *hostSlot {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.hosts[host]
	if !ok {
		s = &hostSlot{sem: make(chan struct{}, l.parallelism), limiter: rate.NewLimiter(l.rate, 1)}
		l.hosts[host] = s
	}
	return s
}

// slowTo lowers host's rate to one request per every, unless it is
// already slower.
func (l *hostLimiter) slowTo(host string, every time.Duration) {
	s := l.slot(host)
	if limit := rate.Every(every); limit < s.limiter.Limit() {
		s.limiter.SetLimit(limit)
	}
}

// RoundTrip waits for a slot and a token for req's host, then sends req
// through the guarded transport.
func (l *hostLimiter) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	s := l.slot(req.URL.Host)
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := s.limiter.Wait(ctx); err != nil {
		<-s.sem
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	reqCtx, cancel := context.WithTimeout(ctx, l.timeout)
	resp, err := l.next.RoundTrip(req.WithContext(reqCtx))
	if err != nil {
		timedOut := errors.Is(reqCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		<-s.sem
		if timedOut {
			return nil, fmt.Errorf("no response within %s (request timeout): %w", l.timeout, err)
		}
		return nil, err
	}
	var once sync.Once
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: func() {
		once.Do(func() { cancel(); <-s.sem })
	}}
	decodeGzip(resp)
	return resp, nil
}

// releasingBody gives back the host slot (and ends the request's timeout)
// when the body is closed.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// decodeGzip decodes a gzip body here, so the collector's body-size cap
// applies to the decoded bytes (it caps the bytes it reads, and would
// otherwise gunzip after the cap, leaving a compression bomb unbounded).
// The guarded transport never asks for compression; this covers servers
// that send it anyway.
func decodeGzip(resp *http.Response) {
	if resp.Uncompressed || !strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip") {
		return
	}
	resp.Body = &gzipBody{src: resp.Body}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
}

// gzipBody gunzips src, opening the gzip stream on the first Read.
type gzipBody struct {
	src io.ReadCloser
	zr  *gzip.Reader
	err error
}

func (g *gzipBody) Read(p []byte) (int, error) {
	if g.zr == nil && g.err == nil {
		g.zr, g.err = gzip.NewReader(g.src)
	}
	if g.err != nil {
		return 0, g.err
	}
	return g.zr.Read(p)
}

func (g *gzipBody) Close() error { return g.src.Close() }
