package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var tJobs = time.Date(2026, time.March, 10, 12, 0, 0, 0, time.UTC)

// openJobsDB opens a fresh database with one account of 100 credits and
// its key.
func openJobsDB(t *testing.T) (*DB, store.Key) {
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
	db, _ := openJobsDB(t)
	for _, tc := range []struct{ query, index string }{
		{listJobsSQL, "jobs_account_time"},
		{unfinishedJobsSQL, "jobs_unfinished"},
		{awaitingWebhookSQL, "jobs_awaiting_webhook"},
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
	db, key := openJobsDB(t)
	ctx := t.Context()
	const n = maxPage + 5
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for i := range n {
			j := newJob(key, fmt.Sprintf("job_%05d", i))
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO jobs (id, account_id, key_id, kind, input, status, webhook_url, created_at)
				VALUES (?, ?, ?, ?, ?, 'queued', '', ?)`, j.ID, j.AccountID, j.KeyID, j.Kind, []byte(j.Input), toMS(j.CreatedAt)); err != nil {
				return err
			}
			d := store.WebhookDelivery{AccountID: key.AccountID, EventID: j.ID, URL: "https://hooks.example.com/", CreatedAt: tJobs}
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO webhook_deliveries (account_id, event_id, url, payload, status, created_at, updated_at)
				VALUES (?, ?, ?, x'', 'pending', ?, ?)`, d.AccountID, d.EventID, d.URL, toMS(d.CreatedAt), toMS(d.CreatedAt)); err != nil {
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
	db, key := openJobsDB(t)
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
	if err := db.SetJobWebhook(ctx, j.ID, json.RawMessage(`{`)); errs.KindOf(err) != errs.KindInvalid {
		t.Errorf("SetJobWebhook(not JSON) = %v, want invalid", err)
	}
	if got, err := db.GetJob(ctx, j.ID); err != nil || got.Status != store.JobQueued || got.Webhook != nil {
		t.Errorf("job after refused changes = %+v, %v", got, err)
	}

	d := store.WebhookDelivery{AccountID: key.AccountID, EventID: j.ID, JobID: j.ID, URL: "https://hooks.example.com/", CreatedAt: tJobs}
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
	for _, try := range []store.DeliveryTry{{DeliveryID: d.ID, Attempt: 0, Try: 1}, {DeliveryID: d.ID, Attempt: 1, Try: 0}} {
		if err := db.RecordTry(ctx, try); errs.KindOf(err) != errs.KindInvalid {
			t.Errorf("RecordTry(%+v) = %v, want invalid", try, err)
		}
	}
	if _, err := db.FinishAttempt(ctx, d.ID, "lost", 1, 0, "", tJobs); errs.KindOf(err) != errs.KindInvalid {
		t.Errorf("FinishAttempt(unknown status) = %v, want invalid", err)
	}
	if _, err := db.FinishAttempt(ctx, d.ID, store.DeliveryDead, -1, 0, "", tJobs); errs.KindOf(err) != errs.KindInvalid {
		t.Errorf("FinishAttempt(negative attempts) = %v, want invalid", err)
	}
}

// TestFinishJobIgnoresCancel checks that a worker being stopped still
// books its job's outcome and refund.
func TestFinishJobIgnoresCancel(t *testing.T) {
	t.Parallel()
	db, key := openJobsDB(t)
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
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, pool, fsys, goose.WithDisableGlobalRegistry(true))
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
