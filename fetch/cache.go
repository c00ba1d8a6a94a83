package fetch

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"time"
)

// ScrapeCache keeps scrape results for ScrapeRequest.MaxAgeMS. Keys name
// everything that changes a result, the caller's cache scope included
// (scrapeCacheKey). Implementations are safe for concurrent use and hand
// out results the caller may change: a copy, never the cached value.
type ScrapeCache interface {
	// Get returns the result stored under key and when it was stored, if
	// there is one no older than maxAge at now.
	Get(ctx context.Context, key string, now time.Time, maxAge time.Duration) (*ScrapeResult, time.Time, bool)
	// Put stores r (a 2xx scrape) under key at now; a cache may decline
	// (too large) or fail silently: a cache only saves fetches.
	Put(ctx context.Context, key string, r *ScrapeResult, now time.Time)
}

// memoryCache is the default ScrapeCache: the in-process LRU.
type memoryCache struct{ lru *lru[*ScrapeResult] }

func (m *memoryCache) Get(_ context.Context, key string, now time.Time, maxAge time.Duration) (*ScrapeResult, time.Time, bool) {
	r, stored, ok := m.lru.get(key, now, maxAge)
	if !ok {
		return nil, time.Time{}, false
	}
	return r.clone(), stored, true
}

func (m *memoryCache) Put(_ context.Context, key string, r *ScrapeResult, now time.Time) {
	m.lru.put(key, r.clone(), resultSize(r), now)
}

// lru is a least-recently-used cache bounded by entries and by the sum of
// the sizes its callers give. It is safe for concurrent use.
type lru[V any] struct {
	mu         sync.Mutex
	order      *list.List // of *lruEntry[V], most recent first
	items      map[string]*list.Element
	maxEntries int
	maxBytes   int64
	bytes      int64
}

type lruEntry[V any] struct {
	key    string
	value  V
	size   int64
	stored time.Time
}

func newLRU[V any](maxEntries int, maxBytes int64) *lru[V] {
	return &lru[V]{order: list.New(), items: make(map[string]*list.Element), maxEntries: maxEntries, maxBytes: maxBytes}
}

// get returns the value under key and when it was stored, if it is there
// and no older than maxAge at now; an older entry is dropped.
func (c *lru[V]) get(key string, now time.Time, maxAge time.Duration) (V, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var zero V
	el, ok := c.items[key]
	if !ok {
		return zero, time.Time{}, false
	}
	e := el.Value.(*lruEntry[V])
	if now.Sub(e.stored) > maxAge {
		c.removeElement(el)
		return zero, time.Time{}, false
	}
	c.order.MoveToFront(el)
	return e.value, e.stored, true
}

// put stores value under key, evicting the least recently used entries
// past the bounds. A value larger than an eighth of maxBytes is not kept,
// so one page cannot empty the cache.
func (c *lru[V]) put(key string, value V, size int64, stored time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.removeElement(el)
	}
	if size > c.maxBytes/8 {
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry[V]{key: key, value: value, size: size, stored: stored})
	c.bytes += size
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		c.removeElement(c.order.Back())
	}
}

func (c *lru[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

func (c *lru[V]) removeElement(el *list.Element) {
	e := c.order.Remove(el).(*lruEntry[V])
	delete(c.items, e.key)
	c.bytes -= e.size
}

// scrapeCacheKey names a scrape's result in the cache: the cache scope (the
// tenant), and everything that changes what is fetched or returned (URL,
// tiers, formats, headers, which may carry a caller's credentials), nothing
// that only bounds the call (timeout, max_age_ms, respect_robots).
func scrapeCacheKey(req *ScrapeRequest, formats []string) string {
	headers := make([][2]string, 0, len(req.Headers))
	for _, k := range slices.Sorted(maps.Keys(req.Headers)) {
		headers = append(headers, [2]string{k, req.Headers[k]})
	}
	b, _ := json.Marshal([]any{req.CacheScope, req.URL, req.Tier, req.MaxTier, req.UseResidentialProxy, req.WaitFor,
		req.MainContentOnly, formats, headers})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// resultSize estimates the memory a cached result holds.
func resultSize(r *ScrapeResult) int64 {
	n := len(r.HTML) + len(r.RawHTML) + len(r.Markdown) + len(r.Text) + len(r.Screenshot) + 512
	for k, v := range r.Headers {
		n += len(k) + len(v)
	}
	for _, l := range r.Links {
		n += len(l) + 16
	}
	return int64(n)
}

// clone copies a result deeply enough that a caller changing its copy
// (maps, slices) cannot change the cached one.
func (r *ScrapeResult) clone() *ScrapeResult {
	c := *r
	c.Headers = maps.Clone(r.Headers)
	c.Redirects = slices.Clone(r.Redirects)
	c.CascadePath = slices.Clone(r.CascadePath)
	c.Links = slices.Clone(r.Links)
	if r.Metadata != nil {
		m := *r.Metadata
		m.OpenGraph = maps.Clone(r.Metadata.OpenGraph)
		c.Metadata = &m
	}
	return &c
}
