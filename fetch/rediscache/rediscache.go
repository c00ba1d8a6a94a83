package rediscache

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/webinfra/webinfra/fetch"
)

// Options configure a Cache; zero values mean the defaults.
type Options struct {
	Prefix        string        // key prefix, e.g. the deployment's
	TTL           time.Duration // how long an entry lives; default 1 h
	MaxEntryBytes int           // the largest result kept, as JSON; default 2 MiB
}

// Cache is a fetch.ScrapeCache in Redis.
type Cache struct {
	client *redis.Client
	opts   Options
}

var _ fetch.ScrapeCache = (*Cache)(nil)

// New returns a cache on client.
func New(client *redis.Client, opts *Options) *Cache {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.TTL <= 0 {
		o.TTL = time.Hour
	}
	if o.MaxEntryBytes <= 0 {
		o.MaxEntryBytes = 2 << 20
	}
	return &Cache{client: client, opts: o}
}

// entry is what is stored: the result and when it was fetched.
type entry struct {
	StoredMS int64               `json:"stored_ms"`
	Result   *fetch.ScrapeResult `json:"result"`
}

// Get implements fetch.ScrapeCache.
func (c *Cache) Get(ctx context.Context, key string, now time.Time, maxAge time.Duration) (*fetch.ScrapeResult, time.Time, bool) {
	raw, err := c.client.Get(ctx, c.opts.Prefix+key).Bytes()
	if err != nil {
		return nil, time.Time{}, false
	}
	var e entry
	if json.Unmarshal(raw, &e) != nil || e.Result == nil {
		return nil, time.Time{}, false
	}
	stored := time.UnixMilli(e.StoredMS)
	if now.Sub(stored) > maxAge {
		return nil, time.Time{}, false
	}
	return e.Result, stored, true
}

// Put implements fetch.ScrapeCache.
func (c *Cache) Put(ctx context.Context, key string, r *fetch.ScrapeResult, now time.Time) {
	raw, err := json.Marshal(entry{StoredMS: now.UnixMilli(), Result: r})
	if err != nil || len(raw) > c.opts.MaxEntryBytes {
		return
	}
	c.client.Set(ctx, c.opts.Prefix+key, raw, c.opts.TTL)
}
