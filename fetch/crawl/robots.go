package crawl

import (
	"context"
	"net/url"
	"sync"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/webinfra/webinfra/fetch"
)

// robotsMaxBytes is how much of a robots.txt is read (Google reads 500 KiB).
const robotsMaxBytes = 512 << 10

// maxCrawlDelay caps a robots.txt Crawl-delay: a site asking for more is
// crawled one request per maxCrawlDelay, so a crawl job still ends.
const maxCrawlDelay = 30 * time.Second

// robotsCache fetches each origin's robots.txt once, through the fetcher
// (so with its SSRF guard, body caps and decoding), and answers whether a
// URL may be crawled by the crawler's agent. Concurrent callers for an
// origin whose file is being fetched wait for that one fetch.
//
// Status handling follows RFC 9309 as robotstxt implements it: 2xx is
// parsed, 4xx means no restrictions, 5xx means nothing may be crawled. A
// file that does not parse is treated as absent. A fetch that fails
// (network error, timeout, SSRF refusal) is an error for every page of the
// origin, reported on those pages.
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
	data *robotstxt.RobotsData
	err  error
}

func newRobotsCache(f *fetch.Fetcher, userAgent string) *robotsCache {
	return &robotsCache{f: f, userAgent: userAgent, agent: fetch.RobotsAgent(userAgent), origins: map[string]*robotsEntry{}}
}

// get returns the robots.txt of u's origin.
func (rc *robotsCache) get(ctx context.Context, u *url.URL) (*robotstxt.RobotsData, error) {
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
			if g := e.data.FindGroup(rc.agent); g != nil && g.CrawlDelay > 0 {
				rc.onCrawlDelay(u.Host, min(g.CrawlDelay, maxCrawlDelay))
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

func (rc *robotsCache) load(ctx context.Context, origin string) (*robotstxt.RobotsData, error) {
	res, err := rc.f.Fetch(ctx, fetch.Request{URL: origin + "/robots.txt", Tier: fetch.TierDirect, Headers: map[string]string{"User-Agent": rc.userAgent}})
	if err != nil {
		return nil, err
	}
	return parseRobots(res.StatusCode, res.Body), nil
}

// parseRobots reads a robots.txt answer (its first robotsMaxBytes): rules
// from a 2xx, allow-all from a 4xx or what cannot be parsed, disallow-all
// from a 5xx, as temoto/robotstxt reads statuses.
func parseRobots(status int, body []byte) *robotstxt.RobotsData {
	if len(body) > robotsMaxBytes {
		body = body[:robotsMaxBytes]
	}
	data, err := robotstxt.FromStatusAndBytes(status, body)
	if err != nil { // unparsable, or an unexpected status: no rules
		data, _ = robotstxt.FromString("")
	}
	return data
}

// allowed reports whether the crawler's agent may fetch u.
func (rc *robotsCache) allowed(ctx context.Context, u *url.URL) (bool, error) {
	data, err := rc.get(ctx, u)
	if err != nil {
		return false, err
	}
	return data.TestAgent(fetch.RobotsPath(u), rc.agent), nil
}
