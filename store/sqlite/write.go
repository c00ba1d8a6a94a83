package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
)

// Group commit.
//
// Every write is a small transaction on the one writer connection, and
// what it costs is mostly its commit: the pages it changed go to the WAL,
// and the same hot pages (an account's row, the counters, the ledger's
// tail) are written again by the next commit. So concurrent writes are
// committed together: a caller that finds no write in flight runs at once
// as the leader of a batch of one; callers arriving while a batch runs
// queue up, and when it is done its leader hands over to the oldest of
// them, which takes up to maxBatch queued requests (itself first) and runs
// them in ONE transaction, each fn inside its own SAVEPOINT, then commits
// once. A batch is only what queued up while the previous one ran: nobody
// waits on a timer for company, and an idle database commits each write
// on its own, exactly as before. Group commit is standard practice for
// single-writer databases (PostgreSQL's commit_delay, MySQL's binlog group
// commit, LMDB/bbolt's Batch); neither database/sql nor modernc.org/sqlite
// does it, hence this file.
//
// What each caller sees is what a transaction of its own would give it:
//
//   - fn runs alone on the connection, after every fn queued before it,
//     and sees their writes (they are in the same transaction), so
//     read-check-write transactions stay serialized;
//   - a fn that fails is rolled back to its savepoint (ROLLBACK TO and
//     RELEASE), leaves no trace and returns its own error, while the rest
//     of the batch commits; a batch of one needs no savepoint and rolls
//     the transaction back, as before;
//   - a failure of the transaction itself (BEGIN, a savepoint, COMMIT, or
//     an error after which SQLite rolled the whole transaction back) fails
//     every request of the batch that had not already failed on its own;
//   - the commit and every then callback of the batch run together under
//     db.mu, so Reserve still sees each settled charge either in its hold
//     or in the balance, never in both nor in neither;
//   - ctx bounds the wait to get into a batch (a request whose ctx ends
//     while it is queued leaves the queue, and one whose ctx has ended by
//     the time its turn comes is not run); fn gets ctx without its
//     cancellation and runs to the end, and if ctx has ended by then fn's
//     work is rolled back and the call fails, as a transaction of its own
//     would have been rolled back;
//   - a panic in fn is rolled back like an error and re-raised in the
//     caller's goroutine once the batch is done.

// maxBatch caps the requests one transaction carries, so that a long
// queue does not make one commit (and the wait on db.mu) arbitrarily long.
const maxBatch = 64

// writeQueue is the writes waiting for the writer connection.
type writeQueue struct {
	mu      sync.Mutex
	busy    bool        // a leader is running a batch
	waiting []*writeReq // queued for the next batch, oldest first
}

// writeReq is one call of writeThen.
type writeReq struct {
	ctx  context.Context
	fn   func(ctx context.Context, tx *sql.Tx) error
	then func(committed bool)

	err      error // the result, set by the batch's leader
	panicked bool  // fn panicked with panicVal
	panicVal any

	// wake is closed by a leader when the request is done, or, with lead
	// set, when it is to lead the next batch. The leader of a batch of
	// its own needs no wake.
	wake chan struct{}
	lead bool
}

// write runs fn in a write transaction on the writer connection,
// committing fn's writes when it returns nil and rolling them back
// otherwise. Concurrent writes share a transaction (group commit, above).
//
// ctx bounds the wait for the writer; the statements inside get ctx
// without its cancellation, because they take microseconds and
// modernc.org/sqlite would otherwise start a goroutine per statement to
// watch it. If ctx ends while fn runs, fn's writes are rolled back.
func (db *DB) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return db.writeThen(ctx, fn, nil)
}

// writeThen is write, and then, when not nil, runs under db.mu together
// with the commit, told whether fn's writes committed (false when the
// transaction failed to begin, fn failed or the commit failed).
func (db *DB) writeThen(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error, then func(committed bool)) error {
	r := &writeReq{ctx: ctx, fn: fn, then: then}
	q := &db.wq
	q.mu.Lock()
	if !q.busy {
		q.busy = true
		q.mu.Unlock()
		db.lead(r)
		return r.result()
	}
	r.wake = make(chan struct{})
	q.waiting = append(q.waiting, r)
	q.mu.Unlock()

	select {
	case <-r.wake:
	case <-ctx.Done():
		q.mu.Lock()
		if i := slices.Index(q.waiting, r); i >= 0 {
			q.waiting = slices.Delete(q.waiting, i, i+1)
			q.mu.Unlock()
			r.err = internal(ctx.Err(), "begin")
			if then != nil {
				db.mu.Lock()
				defer db.mu.Unlock()
				then(false)
			}
			return r.err
		}
		q.mu.Unlock()
		<-r.wake // a leader has taken r: it runs to the end
	}
	if r.lead {
		db.lead(r)
	}
	return r.result()
}

