package jobs

import (
	"context"
	"sync"

	"github.com/riverqueue/river"
)

// maxInsertBatch bounds one InsertMany.
const maxInsertBatch = 500

// insertBatcher coalesces concurrent River inserts into one InsertMany: a
// caller that finds no flush running starts one at once (no added wait),
// and inserts that arrive while it runs go together in the next. River's
// SQLite driver inserts a batch in one statement and one transaction, so
// under load each job costs a fraction of a transaction. (Group commit is
// small and specific to this queue; no library offers it over River.)
type insertBatcher struct {
	insertMany func(context.Context, []river.InsertManyParams) error

	mu       sync.Mutex
	pending  []pendingInsert
	flushing bool
}

type pendingInsert struct {
	params river.InsertManyParams
	done   chan error
}

// insert returns once the job is in River (or the batch failed). If ctx
// ends first it returns ctx's error, and the insert may still happen.
func (b *insertBatcher) insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) error {
	p := pendingInsert{params: river.InsertManyParams{Args: args, InsertOpts: opts}, done: make(chan error, 1)}
	b.mu.Lock()
	b.pending = append(b.pending, p)
	start := !b.flushing
	b.flushing = true
	b.mu.Unlock()
	if start {
		go b.flush()
	}
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flush inserts batches until none is waiting.
func (b *insertBatcher) flush() {
	for {
		b.mu.Lock()
		n := min(len(b.pending), maxInsertBatch)
		batch := b.pending[:n:n]
		b.pending = b.pending[n:]
		if n == 0 {
			b.flushing = false
			b.pending = nil
		}
		b.mu.Unlock()
		if n == 0 {
			return
		}
		params := make([]river.InsertManyParams, n)
		for i, p := range batch {
			params[i] = p.params
		}
		err := b.insertMany(context.Background(), params)
		for _, p := range batch {
			p.done <- err
		}
	}
}
