package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

func deliveryNotFound(id int64) func() error {
	return func() error { return errs.NotFound("webhook delivery %d not found", id) }
}

// CreateDelivery stores a pending delivery (see store.Webhooks).
func (db *DB) CreateDelivery(ctx context.Context, d store.WebhookDelivery) (store.WebhookDelivery, error) {
	if err := sqlrow.ValidNewDelivery(d, "create delivery"); err != nil {
		return store.WebhookDelivery{}, err
	}
	return insertDelivery(ctx, db.pool, d, "create delivery")
}

func insertDelivery(ctx context.Context, q querier, d store.WebhookDelivery, op string) (store.WebhookDelivery, error) {
	payload := d.Payload
	if payload == nil {
		payload = []byte{}
	}
	row := q.QueryRow(ctx, `INSERT INTO webhook_deliveries (account_id, event_id, job_id, url, payload, status, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING `+sqlrow.DeliveryColumns,
		d.AccountID, d.EventID, d.JobID, d.URL, payload, string(store.DeliveryPending), sqlrow.ToMS(d.CreatedAt))
	out, err := sqlrow.ScanDelivery(row)
	switch {
	case isForeignKey(err):
		return store.WebhookDelivery{}, errs.NotFound("account %d not found", d.AccountID)
	case err != nil:
		return store.WebhookDelivery{}, internal(err, op)
	}
	return out, nil
}

// FinishAttempt records the end of an attempt and appends its tries, in
// one transaction (see store.Webhooks).
func (db *DB) FinishAttempt(ctx context.Context, a store.AttemptRecord) (store.WebhookDelivery, error) {
	if err := sqlrow.ValidAttempt(a); err != nil {
		return store.WebhookDelivery{}, err
	}
	var out store.WebhookDelivery
	err := db.tx(ctx, func(tx pgx.Tx) error {
		row := tx.QueryRow(ctx, `UPDATE webhook_deliveries
			SET status = $1, attempts = $2, last_status_code = $3, last_error = $4, updated_at = $5
			WHERE id = $6 RETURNING `+sqlrow.DeliveryColumns,
			string(a.Status), a.Attempts, a.LastStatusCode, a.LastError, sqlrow.ToMS(a.Now), a.DeliveryID)
		var err error
		if out, err = scanOne(row, sqlrow.ScanDelivery, "finish attempt", deliveryNotFound(a.DeliveryID)); err != nil {
			return err
		}
		for _, t := range a.Tries {
			if _, err := tx.Exec(ctx, `INSERT INTO delivery_tries (delivery_id, attempt, try, status_code, error, latency_ms, at)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`,
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
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.DeliveryColumns+` FROM webhook_deliveries WHERE id = $1 AND account_id = $2`,
		deliveryID, accountID)
	return scanOne(row, sqlrow.ScanDelivery, "delivery", deliveryNotFound(deliveryID))
}

// DeliveryByID finds a delivery whatever its account.
func (db *DB) DeliveryByID(ctx context.Context, deliveryID int64) (store.WebhookDelivery, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.DeliveryColumns+` FROM webhook_deliveries WHERE id = $1`, deliveryID)
	return scanOne(row, sqlrow.ScanDelivery, "delivery by id", deliveryNotFound(deliveryID))
}

// ListDeliveries pages the account's deliveries, or only its dead ones,
// newest first.
func (db *DB) ListDeliveries(ctx context.Context, q store.DeliveryQuery) ([]store.WebhookDelivery, error) {
	limit, offset := sqlrow.PageBounds(q.Limit, q.Offset)
	dead := ""
	if q.DeadOnly {
		dead = ` AND status = 'dead'`
	}
	return queryAll(ctx, db.pool, "list deliveries", sqlrow.ScanDelivery, `SELECT `+sqlrow.DeliveryColumns+`
		FROM webhook_deliveries WHERE account_id = $1`+dead+` ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
		q.AccountID, limit, offset)
}

// PendingDeliveries lists pending deliveries of every account, oldest
// first; at most limit of them, or all when limit is 0 or less.
func (db *DB) PendingDeliveries(ctx context.Context, limit int) ([]store.WebhookDelivery, error) {
	return queryAll(ctx, db.pool, "pending deliveries", sqlrow.ScanDelivery, `SELECT `+sqlrow.DeliveryColumns+`
		FROM webhook_deliveries WHERE status = 'pending' ORDER BY created_at, id LIMIT $1`, recoveryLimit(limit))
}

// DeliveryTries returns the log of one of the account's deliveries, oldest
// first; another account's delivery is not found.
func (db *DB) DeliveryTries(ctx context.Context, accountID, deliveryID int64) ([]store.DeliveryTry, error) {
	var one int
	err := db.pool.QueryRow(ctx, `SELECT 1 FROM webhook_deliveries WHERE id = $1 AND account_id = $2`, deliveryID, accountID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, deliveryNotFound(deliveryID)()
	}
	if err != nil {
		return nil, internal(err, "delivery tries")
	}
	return queryAll(ctx, db.pool, "delivery tries", sqlrow.ScanTry, `SELECT delivery_id, attempt, try, status_code, error, latency_ms, at
		FROM delivery_tries WHERE delivery_id = $1 ORDER BY at, id`, deliveryID)
}
