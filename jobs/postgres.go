package jobs

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/webinfra/webinfra/store"
)

// migrationLockID is the advisory lock under which processes starting at
// once migrate River's tables one after the other.
const migrationLockID = 0x77656269 // "webi"

// OpenPostgres builds a queue on River's PostgreSQL driver over pool (the
// store's database, so the job records and River's rows sit side by side),
// migrating River's tables first. Every process started on the database
// shares the queue: a job runs on whichever process fetches it, once, and
// the jobs of a process that died are run again by another after
// Options.RescueAfter.
func OpenPostgres(ctx context.Context, pool *pgxpool.Pool, st store.Store, opts *Options) (*Queue, error) {
	driver := riverpgxv5.New(pool)
	if err := migrateRiver(ctx, pool, driver); err != nil {
		return nil, err
	}
	q, err := New(driver, st, opts)
	if err != nil {
		return nil, err
	}
	q.shared = true
	return q, nil
}

func migrateRiver(ctx context.Context, pool *pgxpool.Pool, driver *riverpgxv5.Driver) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("jobs: migrate river tables: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLockID); err != nil {
		return fmt.Errorf("jobs: migrate river tables: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLockID)
	migrator, err := rivermigrate.New(driver, nil)
	if err == nil {
		_, err = migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
	}
	if err != nil {
		return fmt.Errorf("jobs: migrate river tables: %w", err)
	}
	return nil
}
