package usagelog_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/webinfra/webinfra/internal/usagelog"
	"github.com/webinfra/webinfra/store"
)

type memory struct {
	mu      sync.Mutex
	batches [][]store.UsageRow
}

func (m *memory) InsertUsage(_ context.Context, rows []store.UsageRow) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.batches = append(m.batches, rows)
	return nil
}

func (m *memory) rows() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, b := range m.batches {
		n += len(b)
	}
	return n
}

func TestFlushesOnInterval(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		m := &memory{}
		w := usagelog.New(m, time.Second, 100, nil)
		w.Add(store.UsageRow{RequestID: "a"})
		synctest.Wait()
		if m.rows() != 0 {
			t.Fatal("row written before the interval")
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if m.rows() != 1 {
			t.Fatalf("rows after one interval = %d, want 1", m.rows())
		}
		if err := w.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

func TestFlushesFullBatchAtOnce(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		m := &memory{}
		w := usagelog.New(m, time.Hour, 10, nil)
		for i := range 10 {
			w.Add(store.UsageRow{RequestID: fmt.Sprint(i)})
		}
		synctest.Wait()
		if m.rows() != 10 || len(m.batches) != 1 {
			t.Fatalf("rows=%d batches=%d, want one batch of 10", m.rows(), len(m.batches))
		}
		w.Add(store.UsageRow{RequestID: "last"})
		if err := w.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		if m.rows() != 11 {
			t.Fatalf("Close left rows unwritten: %d", m.rows())
		}
	})
}
