package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/redis/go-redis/v9"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/fetch/rediscache"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/postgres"
	"github.com/webinfra/webinfra/store/secretbox"
	"github.com/webinfra/webinfra/store/sqlite"
)

// backend is where state lives: the store, and how to open the job queue
// on it.
type backend struct {
	store     store.Store
	secrets   *secretbox.Box
	openQueue func(ctx context.Context, opts *jobs.Options) (*jobs.Queue, error)
}

// openBackend opens PostgreSQL when --database-url is set (the queue on
// River's PostgreSQL driver in the same database), else the embedded
// SQLite files in the data directory (made private first, see
// openDataDir). A PostgreSQL deployment runs several processes that must
// open each other's sealed secrets, so it needs one --secret-key-file for
// all of them, and it writes nothing locally: a bad URL or an unreachable
// server leaves nothing behind.
func openBackend(ctx context.Context, c serveConfig) (*backend, error) {
	if c.databaseURL == "" {
		secrets, err := openDataDir(c.dataDir, c.secretKeyFile)
		if err != nil {
			return nil, err
		}
		st, err := sqlite.Open(ctx, filepath.Join(c.dataDir, "webinfra.db"))
		if err != nil {
			return nil, err
		}
		return &backend{store: st, secrets: secrets, openQueue: func(ctx context.Context, opts *jobs.Options) (*jobs.Queue, error) {
			return jobs.OpenSQLite(ctx, filepath.Join(c.dataDir, "queue.db"), st, opts)
		}}, nil
	}
	if c.secretKeyFile == "" {
		return nil, errors.New("--database-url: processes sharing a database must share the key of secrets at rest: set --secret-key-file (WEBINFRA_SECRET_KEY_FILE) to the same file on each")
	}
	key, err := secretbox.ReadKeyFile(c.secretKeyFile)
	if err != nil {
		return nil, fmt.Errorf("--secret-key-file: %w", err)
	}
	secrets, err := secretbox.New(key)
	if err != nil {
		return nil, fmt.Errorf("--secret-key-file: %w", err)
	}
	st, err := postgres.Open(ctx, c.databaseURL)
	if err != nil {
		return nil, fmt.Errorf("--database-url: %w", err)
	}
	return &backend{store: st, secrets: secrets, openQueue: func(ctx context.Context, opts *jobs.Options) (*jobs.Queue, error) {
		return jobs.OpenPostgres(ctx, st.Pool(), st, opts)
	}}, nil
}

// shared is what the processes of a deployment share through Redis when
// --redis-url is set: the rate-limit buckets and the scrape cache.
type shared struct {
	limiter billing.RateLimiter // nil: the server's in-process buckets
	cache   fetch.ScrapeCache   // nil: the fetcher's in-process LRU
	close   func()
}

// openShared connects to Redis when --redis-url is set. Redis must answer
// at start; later outages fall back to per-process buckets
// (billing.RedisLimiter) and cache misses (fetch/rediscache).
//
// Keys are prefixed with a digest of the database the process serves, so
// deployments sharing one Redis keep apart while the processes of one
// deployment share.
func openShared(ctx context.Context, c serveConfig, log *slog.Logger) (*shared, error) {
	if c.redisURL == "" {
		return &shared{close: func() {}}, nil
	}
	opts, err := redis.ParseURL(c.redisURL)
	if err != nil {
		return nil, fmt.Errorf("--redis-url: %w", err)
	}
	client := redis.NewClient(opts)
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		return nil, fmt.Errorf("--redis-url: cannot reach %s: %w", opts.Addr, err)
	}
	deployment := c.databaseURL
	if deployment == "" {
		deployment, _ = filepath.Abs(c.dataDir)
	}
	sum := sha256.Sum256([]byte(deployment))
	prefix := "webinfra:" + hex.EncodeToString(sum[:6]) + ":"
	return &shared{
		limiter: billing.NewRedisLimiter(client, prefix+"rate:", log),
		cache:   rediscache.New(client, &rediscache.Options{Prefix: prefix + "scrape:"}),
		close:   func() { client.Close() },
	}, nil
}
