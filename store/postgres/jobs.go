package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

const unfinishedWhere = `status IN ('queued', 'running')`

// recoveryLimit is the LIMIT of a recovery listing: NULL (no limit) for
// 0 or less.
func recoveryLimit(limit int) *int {
	if limit <= 0 {
		return nil
	}
	return &limit
}

func jobNotFound(id string) func() error {
	return func() error { return errs.NotFound("job %q not found", id) }
}

// CreateJob stores a queued job (see store.Jobs).
func (db *DB) CreateJob(ctx context.Context, j store.Job) (store.Job, error) {
	if err := sqlrow.ValidNewJob(j); err != nil {
		return store.Job{}, err
	}
	row := db.pool.QueryRow(ctx, `INSERT INTO jobs (id, account_id, key_id, payer_account_id, kind, input, status, webhook_url, credits, created_at)
		VALUES ($1, $2, $3, nullif($4::bigint, 0), $5, $6, $7, $8, $9, $10) RETURNING `+sqlrow.JobColumns,
		j.ID, j.AccountID, j.KeyID, j.PayerID, j.Kind, []byte(j.Input), string(store.JobQueued), j.WebhookURL, j.Credits, sqlrow.ToMS(j.CreatedAt))
	out, err := sqlrow.ScanJob(row)
	switch {
	case isUnique(err):
		return store.Job{}, errs.New(errs.KindConflict, "a job with id %q already exists", j.ID)
	case isForeignKey(err):
		return store.Job{}, errs.NotFound("account %d not found", j.AccountID)
	case err != nil:
		return store.Job{}, internal(err, "create job")
	}
	return out, nil
}

// JobByID finds one of the account's jobs; another account's is not found.
func (db *DB) JobByID(ctx context.Context, accountID int64, jobID string) (store.Job, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.JobColumns+` FROM jobs WHERE id = $1 AND account_id = $2`, jobID, accountID)
	return scanOne(row, sqlrow.ScanJob, "job by id", jobNotFound(jobID))
}

// GetJob finds a job whatever its account.
func (db *DB) GetJob(ctx context.Context, jobID string) (store.Job, error) {
	return getJob(ctx, db.pool, jobID, "")
}

func getJob(ctx context.Context, q querier, jobID, lock string) (store.Job, error) {
	row := q.QueryRow(ctx, `SELECT `+sqlrow.JobColumns+` FROM jobs WHERE id = $1 `+lock, jobID)
	return scanOne(row, sqlrow.ScanJob, "get job", jobNotFound(jobID))
}

// ListJobs pages the account's jobs, newest first (the later stored first
// within a millisecond).
func (db *DB) ListJobs(ctx context.Context, accountID int64, limit, offset int) ([]store.Job, error) {
	limit, offset = sqlrow.PageBounds(limit, offset)
	return queryAll(ctx, db.pool, "list jobs", sqlrow.ScanJob, `SELECT `+sqlrow.JobColumns+` FROM jobs WHERE account_id = $1
		ORDER BY created_at DESC, seq DESC LIMIT $2 OFFSET $3`, accountID, limit, offset)
}

// StartJob moves a queued or running job to running and counts an attempt.
func (db *DB) StartJob(ctx context.Context, jobID string, now time.Time) (store.Job, error) {
	row := db.pool.QueryRow(ctx, `UPDATE jobs SET status = $1, attempts = attempts + 1, started_at = coalesce(started_at, $2)
		WHERE id = $3 AND `+unfinishedWhere+` RETURNING `+sqlrow.JobColumns, string(store.JobRunning), sqlrow.ToMS(now), jobID)
	j, err := sqlrow.ScanJob(row)
	if err == nil {
		return j, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return store.Job{}, internal(err, "start job")
	}
	if j, err = db.GetJob(ctx, jobID); err != nil {
		return store.Job{}, err
	}
	return j, errs.New(errs.KindConflict, "job %q is %s and cannot be started", jobID, j.Status)
}

// FinishJob moves a non-final job to o.Status with its result, refund and
// delivery in one transaction (the job's row locked), and deletes the
// input's secrets (store.SecretsField); see store.Jobs.
func (db *DB) FinishJob(ctx context.Context, o store.JobOutcome) (store.Job, error) {
	ctx = context.WithoutCancel(ctx)
	if err := sqlrow.ValidOutcome(o); err != nil {
		return store.Job{}, err
	}
	var out store.Job
	final := false
	err := db.tx(ctx, func(tx pgx.Tx) error {
		j, err := getJob(ctx, tx, o.JobID, "FOR UPDATE")
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
			if d, err = insertDelivery(ctx, tx, d, "finish job: delivery"); err != nil {
				return err
			}
			deliveryID = d.ID
		}
		refund := max(min(o.Refund, j.Credits-j.Refunded), 0)
		if refund > 0 {
			if _, err := book(ctx, tx, ledgerRow{accountID: j.Payer(), delta: refund, reason: reasonRefund,
				endpoint: "job:" + j.Kind, requestID: j.ID, keyID: j.KeyID, now: o.Now}); err != nil {
				return err
			}
		}
		for _, f := range o.Files {
			if _, err := tx.Exec(ctx, sqlrow.InsertJobFileSQL, j.ID, f.Name, f.ContentType, f.Data); err != nil {
				return internal(err, "finish job: file")
			}
		}
		row := tx.QueryRow(ctx, `UPDATE jobs
			SET status = $1, result = $2, error = $3, refunded = refunded + $4, delivery_id = $5, finished_at = $6,
				input = CASE WHEN jsonb_typeof(convert_from(input, 'UTF8')::jsonb) = 'object'
					THEN convert_to((convert_from(input, 'UTF8')::jsonb - '`+store.SecretsField+`')::text, 'UTF8') ELSE input END
			WHERE id = $7 RETURNING `+sqlrow.JobColumns,
			string(o.Status), sqlrow.NullJSON(o.Result), o.Error, refund, deliveryID, sqlrow.ToMS(o.Now), o.JobID)
		out, err = scanOne(row, sqlrow.ScanJob, "finish job", jobNotFound(o.JobID))
		return err
	})
	if err != nil && !final {
		return store.Job{}, err
	}
	return out, err
}

// UnfinishedJobs lists queued and running jobs of every account, oldest
// first; at most limit of them, or all when limit is 0 or less.
func (db *DB) UnfinishedJobs(ctx context.Context, limit int) ([]store.Job, error) {
	return queryAll(ctx, db.pool, "unfinished jobs", sqlrow.ScanJob, `SELECT `+sqlrow.JobColumns+` FROM jobs
		WHERE `+unfinishedWhere+` ORDER BY created_at, seq LIMIT $1`, recoveryLimit(limit))
}

// JobFile returns a file of one of the account's jobs.
func (db *DB) JobFile(ctx context.Context, accountID int64, jobID, name string) (store.JobFile, error) {
	f := store.JobFile{Name: name}
	err := db.pool.QueryRow(ctx, sqlrow.JobFileSQL, accountID, jobID, name).Scan(&f.ContentType, &f.Data)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.JobFile{}, errs.NotFound("job %q has no file %q", jobID, name)
	}
	if err != nil {
		return store.JobFile{}, internal(err, "job file")
	}
	return f, nil
}
