package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

func forwarderNotFound(forwarderID int64) func() error {
	return func() error { return errs.NotFound("forwarder %d not found", forwarderID) }
}

// CreateForwarder stores f for f.AccountID with f.CreatedAt as its creation
// time (f.ID and f.LastTest are ignored), in one transaction that first
// locks the account's row, so that concurrent calls for one account count
// and insert one after the other and never exceed limit, in this process
// or another.
func (db *DB) CreateForwarder(ctx context.Context, f store.Forwarder, limit int) (store.Forwarder, error) {
	if err := sqlrow.ValidNewForwarder(f); err != nil {
		return store.Forwarder{}, err
	}
	var out store.Forwarder
	err := db.tx(ctx, func(tx pgx.Tx) error {
		// FOR NO KEY UPDATE conflicts with itself (and with FOR UPDATE,
		// DELETE and every UPDATE of the row) but not with the KEY SHARE
		// locks that inserts referencing the account take, so calls and
		// key creation of the account do not wait on it. No row is an
		// unknown account, reported as such whatever the limit.
		var id int64
		err := tx.QueryRow(ctx, `SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE`, f.AccountID).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return errs.NotFound("account %d not found", f.AccountID)
		}
		if err != nil {
			return internal(err, "create forwarder: lock account")
		}
		// The count is a statement of its own, taken after the lock: under
		// READ COMMITTED it gets a fresh snapshot, which holds the rows of
		// the transaction that held the lock before us. (A count inside
		// the locking statement would use the snapshot taken before
		// waiting for the lock and miss them.)
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM forwarders WHERE account_id = $1`, f.AccountID).Scan(&n); err != nil {
			return internal(err, "create forwarder: count")
		}
		if n >= limit {
			return sqlrow.ForwarderLimitReached(limit)
		}
		row := tx.QueryRow(ctx, `
			INSERT INTO forwarders (account_id, name, endpoint, auth_header, auth_sealed, headers_sealed, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING `+sqlrow.ForwarderColumns,
			f.AccountID, f.Name, f.Endpoint, f.AuthHeader, sqlrow.NullBytes(f.AuthSealed), sqlrow.NullBytes(f.HeadersSealed),
			sqlrow.ToMS(f.CreatedAt))
		out, err = sqlrow.ScanForwarder(row)
		if err != nil {
			return internal(err, "create forwarder")
		}
		return nil
	})
	if err != nil {
		return store.Forwarder{}, err
	}
	return out, nil
}

// ListForwarders returns the account's forwarders, oldest first (by id);
// an unknown account has none.
func (db *DB) ListForwarders(ctx context.Context, accountID int64) ([]store.Forwarder, error) {
	return queryAll(ctx, db.pool, "list forwarders", sqlrow.ScanForwarder,
		`SELECT `+sqlrow.ForwarderColumns+` FROM forwarders WHERE account_id = $1 ORDER BY id`, accountID)
}

// Forwarder finds one of the account's forwarders.
func (db *DB) Forwarder(ctx context.Context, accountID, forwarderID int64) (store.Forwarder, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.ForwarderColumns+` FROM forwarders WHERE id = $1 AND account_id = $2`,
		forwarderID, accountID)
	return scanOne(row, sqlrow.ScanForwarder, "forwarder", forwarderNotFound(forwarderID))
}

// DeleteForwarder removes one of the account's forwarders.
func (db *DB) DeleteForwarder(ctx context.Context, accountID, forwarderID int64) error {
	tag, err := db.pool.Exec(ctx, `DELETE FROM forwarders WHERE id = $1 AND account_id = $2`, forwarderID, accountID)
	return exactlyOne(tag, err, "delete forwarder", forwarderNotFound(forwarderID))
}

// RecordForwarderTest stores the outcome of a test span on one of the
// account's forwarders and returns the forwarder; a zero t.At is stored as
// never tested.
func (db *DB) RecordForwarderTest(ctx context.Context, accountID, forwarderID int64, t store.ForwarderTest) (store.Forwarder, error) {
	row := db.pool.QueryRow(ctx, `
		UPDATE forwarders SET last_test_at = $1, last_test_status = $2, last_test_detail = $3
		WHERE id = $4 AND account_id = $5 RETURNING `+sqlrow.ForwarderColumns,
		sqlrow.NullableMS(t.At), t.Status, t.Detail, forwarderID, accountID)
	return scanOne(row, sqlrow.ScanForwarder, "record forwarder test", forwarderNotFound(forwarderID))
}
