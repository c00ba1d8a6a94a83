package crawl

import (
	"context"
	"net/url"
	"sync"
	"time"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/robots"
)

// maxCrawlDelay caps a robots.txt Crawl-delay: a site asking for more is
// crawled one request per maxCrawlDelay, so a crawl job still ends.
const maxCrawlDelay = 30 * time.Second

// robotsCache fetches each origin's robots.txt once, through the fetcher
// (so with its SSRF guard, body caps and decoding), and answers whether a
// URL may be crawled by the crawler's agent. Concurrent callers for an
// origin whose file is being fetched wait for that one fetch.
//
// The file is read by package robots (RFC 9309 as Google reads it), which
// also applies the status rules: 2xx is parsed (its first 500 KiB), 4xx
// means no restrictions, 5xx and 429 mean nothing may be crawled. An answer
// reached after more than robots.MaxRedirects redirects means no
// restrictions (RFC 9309 §2.3.1.2). A fetch that fails (network error,
// timeout, SSRF refusal, the fetcher's own redirect limit) is an error for
// every page of the origin, reported on those pages: nothing of the
// origin is crawled, as a complete disallow would have it.
type robotsCache struct {
	f         *fetch.Fetcher
	userAgent string // sent with the request
	agent     string // the product token matched against User-agent lines

	// onCrawlDelay, when set, is called once per origin whose robots.txt
	// gives the agent a Crawl-delay, with the origin's host (host:port)
	// and the delay, at most maxCrawlDelay.
	onCrawlDelay func(host string, delay time.Duration)

	mu      sync.Mutex
	origins map[string]*robotsEntry
}

type robotsEntry struct {
	done chan struct{}
	data *robots.Robots
	err  error
}

func newRobotsCache(f *fetch.Fetcher, userAgent string) *robotsCache {
	return &robotsCache{f: f, userAgent: userAgent, agent: fetch.RobotsAgent(userAgent), origins: map[string]*robotsEntry{}}
}

// get returns the robots.txt of u's origin.
func (rc *robotsCache) get(ctx context.Context, u *url.URL) (*robots.Robots, error) {
	origin := u.Scheme + "://" + u.Host
	rc.mu.Lock()
	e, ok := rc.origins[origin]
	if !ok {
		e = &robotsEntry{done: make(chan struct{})}
		rc.origins[origin] = e
		rc.mu.Unlock()
		e.data, e.err = rc.load(ctx, origin)
		close(e.done)
		if e.err == nil && rc.onCrawlDelay != nil {
			if delay, ok := e.data.CrawlDelay(rc.agent); ok && delay > 0 {
				rc.onCrawlDelay(u.Host, min(delay, maxCrawlDelay))
			}
		}
		return e.data, e.err
	}
	rc.mu.Unlock()
	select {
	case <-e.done:
		return e.data, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (rc *robotsCache) load(ctx context.Context, origin string) (*robots.Robots, error) {
	res, err := rc.f.Fetch(ctx, fetch.Request{URL: origin + "/robots.txt", Tier: fetch.TierDirect, Headers: map[string]string{"User-Agent": rc.userAgent}})
	if err != nil {
		return nil, err
	}
	if len(res.Redirects) > robots.MaxRedirects {
		return robots.AllowAll(), nil
	}
	return robots.FromStatus(res.StatusCode, res.Body), nil
}

// allowed reports whether the crawler's agent may fetch u.
func (rc *robotsCache) allowed(ctx context.Context, u *url.URL) (bool, error) {
	data, err := rc.get(ctx, u)
	if err != nil {
		return false, err
	}
	return data.Test(rc.agent, fetch.RobotsPath(u)).Allowed, nil
}
