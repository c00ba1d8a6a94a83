package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

var tJobs = time.Date(2026, time.March, 10, 12, 0, 0, 0, time.UTC)

// openAccountDB opens a fresh database with one account of 100 credits and
// its key.
func openAccountDB(t *testing.T) (*DB, store.Key) {
	t.Helper()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	_, key, err := db.CreateAccount(t.Context(), store.NewAccount{
		Email: "ann@example.com", PasswordHash: "x", Plan: "free", WebhookSecret: "whsec_0", InitialCredits: 100, Now: tJobs,
	}, store.Key{Hash: []byte("0123456789abcdef0123456789abcdef"), Prefix: "osk_0123", Kind: store.KeyDeveloper})
	if err != nil {
		t.Fatal(err)
	}
	return db, key
}

func newJob(key store.Key, id string) store.Job {
	return store.Job{ID: id, AccountID: key.AccountID, KeyID: key.ID, Kind: "scrape",
		Input: json.RawMessage(`{"url":"https://example.com/"}`), Credits: 10, CreatedAt: tJobs}
}

// TestJobQueryPlans checks that every listing of jobs and deliveries reads
// one index, without a table scan or a sort.
func TestJobQueryPlans(t *testing.T) {
	t.Parallel()
	db, _ := openAccountDB(t)
	for _, tc := range []struct{ query, index string }{
		{listJobsSQL, "jobs_account_time"},
		{unfinishedJobsSQL, "jobs_unfinished"},
		{listDeliveriesSQL, "webhook_deliveries_account"},
		{listDeadDeliveriesSQL, "webhook_deliveries_dead"},
		{pendingDeliveriesSQL, "webhook_deliveries_pending"},
		{deliveryTriesSQL, "delivery_tries_delivery"},
	} {
		args := make([]any, strings.Count(tc.query, "?"))
		for i := range args {
			args[i] = 1
		}
		rows, err := db.r.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+tc.query, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		all := strings.Join(plan, "; ")
		if !strings.Contains(all, "INDEX "+tc.index) || strings.Contains(all, "TEMP B-TREE") {
			t.Errorf("plan of %q = %q, want a search of index %s without a sort", tc.query, all, tc.index)
		}
	}
}

