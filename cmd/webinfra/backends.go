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

// openLimiter returns the Redis rate limiter when --redis-url is set (nil
// otherwise: the server's in-process buckets) and a function that closes
// its client. Redis must answer at start; later outages fall back to
// per-process buckets (billing.RedisLimiter).
//
// Bucket keys are prefixed with a digest of the database the process
// serves, so that deployments sharing one Redis keep their buckets apart
// while the processes of one deployment share theirs.
func openLimiter(ctx context.Context, c serveConfig, log *slog.Logger) (billing.RateLimiter, func(), error) {
	url := c.redisURL
	if url == "" {
		return nil, func() {}, nil
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, nil, fmt.Errorf("--redis-url: %w", err)
	}
	client := redis.NewClient(opts)
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		return nil, nil, fmt.Errorf("--redis-url: cannot reach %s: %w", opts.Addr, err)
	}
	deployment := c.databaseURL
	if deployment == "" {
		deployment, _ = filepath.Abs(c.dataDir)
	}
	sum := sha256.Sum256([]byte(deployment))
	prefix := "webinfra:rate:" + hex.EncodeToString(sum[:6]) + ":"
	return billing.NewRedisLimiter(client, prefix, log), func() { client.Close() }, nil
}
