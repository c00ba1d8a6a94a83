package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// unfinishedWhere selects non-final jobs. It is the WHERE clause of the
// partial index jobs_unfinished, which SQLite uses only when a query
// repeats it.
const unfinishedWhere = `status IN ('queued', 'running')`

// The listings, each served by one index without a sort (jobs_test.go
// checks their query plans).
const (
	listJobsSQL = `SELECT ` + sqlrow.JobColumns + ` FROM jobs WHERE account_id = ?
		ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`
	unfinishedJobsSQL = `SELECT ` + sqlrow.JobColumns + ` FROM jobs WHERE ` + unfinishedWhere + `
		ORDER BY created_at, rowid LIMIT ?`
)

// The statements run for every job, prepared in Open (stmts.go).
const (
	getJobSQL    = `SELECT ` + sqlrow.JobColumns + ` FROM jobs WHERE id = ?`
	jobByIDSQL   = `SELECT ` + sqlrow.JobColumns + ` FROM jobs WHERE id = ? AND account_id = ?`
	insertJobSQL = `INSERT INTO jobs (id, account_id, key_id, payer_account_id, kind, input, status, webhook_url, credits, created_at)
		VALUES (?, ?, ?, nullif(?, 0), ?, ?, ?, ?, ?, ?) RETURNING ` + sqlrow.JobColumns
	startJobSQL = `UPDATE jobs SET status = ?, attempts = attempts + 1, started_at = coalesce(started_at, ?)
		WHERE id = ? AND ` + unfinishedWhere + ` RETURNING ` + sqlrow.JobColumns
	finishJobSQL = `UPDATE jobs
		SET status = ?, result = ?, error = ?, refunded = refunded + ?, delivery_id = ?, finished_at = ?,
			input = CASE WHEN json_valid(CAST(input AS TEXT))
				THEN CAST(json_remove(CAST(input AS TEXT), '$.` + store.SecretsField + `') AS BLOB) ELSE input END
		WHERE id = ? RETURNING ` + sqlrow.JobColumns
)

// recoveryLimit turns the limit of a recovery listing (UnfinishedJobs,
// PendingDeliveries) into an SQL LIMIT: a positive
// limit is used as given, without the page cap of the listings users
// see, and 0 or less means no limit (-1), so a restart never leaves work
// behind for want of a number.
func recoveryLimit(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

// scanOneJob scans a single-row job result, mapping no row to not found.
func scanOneJob(row *sql.Row, jobID, op string) (store.Job, error) {
	return scanOne(row, sqlrow.ScanJob, op, func() error { return errs.NotFound("job %q not found", jobID) })
}

// CreateJob stores a queued job from j's ID, AccountID, KeyID, PayerID, Kind, Input,
// WebhookURL, Credits and CreatedAt; its other fields start empty (status
// queued, no attempts, nothing refunded, no delivery). A taken id is
// errs.KindConflict, an unknown account errs.KindNotFound.
func (db *DB) CreateJob(ctx context.Context, j store.Job) (store.Job, error) {
	if err := sqlrow.ValidNewJob(j); err != nil {
		return store.Job{}, err
	}
	var out store.Job
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.StmtContext(ctx, db.ws.insertJob).QueryRowContext(ctx,
			j.ID, j.AccountID, j.KeyID, j.PayerID, j.Kind, []byte(j.Input), string(store.JobQueued), j.WebhookURL, j.Credits,
			sqlrow.ToMS(j.CreatedAt))
		var err error
		out, err = sqlrow.ScanJob(row)
		switch {
		case isUnique(err):
			return errs.New(errs.KindConflict, "a job with id %q already exists", j.ID)
		case isForeignKey(err):
			return errs.NotFound("account %d not found", j.AccountID)
		case err != nil:
			return internal(err, "create job")
		}
		return nil
	})
	if err != nil {
		return store.Job{}, err
	}
	return out, nil
}

// JobByID finds one of the account's jobs; another account's is not found.
// Like KeyByHash it does not watch ctx (one index lookup).
func (db *DB) JobByID(ctx context.Context, accountID int64, jobID string) (store.Job, error) {
	row := db.rs.jobByID.QueryRowContext(context.WithoutCancel(ctx), jobID, accountID)
	return scanOneJob(row, jobID, "job by id")
}

// GetJob finds a job whatever its account. It does not watch ctx.
func (db *DB) GetJob(ctx context.Context, jobID string) (store.Job, error) {
	row := db.rs.getJob.QueryRowContext(context.WithoutCancel(ctx), jobID)
	return scanOneJob(row, jobID, "get job")
}

// ListJobs pages the account's jobs, newest first (jobs created in the
// same millisecond: the later stored first). A limit of 0 or less means
// 100; pages stop at 1,000 jobs.
func (db *DB) ListJobs(ctx context.Context, accountID int64, limit, offset int) ([]store.Job, error) {
	limit, offset = sqlrow.PageBounds(limit, offset)
	return queryAll(ctx, db.r, "list jobs", sqlrow.ScanJob, listJobsSQL, accountID, limit, offset)
}

