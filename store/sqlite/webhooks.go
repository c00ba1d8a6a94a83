package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

const deliveryColumns = `id, account_id, event_id, job_id, url, payload, status, attempts,
last_status_code, last_error, created_at, updated_at`

// The listings, each served by one index without a sort (jobs_test.go
// checks their query plans). Statuses are spelled literally so that the
// partial indexes webhook_deliveries_dead and webhook_deliveries_pending
// apply.
const (
	listDeliveriesSQL = `SELECT ` + deliveryColumns + ` FROM webhook_deliveries WHERE account_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`
	listDeadDeliveriesSQL = `SELECT ` + deliveryColumns + ` FROM webhook_deliveries WHERE account_id = ? AND status = 'dead'
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`
	pendingDeliveriesSQL = `SELECT ` + deliveryColumns + ` FROM webhook_deliveries WHERE status = 'pending'
		ORDER BY created_at, id LIMIT ?`
	deliveryTriesSQL = `SELECT delivery_id, attempt, try, status_code, error, latency_ms, at
		FROM delivery_tries WHERE delivery_id = ? ORDER BY at, id`
)

func scanDelivery(row scanner) (store.WebhookDelivery, error) {
	var d store.WebhookDelivery
	var status string
	var created, updated int64
	err := row.Scan(&d.ID, &d.AccountID, &d.EventID, &d.JobID, &d.URL, &d.Payload, &status, &d.Attempts,
		&d.LastStatusCode, &d.LastError, &created, &updated)
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	d.Status = store.DeliveryStatus(status)
	d.CreatedAt = fromMS(created)
	d.UpdatedAt = fromMS(updated)
	return d, nil
}

// scanOneDelivery scans a single-row delivery result, mapping no row to
// not found.
func scanOneDelivery(row *sql.Row, deliveryID int64, op string) (store.WebhookDelivery, error) {
	d, err := scanDelivery(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.WebhookDelivery{}, errs.NotFound("webhook delivery %d not found", deliveryID)
	}
	if err != nil {
		return store.WebhookDelivery{}, internal(err, op)
	}
	return d, nil
}

func scanTry(row scanner) (store.DeliveryTry, error) {
	var t store.DeliveryTry
	var at int64
	if err := row.Scan(&t.DeliveryID, &t.Attempt, &t.Try, &t.StatusCode, &t.Error, &t.LatencyMS, &at); err != nil {
		return store.DeliveryTry{}, err
	}
	t.At = fromMS(at)
	return t, nil
}

func validDeliveryStatus(s store.DeliveryStatus) bool {
	return s == store.DeliveryPending || s == store.DeliveryDelivered || s == store.DeliveryDead
}

// CreateDelivery stores a pending delivery of d's AccountID, EventID,
// JobID, URL, Payload and CreatedAt (also its UpdatedAt), with no attempts;
// d's ID, Status, Attempts, UpdatedAt and last answer are ignored. An
// unknown account is errs.KindNotFound; an empty event id or URL
// errs.KindInvalid.
func (db *DB) CreateDelivery(ctx context.Context, d store.WebhookDelivery) (store.WebhookDelivery, error) {
	switch {
	case d.EventID == "":
		return store.WebhookDelivery{}, errs.New(errs.KindInvalid, "sqlite: create delivery: empty event id")
	case d.URL == "":
		return store.WebhookDelivery{}, errs.New(errs.KindInvalid, "sqlite: create delivery: empty URL")
	}
	payload := d.Payload
	if payload == nil {
		payload = []byte{}
	}
	var out store.WebhookDelivery
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
			INSERT INTO webhook_deliveries (account_id, event_id, job_id, url, payload, status, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+deliveryColumns,
			d.AccountID, d.EventID, d.JobID, d.URL, payload, string(store.DeliveryPending),
			toMS(d.CreatedAt), toMS(d.CreatedAt))
		var err error
		out, err = scanDelivery(row)
		switch {
		case isForeignKey(err):
			return errs.NotFound("account %d not found", d.AccountID)
		case err != nil:
			return internal(err, "create delivery")
		}
		return nil
	})
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	return out, nil
}

