package fetch

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is an injected clock that moves only when told to.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// versionedSite answers "<p>version N</p>" with N counting its requests,
// and 500 on /broken.
func versionedSite(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		if r.URL.Path == "/broken" {
			w.WriteHeader(http.StatusInternalServerError)
		}
		fmt.Fprintf(w, "<p>version %d</p>", n)
	})
	return srv.URL, &hits
}

func TestScrapeCache(t *testing.T) {
	t.Parallel()
	site, hits := versionedSite(t)
	clock := newFakeClock()
	f := privateFetcher(t, Options{Now: clock.Now})
	ctx := context.Background()
	scrape := func(req ScrapeRequest) *ScrapeResult {
		t.Helper()
		if req.URL == "" {
			req.URL = site + "/page"
		}
		res, err := f.Scrape(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	minute := int64(time.Minute / time.Millisecond)

	first := scrape(ScrapeRequest{MaxAgeMS: minute})
	if first.Cached || first.Markdown != "version 1" {
		t.Fatalf("first scrape: cached %v markdown %q", first.Cached, first.Markdown)
	}
	clock.Advance(20 * time.Second)
	hit := scrape(ScrapeRequest{MaxAgeMS: minute})
	if !hit.Cached || hit.CacheAgeMS != 20000 || hit.Markdown != "version 1" || hits.Load() != 1 {
		t.Fatalf("hit: cached %v age %d markdown %q, %d fetches", hit.Cached, hit.CacheAgeMS, hit.Markdown, hits.Load())
	}
	hit.Headers["X-Mutated"] = "1"
	hit.CascadePath[0] = "mutated"

	if again := scrape(ScrapeRequest{MaxAgeMS: minute}); again.Headers["X-Mutated"] != "" || again.CascadePath[0] != TierDirect {
		t.Fatalf("a caller's change reached the cache: %+v", again)
	}
	for name, req := range map[string]ScrapeRequest{
		"no max age":        {},
		"other formats":     {MaxAgeMS: minute, Formats: []string{"text"}},
		"other headers":     {MaxAgeMS: minute, Headers: map[string]string{"Cookie": "session=other-account"}},
		"main content only": {MaxAgeMS: minute, MainContentOnly: true},
		"other cache scope": {MaxAgeMS: minute, CacheScope: "account:2"},
	} {
		before := hits.Load()
		if res := scrape(req); res.Cached || hits.Load() != before+1 {
			t.Errorf("%s: served from the cache (cached %v)", name, res.Cached)
		}
	}
	// The "no max age" fetch stored a fresh copy (version 2) just now.
	clock.Advance(61 * time.Second)
	if res := scrape(ScrapeRequest{MaxAgeMS: minute}); res.Cached {
		t.Fatalf("expired copy served, age %d ms", res.CacheAgeMS)
	}
	if res := scrape(ScrapeRequest{MaxAgeMS: minute}); !res.Cached || res.CacheAgeMS != 0 {
		t.Fatalf("refetched copy not cached: %+v", res)
	}

	before := hits.Load()
	scrape(ScrapeRequest{URL: site + "/broken", MaxAgeMS: minute})
	if res := scrape(ScrapeRequest{URL: site + "/broken", MaxAgeMS: minute}); res.Cached || hits.Load() != before+2 {
		t.Fatalf("an error page was cached")
	}
}

func TestScrapeCacheOff(t *testing.T) {
	t.Parallel()
	site, hits := versionedSite(t)
	f := privateFetcher(t, Options{CacheEntries: -1})
	for range 2 {
		if res, err := f.Scrape(context.Background(), ScrapeRequest{URL: site, MaxAgeMS: 60000}); err != nil || res.Cached {
			t.Fatalf("res %+v err %v", res, err)
		}
	}
	if hits.Load() != 2 || f.cache != nil {
		t.Fatalf("%d fetches with the cache off", hits.Load())
	}
}

func TestLRUBounds(t *testing.T) {
	t.Parallel()
	now := time.Now()
	c := newLRU[string](3, 800)
	for i := range 5 {
		c.put(fmt.Sprint(i), "v", 10, now)
	}
	if c.len() != 3 {
		t.Fatalf("entries %d, want 3", c.len())
	}
	if _, _, ok := c.get("0", now, time.Hour); ok {
		t.Error("oldest entry survived")
	}
	c.get("2", now, time.Hour) // 2 is now the most recent
	c.put("5", "v", 10, now)
	if _, _, ok := c.get("2", now, time.Hour); !ok {
		t.Error("recently used entry evicted")
	}
	if _, _, ok := c.get("3", now, time.Hour); ok {
		t.Error("least recently used entry kept")
	}

	c = newLRU[string](100, 800)
	c.put("big", "v", 101, now) // over an eighth of the byte bound
	if c.len() != 0 {
		t.Error("oversized entry kept")
	}
	for i := range 10 {
		c.put(fmt.Sprint(i), "v", 100, now)
	}
	if c.len() != 8 || c.bytes != 800 {
		t.Errorf("entries %d bytes %d, want 8 and 800", c.len(), c.bytes)
	}
	if _, _, ok := c.get("9", now.Add(2*time.Hour), time.Hour); ok || c.len() != 7 {
		t.Error("expired entry served or kept")
	}
}
