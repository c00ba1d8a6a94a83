package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// The listings, each served by one index without a sort (jobs_test.go
// checks their query plans). Statuses are spelled literally so that the
// partial indexes webhook_deliveries_dead and webhook_deliveries_pending
// apply.
const (
	listDeliveriesSQL = `SELECT ` + sqlrow.DeliveryColumns + ` FROM webhook_deliveries WHERE account_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`
	listDeadDeliveriesSQL = `SELECT ` + sqlrow.DeliveryColumns + ` FROM webhook_deliveries WHERE account_id = ? AND status = 'dead'
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`
	pendingDeliveriesSQL = `SELECT ` + sqlrow.DeliveryColumns + ` FROM webhook_deliveries WHERE status = 'pending'
		ORDER BY created_at, id LIMIT ?`
	deliveryTriesSQL = `SELECT delivery_id, attempt, try, status_code, error, latency_ms, at
		FROM delivery_tries WHERE delivery_id = ? ORDER BY at, id`
)

// The statements run for every delivery, prepared in Open (stmts.go).
const (
	deliveryByIDSQL   = `SELECT ` + sqlrow.DeliveryColumns + ` FROM webhook_deliveries WHERE id = ?`
	insertDeliverySQL = `INSERT INTO webhook_deliveries
		(account_id, event_id, job_id, url, payload, status, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ` + sqlrow.DeliveryColumns
	finishAttemptSQL = `UPDATE webhook_deliveries
		SET status = ?, attempts = ?, last_status_code = ?, last_error = ?, updated_at = ?
		WHERE id = ? RETURNING ` + sqlrow.DeliveryColumns
	insertTrySQL = `INSERT INTO delivery_tries (delivery_id, attempt, try, status_code, error, latency_ms, at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`
)

// scanOneDelivery scans a single-row delivery result, mapping no row to
// not found.
func scanOneDelivery(row *sql.Row, deliveryID int64, op string) (store.WebhookDelivery, error) {
	return scanOne(row, sqlrow.ScanDelivery, op, func() error { return errs.NotFound("webhook delivery %d not found", deliveryID) })
}

// CreateDelivery stores a pending delivery of d's AccountID, EventID,
// JobID, URL, Payload and CreatedAt (also its UpdatedAt), with no attempts;
// d's ID, Status, Attempts, UpdatedAt and last answer are ignored. An
// unknown account is errs.KindNotFound; an empty event id or URL
// errs.KindInvalid.
func (db *DB) CreateDelivery(ctx context.Context, d store.WebhookDelivery) (store.WebhookDelivery, error) {
	if err := sqlrow.ValidNewDelivery(d, "create delivery"); err != nil {
		return store.WebhookDelivery{}, err
	}
	var out store.WebhookDelivery
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		out, err = db.insertDelivery(ctx, tx, d, "create delivery")
		return err
	})
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	return out, nil
}

// insertDelivery stores d as CreateDelivery describes, inside tx (a nil
// payload is stored empty).
func (db *DB) insertDelivery(ctx context.Context, tx *sql.Tx, d store.WebhookDelivery, op string) (store.WebhookDelivery, error) {
	payload := d.Payload
	if payload == nil {
		payload = []byte{}
	}
	row := tx.StmtContext(ctx, db.ws.insertDelivery).QueryRowContext(ctx,
		d.AccountID, d.EventID, d.JobID, d.URL, payload, string(store.DeliveryPending),
		sqlrow.ToMS(d.CreatedAt), sqlrow.ToMS(d.CreatedAt))
	out, err := sqlrow.ScanDelivery(row)
	switch {
	case isForeignKey(err):
		return store.WebhookDelivery{}, errs.NotFound("account %d not found", d.AccountID)
	case err != nil:
		return store.WebhookDelivery{}, internal(err, op)
	}
	return out, nil
}

