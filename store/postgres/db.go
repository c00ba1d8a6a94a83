package postgres

import (
	"context"
	"embed"
	"errors"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is the PostgreSQL implementation of store.Store. It is safe for
// concurrent use, by this process and by others on the same database.
type DB struct {
	pool *pgxpool.Pool
}

var _ store.Store = (*DB)(nil)

// Open connects to the database at url (postgres://…), brings its schema up
// to date and returns the store. A bad URL or an unreachable server is an
// error naming it; nothing is created then. Close it when done.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, errs.Wrap(errs.KindInvalid, err, "postgres: database URL")
	}
	// Commits do not wait for the WAL to reach the disk: after an
	// operating-system crash the last fraction of a second of commits may
	// be lost (never half of one), which is the SQLite driver's durability
	// too (WAL with synchronous=NORMAL). A deployment that wants every
	// commit flushed adds synchronous_commit=on to the URL's query.
	if _, set := cfg.ConnConfig.RuntimeParams["synchronous_commit"]; !set {
		cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "off"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, errs.Wrap(errs.KindUnavailable, err, "postgres: connect to %s", cfg.ConnConfig.Host)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, errs.Wrap(errs.KindUnavailable, err, "postgres: cannot reach %s:%d", cfg.ConnConfig.Host, cfg.ConnConfig.Port)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return &DB{pool: pool}, nil
}

// Pool is the connection pool, for a job queue sharing the database
// (River on riverpgxv5).
func (db *DB) Pool() *pgxpool.Pool { return db.pool }

// Close closes the pool. Closing twice is harmless.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// migrate runs the embedded goose migrations, under a session advisory
// lock so that processes starting at once migrate one after the other.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return withMigrator(pool, func(p *goose.Provider) error {
		_, err := p.Up(ctx)
		return err
	})
}

// withMigrator runs fn with a goose provider of the embedded migrations.
func withMigrator(pool *pgxpool.Pool, fn func(*goose.Provider) error) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "postgres: migrations")
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "postgres: migration lock")
	}
	sqlDB := stdlib.OpenDBFromPool(pool)
	defer sqlDB.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, sqlDB, fsys,
		goose.WithDisableGlobalRegistry(true), goose.WithSessionLocker(locker))
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "postgres: migrations")
	}
	if err := fn(p); err != nil {
		return errs.Wrap(errs.KindInternal, err, "postgres: migrate")
	}
	return nil
}

// internal wraps an unexpected database error.
func internal(err error, op string) error {
	return errs.Wrap(errs.KindInternal, err, "postgres: %s", op)
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func isUnique(err error) bool     { return pgCode(err) == "23505" }
func isForeignKey(err error) bool { return pgCode(err) == "23503" }

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// scanOne scans a single-row result with scan: no row is notFound(),
// another failure an internal error naming op.
func scanOne[T any](row pgx.Row, scan func(sqlrow.Scanner) (T, error), op string, notFound func() error) (T, error) {
	v, err := scan(row)
	if err != nil {
		var zero T
		if errors.Is(err, pgx.ErrNoRows) {
			return zero, notFound()
		}
		return zero, internal(err, op)
	}
	return v, nil
}

// queryAll runs a query and scans every row with scan; what names the
// operation in errors.
func queryAll[T any](ctx context.Context, q querier, what string, scan func(sqlrow.Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, internal(err, what)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, internal(err, what+": scan")
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, internal(err, what)
	}
	return out, nil
}

// tx runs f in a transaction, committed when f returns nil.
func (db *DB) tx(ctx context.Context, f func(tx pgx.Tx) error) error {
	err := pgx.BeginFunc(ctx, db.pool, f)
	var e *errs.Error
	if err != nil && !errors.As(err, &e) {
		return internal(err, "transaction")
	}
	return err
}

// exactlyOne turns "no row changed" into notFound.
func exactlyOne(tag pgconn.CommandTag, err error, op string, notFound func() error) error {
	if err != nil {
		return internal(err, op)
	}
	if tag.RowsAffected() == 0 {
		return notFound()
	}
	return nil
}