// TestRecoveryListsAreNotPaged checks that the recovery listings take any
// positive limit as given (not capped at a page) and all rows for 0.
func TestRecoveryListsAreNotPaged(t *testing.T) {
	t.Parallel()
	db, key := openAccountDB(t)
	ctx := t.Context()
	const n = sqlrow.MaxPage + 5
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for i := range n {
			j := newJob(key, fmt.Sprintf("job_%05d", i))
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO jobs (id, account_id, key_id, kind, input, status, webhook_url, created_at)
				VALUES (?, ?, ?, ?, ?, 'queued', '', ?)`, j.ID, j.AccountID, j.KeyID, j.Kind, []byte(j.Input), sqlrow.ToMS(j.CreatedAt)); err != nil {
				return err
			}
			d := store.WebhookDelivery{AccountID: key.AccountID, EventID: j.ID, URL: "https://hooks.example.com/", CreatedAt: tJobs}
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO webhook_deliveries (account_id, event_id, url, payload, status, created_at, updated_at)
				VALUES (?, ?, ?, x'', 'pending', ?, ?)`, d.AccountID, d.EventID, d.URL, sqlrow.ToMS(d.CreatedAt), sqlrow.ToMS(d.CreatedAt)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{0, -1, 100000} {
		jobs, err := db.UnfinishedJobs(ctx, limit)
		if err != nil || len(jobs) != n {
			t.Errorf("UnfinishedJobs(%d) = %d jobs, %v; want %d", limit, len(jobs), err, n)
		}
		ds, err := db.PendingDeliveries(ctx, limit)
		if err != nil || len(ds) != n {
			t.Errorf("PendingDeliveries(%d) = %d deliveries, %v; want %d", limit, len(ds), err, n)
		}
	}
	if jobs, err := db.UnfinishedJobs(ctx, 3); err != nil || len(jobs) != 3 {
		t.Errorf("UnfinishedJobs(3) = %d jobs, %v; want 3", len(jobs), err)
	}
}

// TestJobsRejectInvalid checks the driver's own checks: nothing is written.
func TestJobsRejectInvalid(t *testing.T) {
	t.Parallel()
	db, key := openAccountDB(t)
	ctx := t.Context()
	for name, mutate := range map[string]func(*store.Job){
		"no id":          func(j *store.Job) { j.ID = "" },
		"no account":     func(j *store.Job) { j.AccountID = 0 },
		"no key":         func(j *store.Job) { j.KeyID = 0 },
		"no kind":        func(j *store.Job) { j.Kind = "" },
		"no input":       func(j *store.Job) { j.Input = nil },
		"input not JSON": func(j *store.Job) { j.Input = json.RawMessage(`{"url":`) },
		"no time":        func(j *store.Job) { j.CreatedAt = time.Time{} },
		"negative cost":  func(j *store.Job) { j.Credits = -1 },
	} {
		j := newJob(key, "job_bad")
		mutate(&j)
		if _, err := db.CreateJob(ctx, j); errs.KindOf(err) != errs.KindInvalid {
			t.Errorf("CreateJob(%s) = %v, want invalid", name, err)
		}
	}
	unknown := newJob(key, "job_orphan")
	unknown.AccountID += 1000
	if _, err := db.CreateJob(ctx, unknown); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("CreateJob(unknown account) = %v, want not found", err)
	}
	if jobs, err := db.UnfinishedJobs(ctx, 0); err != nil || len(jobs) != 0 {
		t.Fatalf("refused jobs were stored: %+v, %v", jobs, err)
	}

	j, err := db.CreateJob(ctx, newJob(key, "job_ok"))
	if err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]store.JobOutcome{
		"negative refund": {JobID: j.ID, Status: store.JobFailed, Refund: -1, Now: tJobs},
		"result not JSON": {JobID: j.ID, Status: store.JobCompleted, Result: json.RawMessage(`nope`), Now: tJobs},
		"running":         {JobID: j.ID, Status: store.JobRunning, Now: tJobs},
	} {
		if _, err := db.FinishJob(ctx, o); errs.KindOf(err) != errs.KindInvalid {
			t.Errorf("FinishJob(%s) = %v, want invalid", name, err)
		}
	}
	good := store.WebhookDelivery{AccountID: key.AccountID, EventID: j.ID, JobID: j.ID, URL: "https://hooks.example.com/", CreatedAt: tJobs}
	for name, mutate := range map[string]func(*store.WebhookDelivery){
		"no event":      func(d *store.WebhookDelivery) { d.EventID = "" },
		"no URL":        func(d *store.WebhookDelivery) { d.URL = "" },
		"other account": func(d *store.WebhookDelivery) { d.AccountID++ },
		"other job":     func(d *store.WebhookDelivery) { d.JobID = "job_other" },
	} {
		bad := good
		mutate(&bad)
		o := store.JobOutcome{JobID: j.ID, Status: store.JobCompleted, Refund: 5, Delivery: &bad, Now: tJobs}
		if _, err := db.FinishJob(ctx, o); errs.KindOf(err) != errs.KindInvalid {
			t.Errorf("FinishJob(delivery with %s) = %v, want invalid", name, err)
		}
	}
	if got, err := db.GetJob(ctx, j.ID); err != nil || got.Status != store.JobQueued || got.DeliveryID != 0 || got.Refunded != 0 {
		t.Errorf("job after refused changes = %+v, %v", got, err)
	}
	if ds, err := db.PendingDeliveries(ctx, 0); err != nil || len(ds) != 0 {
		t.Errorf("refused FinishJobs stored deliveries: %+v, %v", ds, err)
	}

	d := good
	for name, mutate := range map[string]func(*store.WebhookDelivery){
		"no event": func(d *store.WebhookDelivery) { d.EventID = "" },
		"no URL":   func(d *store.WebhookDelivery) { d.URL = "" },
	} {
		bad := d
		mutate(&bad)
		if _, err := db.CreateDelivery(ctx, bad); errs.KindOf(err) != errs.KindInvalid {
			t.Errorf("CreateDelivery(%s) = %v, want invalid", name, err)
		}
	}
	orphan := d
	orphan.AccountID += 1000
	if _, err := db.CreateDelivery(ctx, orphan); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("CreateDelivery(unknown account) = %v, want not found", err)
	}
	d, err = db.CreateDelivery(ctx, d) // a nil payload is stored as empty
	if err != nil {
		t.Fatal(err)
	}
	ok := store.DeliveryTry{Attempt: 1, Try: 1, At: tJobs}
	for name, rec := range map[string]store.AttemptRecord{
		"unknown status":    {DeliveryID: d.ID, Status: "lost", Attempts: 1},
		"negative attempts": {DeliveryID: d.ID, Status: store.DeliveryDead, Attempts: -1},
		"attempt 0":         {DeliveryID: d.ID, Status: store.DeliveryDead, Attempts: 1, Tries: []store.DeliveryTry{ok, {Attempt: 0, Try: 1}}},
		"try 0":             {DeliveryID: d.ID, Status: store.DeliveryDead, Attempts: 1, Tries: []store.DeliveryTry{ok, {Attempt: 1, Try: 0}}},
		"other delivery":    {DeliveryID: d.ID, Status: store.DeliveryDead, Attempts: 1, Tries: []store.DeliveryTry{{DeliveryID: d.ID + 1, Attempt: 1, Try: 1}}},
	} {
		rec.Now = tJobs.Add(time.Hour)
		if _, err := db.FinishAttempt(ctx, rec); errs.KindOf(err) != errs.KindInvalid {
			t.Errorf("FinishAttempt(%s) = %v, want invalid", name, err)
		}
	}
	wantUntouched(t, db, key.AccountID, d.ID, "refused attempts")
}