// result is the request's error, or its panic raised again.
func (r *writeReq) result() error {
	if r.panicked {
		panic(r.panicVal)
	}
	return r.err
}

// lead runs a batch of first and what queued behind it, wakes its
// requests and hands the lead to the oldest request still queued, or
// leaves the writer idle.
func (db *DB) lead(first *writeReq) {
	q := &db.wq
	q.mu.Lock()
	n := min(len(q.waiting), maxBatch-1)
	batch := make([]*writeReq, 0, n+1)
	batch = append(batch, first)
	batch = append(batch, q.waiting[:n]...)
	clear(q.waiting[:n])
	q.waiting = q.waiting[n:]
	q.mu.Unlock()

	defer func() {
		q.mu.Lock()
		var next *writeReq
		if len(q.waiting) > 0 {
			next = q.waiting[0]
			q.waiting[0] = nil
			q.waiting = q.waiting[1:]
		} else {
			q.busy = false
		}
		q.mu.Unlock()
		for _, r := range batch[1:] {
			close(r.wake)
		}
		// Woken last, the next leader is the goroutine this P runs next.
		if next != nil {
			next.lead = true
			close(next.wake)
		}
	}()
	db.runBatch(batch)
}

// runBatch runs the batch in one transaction and sets each request's err.
func (db *DB) runBatch(batch []*writeReq) {
	savepoints := len(batch) > 1
	var txErr error // the transaction failed: every request not failed yet fails
	tx, err := db.w.BeginTx(context.Background(), nil)
	if err != nil {
		txErr = internal(err, "begin")
	}
	for _, r := range batch {
		switch {
		case txErr != nil:
			r.err = txErr
		case r.ctx.Err() != nil:
			r.err = internal(r.ctx.Err(), "begin")
		case !savepoints:
			r.err = r.run(tx)
		default:
			txErr = db.runInSavepoint(tx, r)
		}
	}
	if txErr != nil {
		for _, r := range batch {
			if r.err == nil {
				r.err = txErr
			}
		}
	}
	commit := slices.ContainsFunc(batch, func(r *writeReq) bool { return r.err == nil })
	if tx != nil && !commit {
		_ = tx.Rollback()
	}
	if slices.ContainsFunc(batch, func(r *writeReq) bool { return r.then != nil }) {
		db.mu.Lock()
		defer db.mu.Unlock()
	}
	if commit {
		if err := tx.Commit(); err != nil {
			err = internal(err, "commit")
			for _, r := range batch {
				if r.err == nil {
					r.err = err
				}
			}
		}
	}
	for _, r := range batch {
		if r.then != nil {
			r.then(r.err == nil)
		}
	}
}

// run calls fn in tx; then, when fn succeeded but ctx has ended, the call
// fails (its caller rolls fn's writes back). A panic in fn is recorded
// and makes the call fail.
func (r *writeReq) run(tx *sql.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.panicked, r.panicVal = true, p
			err = internal(fmt.Errorf("panic: %v", p), "write")
		}
	}()
	if err := r.fn(context.WithoutCancel(r.ctx), tx); err != nil {
		return err
	}
	if err := r.ctx.Err(); err != nil {
		return internal(err, "commit")
	}
	return nil
}

// runInSavepoint runs r inside a savepoint of tx, released when r
// succeeds and rolled back to when it fails, and sets r.err. It returns
// an error only when tx itself can go no further (SQLite rolled it back,
// after an I/O error or a full disk say, so the savepoint is gone).
func (db *DB) runInSavepoint(tx *sql.Tx, r *writeReq) error {
	ctx := context.Background()
	exec := func(s *sql.Stmt, op string) error {
		if _, err := tx.StmtContext(ctx, s).ExecContext(ctx); err != nil {
			return internal(err, op)
		}
		return nil
	}
	if err := exec(db.ws.savepoint, "savepoint"); err != nil {
		return err
	}
	if r.err = r.run(tx); r.err == nil {
		return exec(db.ws.release, "release savepoint")
	}
	if err := exec(db.ws.rollbackTo, "rollback to savepoint"); err != nil {
		return err
	}
	return exec(db.ws.release, "release savepoint")
}