// StartJob moves a queued or running job to running, counts an attempt
// and sets StartedAt on the first. A final job is errs.KindConflict and is
// returned unchanged with the error; an unknown one is errs.KindNotFound.
func (db *DB) StartJob(ctx context.Context, jobID string, now time.Time) (store.Job, error) {
	var out store.Job
	final := false
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.StmtContext(ctx, db.ws.startJob).QueryRowContext(ctx, string(store.JobRunning), sqlrow.ToMS(now), jobID)
		j, err := sqlrow.ScanJob(row)
		if err == nil {
			out = j
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return internal(err, "start job")
		}
		// Not started: either unknown or final.
		j, err = scanOneJob(tx.StmtContext(ctx, db.ws.selectJob).QueryRowContext(ctx, jobID), jobID, "start job")
		if err != nil {
			return err
		}
		out, final = j, true
		return errs.New(errs.KindConflict, "job %q is %s and cannot be started", jobID, j.Status)
	})
	if err != nil && !final {
		return store.Job{}, err
	}
	return out, err
}

// FinishJob moves a non-final job to o.Status, storing o.Result and
// o.Error; refunds min(o.Refund, Credits) credits to the job's payer
// with a ledger row (reason "refund", request id the job id, endpoint
// "job:" + kind, the job's key); and, when o.Delivery is set, stores it as
// a pending delivery (as CreateDelivery would) whose id becomes the job's
// DeliveryID. All of it is one write transaction of at most five
// statements, so a job is refunded and handed to delivery at most once,
// and never finishes without its delivery. A refund of 0 writes no ledger
// row.
//
// A final job is errs.KindConflict, changes nothing (no refund, no
// delivery) and is returned unchanged with the error; an unknown one is
// errs.KindNotFound. o.Status other than completed or failed, a negative
// refund or a result that is not JSON is errs.KindInvalid, and so is a
// delivery without an event id or URL, or one naming another account or
// job than the job's (a zero AccountID or empty JobID is the job's; a zero
// CreatedAt is o.Now).
//
// Like Settle, FinishJob ignores ctx's cancellation: the job's work is done
// and its outcome, refund and webhook must be booked even when the worker
// is being stopped.
//
// The refund raises the balance and touches no hold, so it needs no
// ordering against Reserve (which reads the balance under db.mu): a
// Reserve that reads the balance before the commit just sees fewer
// credits, never a charge missing or counted twice.
func (db *DB) FinishJob(ctx context.Context, o store.JobOutcome) (store.Job, error) {
	ctx = context.WithoutCancel(ctx)
	if err := sqlrow.ValidOutcome(o); err != nil {
		return store.Job{}, err
	}
	var out store.Job
	final := false
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.StmtContext(ctx, db.ws.selectJob).QueryRowContext(ctx, o.JobID)
		j, err := scanOneJob(row, o.JobID, "finish job")
		if err != nil {
			return err
		}
		if j.Status.Final() {
			out, final = j, true
			return errs.New(errs.KindConflict, "job %q is already %s", o.JobID, j.Status)
		}
		var deliveryID int64
		if o.Delivery != nil {
			d, err := sqlrow.JobDelivery(j, *o.Delivery, o.Now)
			if err != nil {
				return err
			}
			if d, err = db.insertDelivery(ctx, tx, d, "finish job: delivery"); err != nil {
				return err
			}
			deliveryID = d.ID
		}
		refund := max(min(o.Refund, j.Credits-j.Refunded), 0)
		if refund > 0 {
			if _, err := db.book(ctx, tx, ledgerRow{
				accountID: j.Payer(), delta: refund, reason: reasonRefund,
				endpoint: "job:" + j.Kind, requestID: j.ID, keyID: j.KeyID, now: o.Now,
			}); err != nil {
				return err
			}
		}
		for _, f := range o.Files {
			if _, err := tx.ExecContext(ctx, sqlrow.SQLiteParams(sqlrow.InsertJobFileSQL), j.ID, f.Name, f.ContentType, f.Data); err != nil {
				return internal(err, "finish job: file")
			}
		}
		row = tx.StmtContext(ctx, db.ws.finishJob).QueryRowContext(ctx,
			string(o.Status), sqlrow.NullJSON(o.Result), o.Error, refund, deliveryID, sqlrow.ToMS(o.Now), o.JobID)
		out, err = scanOneJob(row, o.JobID, "finish job")
		return err
	})
	if err != nil && !final {
		return store.Job{}, err
	}
	return out, err
}

// UnfinishedJobs lists queued and running jobs of every account, oldest
// first (by CreatedAt, then the order they were stored); at most limit of
// them, or all when limit is 0 or less.
func (db *DB) UnfinishedJobs(ctx context.Context, limit int) ([]store.Job, error) {
	return queryAll(ctx, db.r, "unfinished jobs", sqlrow.ScanJob, unfinishedJobsSQL, recoveryLimit(limit))
}

// JobFile returns a file of one of the account's jobs.
func (db *DB) JobFile(ctx context.Context, accountID int64, jobID, name string) (store.JobFile, error) {
	f := store.JobFile{Name: name}
	err := db.r.QueryRowContext(ctx, sqlrow.SQLiteParams(sqlrow.JobFileSQL), accountID, jobID, name).Scan(&f.ContentType, &f.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return store.JobFile{}, errs.NotFound("job %q has no file %q", jobID, name)
	}
	if err != nil {
		return store.JobFile{}, internal(err, "job file")
	}
	return f, nil
}