// FinishAttempt records the end of an attempt (a.Status, a.Attempts, the
// last answer and a.Now as UpdatedAt) and appends a.Tries to the log in
// their order, in one write transaction: the log never shows tries of an
// attempt that was not recorded, nor the reverse. Any status may follow
// any other (a dead delivery may be sent again). The log is append-only:
// recording the same attempt and try numbers again (a worker that crashed
// mid-attempt and started it over) adds rows.
//
// An unknown delivery is errs.KindNotFound. An unknown status, a negative
// attempt count, a try whose attempt or try number is below 1, or whose
// DeliveryID is neither 0 nor a.DeliveryID (0 is taken as a.DeliveryID),
// is errs.KindInvalid; nothing is written then.
func (db *DB) FinishAttempt(ctx context.Context, a store.AttemptRecord) (store.WebhookDelivery, error) {
	if err := sqlrow.ValidAttempt(a); err != nil {
		return store.WebhookDelivery{}, err
	}
	var out store.WebhookDelivery
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.StmtContext(ctx, db.ws.finishAttempt).QueryRowContext(ctx,
			string(a.Status), a.Attempts, a.LastStatusCode, a.LastError, sqlrow.ToMS(a.Now), a.DeliveryID)
		var err error
		if out, err = scanOneDelivery(row, a.DeliveryID, "finish attempt"); err != nil {
			return err
		}
		if len(a.Tries) == 0 {
			return nil
		}
		insert := tx.StmtContext(ctx, db.ws.insertTry)
		for _, t := range a.Tries {
			if _, err := insert.ExecContext(ctx,
				a.DeliveryID, t.Attempt, t.Try, t.StatusCode, t.Error, t.LatencyMS, sqlrow.ToMS(t.At)); err != nil {
				return internal(err, "finish attempt: try")
			}
		}
		return nil
	})
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	return out, nil
}

// Delivery finds one of the account's deliveries; another account's is
// not found.
func (db *DB) Delivery(ctx context.Context, accountID, deliveryID int64) (store.WebhookDelivery, error) {
	row := db.r.QueryRowContext(ctx, `SELECT `+sqlrow.DeliveryColumns+` FROM webhook_deliveries WHERE id = ? AND account_id = ?`,
		deliveryID, accountID)
	return scanOneDelivery(row, deliveryID, "delivery")
}

// DeliveryByID finds a delivery whatever its account. It does not watch
// ctx (one index lookup).
func (db *DB) DeliveryByID(ctx context.Context, deliveryID int64) (store.WebhookDelivery, error) {
	row := db.rs.deliveryByID.QueryRowContext(context.WithoutCancel(ctx), deliveryID)
	return scanOneDelivery(row, deliveryID, "delivery by id")
}

// ListDeliveries pages the account's deliveries, or only its dead ones,
// newest first (deliveries created in the same millisecond: the later
// stored first). A limit of 0 or less means 100; pages stop at 1,000.
func (db *DB) ListDeliveries(ctx context.Context, q store.DeliveryQuery) ([]store.WebhookDelivery, error) {
	limit, offset := sqlrow.PageBounds(q.Limit, q.Offset)
	query := listDeliveriesSQL
	if q.DeadOnly {
		query = listDeadDeliveriesSQL
	}
	return queryAll(ctx, db.r, "list deliveries", sqlrow.ScanDelivery, query, q.AccountID, limit, offset)
}

// PendingDeliveries lists pending deliveries of every account, oldest
// first (by CreatedAt, then id); at most limit of them, or all when limit
// is 0 or less.
func (db *DB) PendingDeliveries(ctx context.Context, limit int) ([]store.WebhookDelivery, error) {
	return queryAll(ctx, db.r, "pending deliveries", sqlrow.ScanDelivery, pendingDeliveriesSQL, recoveryLimit(limit))
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
	return queryAll(ctx, db.r, "delivery tries", sqlrow.ScanTry, deliveryTriesSQL, deliveryID)
}
