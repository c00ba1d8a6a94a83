package jobs

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/webinfra/webinfra/internal/pgtest"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/postgres"
	"github.com/webinfra/webinfra/store/sqlite"
)

// fakeClock is a settable clock.
type fakeClock struct{ at atomic.Int64 }

func (c *fakeClock) now() time.Time  { return time.Unix(0, c.at.Load()).UTC() }
func (c *fakeClock) set(t time.Time) { c.at.Store(t.UnixNano()) }

// A delivery that never gets through is attempted MaxAttempts times, each
// attempt a try and three retries, the attempts scheduled by AttemptDelay
// and all within 24 hours; then it is dead. Time is a fake clock: nothing
// sleeps.
func TestDeliveryAttemptsOver24Hours(t *testing.T) {
	t.Parallel()
	for _, driver := range []string{"sqlite", "postgres"} {
		t.Run(driver, func(t *testing.T) {
			t.Parallel()
			testDeliveryAttemptsOver24Hours(t, driver)
		})
	}
}

// openStoreAndQueue opens a fresh store on driver and a queue on it.
func openStoreAndQueue(t *testing.T, driver string, opts *Options) (store.Store, *Queue) {
	t.Helper()
	ctx := context.Background()
	if driver == "postgres" {
		st, err := postgres.Open(ctx, pgtest.URL(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		q, err := OpenPostgres(ctx, st.Pool(), st, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { q.Stop(ctx) })
		return st, q
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	q, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "queue.db"), st, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Stop(ctx) })
	return st, q
}

func testDeliveryAttemptsOver24Hours(t *testing.T, driver string) {
	ctx := context.Background()
	var posts atomic.Int32
	receiver := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer receiver.Close()

	var clock fakeClock
	start := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	clock.set(start)
	st, q := openStoreAndQueue(t, driver, &Options{
		WebhookClient: receiver.Client(), Now: clock.now, Logger: slog.New(slog.DiscardHandler),
		Sleep: func(_ context.Context, d time.Duration) error { clock.set(clock.now().Add(d)); return nil },
	})
	acct, _, err := st.CreateAccount(ctx, store.NewAccount{Email: "w@example.com", PasswordHash: "x", Plan: "free",
		WebhookSecret: "whsec_00", Now: start}, store.Key{Hash: make([]byte, 32), Prefix: "osk_0", Kind: store.KeyDeveloper})
	if err != nil {
		t.Fatal(err)
	}
	d, err := st.CreateDelivery(ctx, store.WebhookDelivery{AccountID: acct.ID, EventID: "job_x", URL: receiver.URL,
		Payload: []byte(`{"job_id":"job_x"}`), Status: store.DeliveryPending, CreatedAt: start, UpdatedAt: start})
	if err != nil {
		t.Fatal(err)
	}

	w := &deliveryWorker{q: q}
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		job := &river.Job[deliveryArgs]{JobRow: &rivertype.JobRow{Attempt: attempt}, Args: deliveryArgs{DeliveryID: d.ID}}
		err := w.Work(ctx, job)
		if attempt < MaxAttempts {
			if !errors.Is(err, errAttemptFailed) {
				t.Fatalf("attempt %d: %v, want a retry", attempt, err)
			}
			next := w.NextRetry(job)
			if want := clock.now().Add(AttemptDelay(attempt)); !next.Equal(want) {
				t.Fatalf("attempt %d: next at %v, want %v", attempt, next, want)
			}
			clock.set(next)
			continue
		}
		if err != nil {
			t.Fatalf("last attempt: %v", err)
		}
	}
	if elapsed := clock.now().Sub(start); elapsed >= 24*time.Hour {
		t.Fatalf("five attempts took %v, want under 24h", elapsed)
	}
	got, err := st.Delivery(ctx, acct.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	tries, err := st.DeliveryTries(ctx, acct.ID, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.DeliveryDead || got.Attempts != MaxAttempts || got.LastStatusCode != 503 || len(tries) != 4*MaxAttempts || posts.Load() != 4*MaxAttempts {
		t.Fatalf("delivery %+v with %d tries, %d posts", got, len(tries), posts.Load())
	}
	// A dead delivery is left alone by a stray River attempt.
	if err := w.Work(ctx, &river.Job[deliveryArgs]{JobRow: &rivertype.JobRow{Attempt: 6}, Args: deliveryArgs{DeliveryID: d.ID}}); err != nil || posts.Load() != 4*MaxAttempts {
		t.Fatalf("dead delivery attempted again: %v", err)
	}
}
