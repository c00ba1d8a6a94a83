package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

func forwarderNotFound(forwarderID int64) func() error {
	return func() error { return errs.NotFound("forwarder %d not found", forwarderID) }
}

// CreateForwarder stores f for f.AccountID with f.CreatedAt as its creation
// time (f.ID and f.LastTest are ignored). The count of the account's
// forwarders and the insert run in one write transaction, which the single
// writer serializes, so concurrent calls never exceed limit.
func (db *DB) CreateForwarder(ctx context.Context, f store.Forwarder, limit int) (store.Forwarder, error) {
	if err := sqlrow.ValidNewForwarder(f); err != nil {
		return store.Forwarder{}, err
	}
	var out store.Forwarder
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// One lookup answers both questions: no row is an unknown
		// account, checked before the limit so that it is reported as
		// such whatever the limit.
		var n int
		err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM forwarders WHERE account_id = a.id)
			FROM accounts a WHERE a.id = ?`, f.AccountID).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return errs.NotFound("account %d not found", f.AccountID)
		}
		if err != nil {
			return internal(err, "create forwarder: count")
		}
		if n >= limit {
			return sqlrow.ForwarderLimitReached(limit)
		}
		row := tx.QueryRowContext(ctx, `
			INSERT INTO forwarders (account_id, name, endpoint, auth_header, auth_sealed, headers_sealed, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING `+sqlrow.ForwarderColumns,
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
	return queryAll(ctx, db.r, "list forwarders", sqlrow.ScanForwarder,
		`SELECT `+sqlrow.ForwarderColumns+` FROM forwarders WHERE account_id = ? ORDER BY id`, accountID)
}

// Forwarder finds one of the account's forwarders.
func (db *DB) Forwarder(ctx context.Context, accountID, forwarderID int64) (store.Forwarder, error) {
	row := db.r.QueryRowContext(ctx, `SELECT `+sqlrow.ForwarderColumns+` FROM forwarders WHERE id = ? AND account_id = ?`,
		forwarderID, accountID)
	return scanOne(row, sqlrow.ScanForwarder, "forwarder", forwarderNotFound(forwarderID))
}

// DeleteForwarder removes one of the account's forwarders.
func (db *DB) DeleteForwarder(ctx context.Context, accountID, forwarderID int64) error {
	return db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM forwarders WHERE id = ? AND account_id = ?`, forwarderID, accountID)
		if err != nil {
			return internal(err, "delete forwarder")
		}
		n, err := res.RowsAffected()
		if err != nil {
			return internal(err, "delete forwarder")
		}
		if n == 0 {
			return forwarderNotFound(forwarderID)()
		}
		return nil
	})
}

// RecordForwarderTest stores the outcome of a test span on one of the
// account's forwarders and returns the forwarder; a zero t.At is stored as
// never tested.
func (db *DB) RecordForwarderTest(ctx context.Context, accountID, forwarderID int64, t store.ForwarderTest) (store.Forwarder, error) {
	var out store.Forwarder
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
			UPDATE forwarders SET last_test_at = ?, last_test_status = ?, last_test_detail = ?
			WHERE id = ? AND account_id = ? RETURNING `+sqlrow.ForwarderColumns,
			sqlrow.NullableMS(t.At), t.Status, t.Detail, forwarderID, accountID)
		var err error
		out, err = scanOne(row, sqlrow.ScanForwarder, "record forwarder test", forwarderNotFound(forwarderID))
		return err
	})
	return out, err
}
