package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// writeFn is the fn of a write.
type writeFn = func(ctx context.Context, tx *sql.Tx) error

// openWriteDB opens a fresh database with a table gc (n INTEGER PRIMARY
// KEY) and, for commit failures, a child table whose foreign key is
// checked at COMMIT.
func openWriteDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = db.write(t.Context(), func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
			CREATE TABLE gc (n INTEGER PRIMARY KEY);
			CREATE TABLE gc_child (n INTEGER REFERENCES gc (n) DEFERRABLE INITIALLY DEFERRED)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func insert(ctx context.Context, tx *sql.Tx, n int) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO gc (n) VALUES (?)`, n)
	return err
}

// rows returns the numbers in gc.
func rows(t *testing.T, db *DB) map[int]bool {
	t.Helper()
	got, err := queryAll(t.Context(), db.r, "gc", func(s sqlrow.Scanner) (int, error) {
		var n int
		return n, s.Scan(&n)
	}, `SELECT n FROM gc`)
	if err != nil {
		t.Fatal(err)
	}
	set := map[int]bool{}
	for _, n := range got {
		set[n] = true
	}
	return set
}

// blockWriter starts a write that holds the writer until the returned
// function is called; that function waits for the write to end.
func blockWriter(t *testing.T, db *DB) (unblock func()) {
	t.Helper()
	started, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- db.write(context.Background(), func(context.Context, *sql.Tx) error {
			close(started)
			<-release
			return nil
		})
	}()
	<-started
	return func() {
		close(release)
		if err := <-done; err != nil {
			t.Errorf("blocking write: %v", err)
		}
	}
}

// waitQueued waits until n writes are queued.
func waitQueued(t *testing.T, db *DB, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		db.wq.mu.Lock()
		queued := len(db.wq.waiting)
		db.wq.mu.Unlock()
		if queued == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", queued, n)
		}
	}
}

// runQueued queues n writes behind a blocked one, in order (call(i)
// makes write i), so that they run as one batch, then unblocks the writer
// and waits for them all.
func runQueued(t *testing.T, db *DB, n int, call func(i int)) {
	t.Helper()
	unblock := blockWriter(t, db)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { call(i) })
		waitQueued(t, db, i+1)
	}
	unblock()
	wg.Wait()
}

// TestGroupCommit queues writes behind a blocked one, so that they run as
// one batch, and checks that each gets what a transaction of its own
// would have given it: failures (an error after a write, a constraint
// violation, a ctx ended mid-fn) leave no trace and return their own
// error, the rest commit together, and every then runs under db.mu told
// the truth.
func TestGroupCommit(t *testing.T) {
	t.Parallel()
	db := openWriteDB(t)

	const n = 40
	errOwn := errors.New("own failure")
	type result struct {
		err       error
		tx        *sql.Tx
		committed bool
		thens     int
	}
	results := make([]result, n)
	runQueued(t, db, n, func(i int) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		r := &results[i]
		r.err = db.writeThen(ctx, func(ctx context.Context, tx *sql.Tx) error {
			r.tx = tx
			if err := insert(ctx, tx, i); err != nil {
				return err
			}
			switch i % 4 {
			case 1:
				return fmt.Errorf("request %d: %w", i, errOwn)
			case 2:
				return insert(ctx, tx, i-2) // taken: a constraint violation
			case 3:
				cancel()
			}
			return nil
		}, func(committed bool) {
			if db.mu.TryLock() {
				t.Errorf("request %d: then runs without db.mu", i)
				db.mu.Unlock()
			}
			r.committed = committed
			r.thens++
		})
	})

	got := rows(t, db)
	var batchTx *sql.Tx
	for i, r := range results {
		ok := i%4 == 0
		switch {
		case ok && r.err != nil:
			t.Errorf("request %d: %v", i, r.err)
		case i%4 == 1 && !errors.Is(r.err, errOwn):
			t.Errorf("request %d = %v, want its own error", i, r.err)
		case i%4 == 2 && !isUnique(r.err):
			t.Errorf("request %d = %v, want its unique violation", i, r.err)
		case i%4 == 3 && !errors.Is(r.err, context.Canceled):
			t.Errorf("request %d = %v, want context.Canceled", i, r.err)
		}
		if got[i] != ok {
			t.Errorf("request %d: row present %v, want %v", i, got[i], ok)
		}
		if r.thens != 1 || r.committed != ok {
			t.Errorf("request %d: then called %d times, committed %v; want once, %v", i, r.thens, r.committed, ok)
		}
		if batchTx == nil {
			batchTx = r.tx
		} else if r.tx != batchTx {
			t.Errorf("request %d ran in another transaction than request 0", i)
		}
	}
	if len(got) != n/4 {
		t.Errorf("%d rows, want %d", len(got), n/4)
	}
}

// TestGroupCommitBatchCap checks that a long queue is cut into batches of
// at most maxBatch requests, all of which commit.
func TestGroupCommitBatchCap(t *testing.T) {
	t.Parallel()
	db := openWriteDB(t)
	unblock := blockWriter(t, db)
	const n = 2*maxBatch + 1
	txs := make([]*sql.Tx, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := db.write(t.Context(), func(ctx context.Context, tx *sql.Tx) error {
				txs[i] = tx
				return insert(ctx, tx, i)
			}); err != nil {
				t.Errorf("request %d: %v", i, err)
			}
		})
	}
	waitQueued(t, db, n)
	unblock()
	wg.Wait()
	perTx := map[*sql.Tx]int{}
	for _, tx := range txs {
		perTx[tx]++
	}
	for _, k := range perTx {
		if k > maxBatch {
			t.Errorf("a batch of %d requests, want at most %d", k, maxBatch)
		}
	}
	if len(perTx) < 3 {
		t.Errorf("%d requests in %d batches, want at least 3", n, len(perTx))
	}
	if got := rows(t, db); len(got) != n {
		t.Errorf("%d rows, want %d", len(got), n)
	}
}

// TestGroupCommitCancelQueued checks that a write whose ctx ends while it
// waits for the writer leaves the queue at once, never runs its fn, and
// has its then told it did not commit.
func TestGroupCommitCancelQueued(t *testing.T) {
	t.Parallel()
	db := openWriteDB(t)
	unblock := blockWriter(t, db)
	defer unblock()
	ctx, cancel := context.WithCancel(t.Context())
	ran, thens, committed := false, 0, true
	done := make(chan error)
	go func() {
		done <- db.writeThen(ctx, func(context.Context, *sql.Tx) error {
			ran = true
			return nil
		}, func(c bool) { thens, committed = thens+1, c })
	}()
	waitQueued(t, db, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write = %v, want context.Canceled", err)
	}
	waitQueued(t, db, 0)
	if ran || thens != 1 || committed {
		t.Errorf("fn ran %v, then called %d times with %v; want false, once with false", ran, thens, committed)
	}
}

// TestGroupCommitPanic checks that a fn that panics in a batch is rolled
// back, the panic reaches its caller, and the rest of the batch commits.
func TestGroupCommitPanic(t *testing.T) {
	t.Parallel()
	db := openWriteDB(t)
	fns := []writeFn{
		func(ctx context.Context, tx *sql.Tx) error { return insert(ctx, tx, 1) },
		func(ctx context.Context, tx *sql.Tx) error {
			_ = insert(ctx, tx, 2)
			panic("boom")
		},
		func(ctx context.Context, tx *sql.Tx) error { return insert(ctx, tx, 3) },
	}
	errs := make([]error, len(fns))
	panics := make([]any, len(fns))
	runQueued(t, db, len(fns), func(i int) {
		defer func() { panics[i] = recover() }()
		errs[i] = db.write(t.Context(), fns[i])
	})
	if errs[0] != nil || errs[2] != nil || panics[0] != nil || panics[2] != nil {
		t.Errorf("the other requests = %v, %v (panics %v, %v)", errs[0], errs[2], panics[0], panics[2])
	}
	if panics[1] != "boom" {
		t.Errorf("the panicking request's caller got panic %v, want boom", panics[1])
	}
	if got := rows(t, db); !got[1] || got[2] || !got[3] {
		t.Errorf("rows %v, want 1 and 3", got)
	}
	if err := db.write(t.Context(), func(ctx context.Context, tx *sql.Tx) error { return insert(ctx, tx, 4) }); err != nil {
		t.Errorf("write after the panic: %v", err)
	}
}

// TestGroupCommitCommitFails checks that when the commit fails (here a
// deferred foreign key, checked only at COMMIT) every request of the
// batch fails and nothing is written, and that the writer goes on.
func TestGroupCommitCommitFails(t *testing.T) {
	t.Parallel()
	db := openWriteDB(t)
	fns := []writeFn{
		func(ctx context.Context, tx *sql.Tx) error { return insert(ctx, tx, 1) },
		func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO gc_child (n) VALUES (99)`)
			return err
		},
	}
	errs := make([]error, len(fns))
	committed := make([]bool, len(fns))
	runQueued(t, db, len(fns), func(i int) {
		errs[i] = db.writeThen(t.Context(), fns[i], func(c bool) { committed[i] = c })
	})
	for i, err := range errs {
		if !isForeignKey(err) || committed[i] {
			t.Errorf("request %d = %v, committed %v; want the commit's foreign key error, false", i, err, committed[i])
		}
	}
	if got := rows(t, db); len(got) != 0 {
		t.Errorf("rows %v, want none", got)
	}
	if err := db.write(t.Context(), func(ctx context.Context, tx *sql.Tx) error { return insert(ctx, tx, 2) }); err != nil {
		t.Errorf("write after the failed commit: %v", err)
	}
}

// TestWriteAlone checks the path of a write with nothing in flight: it
// commits, or rolls back all of fn's work on an error or when ctx ends
// during fn.
func TestWriteAlone(t *testing.T) {
	t.Parallel()
	db := openWriteDB(t)
	if err := db.write(t.Context(), func(ctx context.Context, tx *sql.Tx) error { return insert(ctx, tx, 1) }); err != nil {
		t.Fatal(err)
	}
	errOwn := errors.New("own failure")
	err := db.write(t.Context(), func(ctx context.Context, tx *sql.Tx) error {
		_ = insert(ctx, tx, 2)
		return errOwn
	})
	if !errors.Is(err, errOwn) {
		t.Errorf("failing write = %v, want its error", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	err = db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		cancel()
		return insert(ctx, tx, 3)
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("write cancelled mid-fn = %v, want context.Canceled", err)
	}
	if err := db.write(ctx, func(context.Context, *sql.Tx) error {
		t.Error("fn ran with an ended ctx")
		return nil
	}); !errors.Is(err, context.Canceled) {
		t.Errorf("write with an ended ctx = %v, want context.Canceled", err)
	}
	if got := rows(t, db); len(got) != 1 || !got[1] {
		t.Errorf("rows %v, want only 1", got)
	}
}