// RecordTry appends one try to the delivery log. An unknown delivery is
// errs.KindNotFound; an attempt or try number below 1 errs.KindInvalid.
// The log is append-only: recording the same attempt and try again (a
// worker that crashed mid-attempt and started it over) adds a row.
func (db *DB) RecordTry(ctx context.Context, t store.DeliveryTry) error {
	if t.Attempt < 1 || t.Try < 1 {
		return errs.New(errs.KindInvalid, "sqlite: record try: attempt %d, try %d: both are 1-based", t.Attempt, t.Try)
	}
	return db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
			INSERT INTO delivery_tries (delivery_id, attempt, try, status_code, error, latency_ms, at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
			t.DeliveryID, t.Attempt, t.Try, t.StatusCode, t.Error, t.LatencyMS, toMS(t.At))
		switch {
		case isForeignKey(err):
			return errs.NotFound("webhook delivery %d not found", t.DeliveryID)
		case err != nil:
			return internal(err, "record try")
		}
		return nil
	})
}

// FinishAttempt records the end of an attempt: the status, the attempt
// count, the last answer and now as UpdatedAt. Any status may follow any
// other (a dead delivery may be sent again). An unknown delivery is
// errs.KindNotFound; an unknown status or a negative count
// errs.KindInvalid.
func (db *DB) FinishAttempt(ctx context.Context, deliveryID int64, status store.DeliveryStatus, attempts, lastStatusCode int, lastError string, now time.Time) (store.WebhookDelivery, error) {
	switch {
	case !validDeliveryStatus(status):
		return store.WebhookDelivery{}, errs.New(errs.KindInvalid, "sqlite: finish attempt: unknown status %q", status)
	case attempts < 0:
		return store.WebhookDelivery{}, errs.New(errs.KindInvalid, "sqlite: finish attempt: negative attempts %d", attempts)
	}
	var out store.WebhookDelivery
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
			UPDATE webhook_deliveries
			SET status = ?, attempts = ?, last_status_code = ?, last_error = ?, updated_at = ?
			WHERE id = ? RETURNING `+deliveryColumns,
			string(status), attempts, lastStatusCode, lastError, toMS(now), deliveryID)
		var err error
		out, err = scanOneDelivery(row, deliveryID, "finish attempt")
		return err
	})
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	return out, nil
}

// Delivery finds one of the account's deliveries; another account's is
// not found.
func (db *DB) Delivery(ctx context.Context, accountID, deliveryID int64) (store.WebhookDelivery, error) {
	row := db.r.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id = ? AND account_id = ?`,
		deliveryID, accountID)
	return scanOneDelivery(row, deliveryID, "delivery")
}

// DeliveryByID finds a delivery whatever its account.
func (db *DB) DeliveryByID(ctx context.Context, deliveryID int64) (store.WebhookDelivery, error) {
	row := db.r.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id = ?`, deliveryID)
	return scanOneDelivery(row, deliveryID, "delivery by id")
}

// ListDeliveries pages the account's deliveries, or only its dead ones,
// newest first (deliveries created in the same millisecond: the later
// stored first). A limit of 0 or less means 100; pages stop at 1,000.
func (db *DB) ListDeliveries(ctx context.Context, q store.DeliveryQuery) ([]store.WebhookDelivery, error) {
	limit, offset := pageBounds(q.Limit, q.Offset)
	query := listDeliveriesSQL
	if q.DeadOnly {
		query = listDeadDeliveriesSQL
	}
	return queryAll(ctx, db, "list deliveries", scanDelivery, query, q.AccountID, limit, offset)
}

// PendingDeliveries lists pending deliveries of every account, oldest
// first (by CreatedAt, then id); at most limit of them, or all when limit
// is 0 or less.
func (db *DB) PendingDeliveries(ctx context.Context, limit int) ([]store.WebhookDelivery, error) {
	return queryAll(ctx, db, "pending deliveries", scanDelivery, pendingDeliveriesSQL, recoveryLimit(limit))
}

// DeliveryTries returns the log of one of the account's deliveries, oldest
// first (tries at the same millisecond in the order they were recorded).
// Another account's delivery is not found; a delivery without tries has an
// empty log.
func (db *DB) DeliveryTries(ctx context.Context, accountID, deliveryID int64) ([]store.DeliveryTry, error) {
	var one int
	err := db.r.QueryRowContext(ctx, `SELECT 1 FROM webhook_deliveries WHERE id = ? AND account_id = ?`,
		deliveryID, accountID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.NotFound("webhook delivery %d not found", deliveryID)
	}
	if err != nil {
		return nil, internal(err, "delivery tries")
	}
	// Deliveries are never deleted, so the log read below is of the
	// delivery just found.
	return queryAll(ctx, db, "delivery tries", scanTry, deliveryTriesSQL, deliveryID)
}