// TestFinishJobDeliveryDefaults checks that FinishJob fills in a
// delivery's zero account, job and creation time from the job and Now.
func TestFinishJobDeliveryDefaults(t *testing.T) {
	t.Parallel()
	db, key := openAccountDB(t)
	ctx := t.Context()
	j, err := db.CreateJob(ctx, newJob(key, "job_1"))
	if err != nil {
		t.Fatal(err)
	}
	end := tJobs.Add(time.Minute)
	got, err := db.FinishJob(ctx, store.JobOutcome{JobID: j.ID, Status: store.JobCompleted, Now: end,
		Delivery: &store.WebhookDelivery{EventID: j.ID, URL: "https://hooks.example.com/"}})
	if err != nil || got.DeliveryID == 0 {
		t.Fatalf("FinishJob = %+v, %v", got, err)
	}
	d, err := db.Delivery(ctx, key.AccountID, got.DeliveryID)
	if err != nil || d.JobID != j.ID || !d.CreatedAt.Equal(end) || !d.UpdatedAt.Equal(end) || len(d.Payload) != 0 {
		t.Errorf("delivery = %+v, %v; want job %s, created at %v, an empty payload", d, err, j.ID, end)
	}
}

// TestJobWritesAreAtomic makes the last statement of FinishJob and of
// FinishAttempt fail (a trigger) and checks that nothing before it stays:
// no refund, no delivery, no status; no tries, no attempt.
func TestJobWritesAreAtomic(t *testing.T) {
	t.Parallel()
	db, key := openAccountDB(t)
	ctx := t.Context()
	j, err := db.CreateJob(ctx, newJob(key, "job_1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.StartJob(ctx, j.ID, tJobs); err != nil {
		t.Fatal(err)
	}
	d, err := db.CreateDelivery(ctx, store.WebhookDelivery{AccountID: key.AccountID, EventID: "test_1", URL: "https://hooks.example.com/", CreatedAt: tJobs})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TRIGGER refuse_finish BEFORE UPDATE OF status ON jobs WHEN NEW.status = 'failed'
		 BEGIN SELECT RAISE(ABORT, 'refused'); END`,
		`CREATE TRIGGER refuse_try BEFORE INSERT ON delivery_tries WHEN NEW.try = 2
		 BEGIN SELECT RAISE(ABORT, 'refused'); END`,
	} {
		if _, err := db.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}

	_, err = db.FinishJob(ctx, store.JobOutcome{JobID: j.ID, Status: store.JobFailed, Refund: 10, Now: tJobs,
		Delivery: &store.WebhookDelivery{EventID: j.ID, URL: "https://hooks.example.com/"}})
	if errs.KindOf(err) != errs.KindInternal {
		t.Fatalf("FinishJob against the trigger = %v, want internal", err)
	}
	if got, err := db.GetJob(ctx, j.ID); err != nil || got.Status != store.JobRunning || got.Refunded != 0 || got.DeliveryID != 0 {
		t.Errorf("job after a failed FinishJob = %+v, %v; want it running, unrefunded, without delivery", got, err)
	}
	if bal, err := db.Balance(ctx, key.AccountID); err != nil || bal != 100 {
		t.Errorf("Balance = %d, %v; want 100 (no refund)", bal, err)
	}
	if ds, err := db.PendingDeliveries(ctx, 0); err != nil || len(ds) != 1 || ds[0].ID != d.ID {
		t.Errorf("PendingDeliveries = %+v, %v; want only the test delivery", ds, err)
	}

	_, err = db.FinishAttempt(ctx, store.AttemptRecord{DeliveryID: d.ID, Status: store.DeliveryDead, Attempts: 1,
		LastStatusCode: 500, Now: tJobs.Add(time.Hour), Tries: []store.DeliveryTry{
			{Attempt: 1, Try: 1, StatusCode: 500, At: tJobs}, {Attempt: 1, Try: 2, StatusCode: 500, At: tJobs},
		}})
	if errs.KindOf(err) != errs.KindInternal {
		t.Fatalf("FinishAttempt against the trigger = %v, want internal", err)
	}
	wantUntouched(t, db, key.AccountID, d.ID, "a failed FinishAttempt")
}

// TestFinishJobIgnoresCancel checks that a worker being stopped still
// books its job's outcome and refund.
func TestFinishJobIgnoresCancel(t *testing.T) {
	t.Parallel()
	db, key := openAccountDB(t)
	j, err := db.CreateJob(t.Context(), newJob(key, "job_1"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	got, err := db.FinishJob(ctx, store.JobOutcome{JobID: j.ID, Status: store.JobFailed, Error: "stopped", Refund: 10, Now: tJobs})
	if err != nil || got.Status != store.JobFailed || got.Refunded != 10 {
		t.Fatalf("FinishJob with a cancelled ctx = %+v, %v", got, err)
	}
	if bal, err := db.Balance(t.Context(), key.AccountID); err != nil || bal != 110 {
		t.Errorf("Balance = %d, %v; want 110", bal, err)
	}
}

// TestJobsMigrationDown checks that migration 00003 rolls back and
// applies again.
func TestJobsMigrationDown(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	pool, err := openPool(filepath.Join(t.TempDir(), "webinfra.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	p, err := migrator(pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pool.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema
		WHERE name IN ('jobs', 'webhook_deliveries', 'delivery_tries')`).Scan(&n); err != nil || n != 0 {
		t.Errorf("tables left after Down: %d, %v", n, err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
}

// wantUntouched checks that a delivery is still pending, with no attempt
// counted and no try logged, after what.
func wantUntouched(t *testing.T, db *DB, accountID int64, id int64, what string) {
	t.Helper()
	ctx := t.Context()
	if got, err := db.DeliveryByID(ctx, id); err != nil || got.Status != store.DeliveryPending || got.Attempts != 0 {
		t.Errorf("delivery after %s = %+v, %v; want it untouched", what, got, err)
	}
	if log, err := db.DeliveryTries(ctx, accountID, id); err != nil || len(log) != 0 {
		t.Errorf("log after %s = %+v, %v; want empty", what, log, err)
	}
}
