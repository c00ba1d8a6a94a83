package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

//go:embed migrations/*.sql
var migrations embed.FS

// lockSuffix names the lock file beside the database, which Open locks
// (flock) for as long as the DB is open.
const lockSuffix = "-lock"

// busyTimeoutMS is how long a connection waits for a lock held by another
// process (or a checkpoint) before SQLITE_BUSY.
const busyTimeoutMS = 5000

// DB is the SQLite implementation of store.Store. It is safe for
// concurrent use.
type DB struct {
	w  *sql.DB // the writer: one connection, every write transaction (write.go)
	r  *sql.DB // the readers: queries outside write transactions
	ws writeStmts
	rs readStmts

	// mu guards holds, and orders Reserve's reads against the commit of
	// every Settle: a Settle commits and drops its hold under mu.
	mu    sync.Mutex
	holds holdTable

	wq writeQueue // the writes waiting for w (write.go)

	lock *os.File // the advisory lock on path + lockSuffix

	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*DB)(nil)

// Open opens (creating it and its parent directory when missing) the
// database file at path, brings its schema up to date and returns the
// store. Close it when done.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errs.New(errs.KindInvalid, "sqlite: empty database path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "sqlite: create the data directory")
	}
	lock, err := lockFile(path + lockSuffix)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, path); err != nil {
		_ = lock.Close()
		return nil, err
	}
	w, err := openPool(path, false)
	if err != nil {
		_ = lock.Close()
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	r, err := openPool(path, true)
	if err != nil {
		_ = w.Close()
		_ = lock.Close()
		return nil, err
	}
	readers := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	r.SetConnMaxLifetime(0)
	r.SetConnMaxIdleTime(0)

	db := &DB{w: w, r: r, holds: newHoldTable(), lock: lock}
	if err := db.prepare(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// Close closes both pools and releases the file lock; the holds of calls
// still in flight are forgotten. Closing twice is harmless.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		db.closeErr = errors.Join(db.ws.close(), db.rs.close(), db.w.Close(), db.r.Close(), db.lock.Close())
	})
	return db.closeErr
}

// dsn builds the connection string: WAL, synchronous=NORMAL, foreign keys,
// a busy timeout, and for the writer BEGIN IMMEDIATE so a write transaction
// takes the lock when it starts, not half-way through.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Set("_txlock", "immediate")
	}
	return "file:" + path + "?" + q.Encode()
}

func openPool(path string, readOnly bool) (*sql.DB, error) {
	pool, err := sql.Open("sqlite", dsn(path, readOnly))
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "sqlite: open %s", path)
	}
	return pool, nil
}

// migrate runs the embedded goose migrations on a short-lived pool of its
// own (goose holds one connection and runs statements on another).
func migrate(ctx context.Context, path string) error {
	pool, err := openPool(path, false)
	if err != nil {
		return err
	}
	defer pool.Close()
	p, err := migrator(pool)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return errs.Wrap(errs.KindInternal, err, "sqlite: migrate %s", path)
	}
	return nil
}

// migrator is the goose provider of the embedded migrations on pool.
func migrator(pool *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "sqlite: migrations")
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, pool, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "sqlite: migrations")
	}
	return p, nil
}

// internal wraps an unexpected database error.
func internal(err error, op string) error {
	return errs.Wrap(errs.KindInternal, err, "sqlite: %s", op)
}

// sqliteCode returns the (extended) SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

func isUnique(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

func isForeignKey(err error) bool {
	return sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}

// scanOne scans a single-row result with scan: no row is notFound(),
// another failure an internal error naming op.
func scanOne[T any](row *sql.Row, scan func(sqlrow.Scanner) (T, error), op string, notFound func() error) (T, error) {
	v, err := scan(row)
	if err != nil {
		var zero T
		if errors.Is(err, sql.ErrNoRows) {
			return zero, notFound()
		}
		return zero, internal(err, op)
	}
	return v, nil
}

// querier is the reader pool or a write transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryAll runs a query on q (db.r, or a write transaction) and scans
// every row with scan; what names the operation in errors.
func queryAll[T any](ctx context.Context, q querier, what string, scan func(sqlrow.Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
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
