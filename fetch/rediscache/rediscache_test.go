package rediscache_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/rediscache"
	"github.com/webinfra/webinfra/internal/redistest"
)

// Two fetchers (two processes) sharing the cache: one's fetch answers the
// other's max_age_ms request of the same scope, never another scope's.
func TestSharedAcrossFetchers(t *testing.T) {
	t.Parallel()
	client, prefix := redistest.Client(t)
	var hits atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("<html><body><h1>shared</h1></body></html>"))
	}))
	defer site.Close()
	newFetcher := func() *fetch.Fetcher {
		f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true, Cache: rediscache.New(client, &rediscache.Options{Prefix: prefix})})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := newFetcher(), newFetcher()
	req := fetch.ScrapeRequest{URL: site.URL, MaxAgeMS: 60_000, CacheScope: "account:1"}
	ctx := context.Background()
	if _, err := a.Scrape(ctx, req); err != nil {
		t.Fatal(err)
	}
	got, err := b.Scrape(ctx, req)
	if err != nil || !got.Cached || hits.Load() != 1 || got.StatusCode != 200 {
		t.Fatalf("the other process fetched again: cached %v, %d fetches, %v", got.Cached, hits.Load(), err)
	}
	req.CacheScope = "account:2"
	if got, _ := b.Scrape(ctx, req); got.Cached || hits.Load() != 2 {
		t.Fatalf("another account's scope read the cache: cached %v", got.Cached)
	}
}

// Redis unreachable: every lookup is a miss, nothing fails.
func TestUnreachableIsAMiss(t *testing.T) {
	t.Parallel()
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	defer client.Close()
	c := rediscache.New(client, nil)
	c.Put(context.Background(), "k", &fetch.ScrapeResult{URL: "x"}, time.Now())
	if _, _, ok := c.Get(context.Background(), "k", time.Now(), time.Hour); ok {
		t.Fatal("a hit from an unreachable Redis")
	}
}
