package usagelog

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/webinfra/webinfra/store"
)

// Inserter is the part of the store the writer needs.
type Inserter interface {
	InsertUsage(ctx context.Context, rows []store.UsageRow) error
}

// Writer batches usage rows. It is safe for concurrent use.
type Writer struct {
	ins      Inserter
	maxBatch int
	log      *slog.Logger

	mu      sync.Mutex
	pending []store.UsageRow

	full chan struct{} // a batch is full: flush now
	stop chan struct{}
	done chan struct{}
}

// New starts a writer that flushes every interval (default 1s) or when
// maxBatch rows (default 500) are waiting.
func New(ins Inserter, interval time.Duration, maxBatch int, log *slog.Logger) *Writer {
	if interval <= 0 {
		interval = time.Second
	}
	if maxBatch <= 0 {
		maxBatch = 500
	}
	if log == nil {
		log = slog.Default()
	}
	w := &Writer{ins: ins, maxBatch: maxBatch, log: log,
		full: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop(interval)
	return w
}

// Add queues one row.
func (w *Writer) Add(row store.UsageRow) {
	w.mu.Lock()
	w.pending = append(w.pending, row)
	n := len(w.pending)
	w.mu.Unlock()
	if n >= w.maxBatch {
		select {
		case w.full <- struct{}{}:
		default:
		}
	}
}

// Flush writes every queued row now.
func (w *Writer) Flush(ctx context.Context) error {
	w.mu.Lock()
	rows := w.pending
	w.pending = nil
	w.mu.Unlock()
	if len(rows) == 0 {
		return nil
	}
	return w.ins.InsertUsage(ctx, rows)
}

// Close stops the background loop and flushes what is left.
func (w *Writer) Close(ctx context.Context) error {
	close(w.stop)
	<-w.done
	return w.Flush(ctx)
}

func (w *Writer) loop(interval time.Duration) {
	defer close(w.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		case <-w.full:
		}
		if err := w.Flush(context.Background()); err != nil {
			w.log.Error("usage log flush failed", "err", err)
		}
	}
}
