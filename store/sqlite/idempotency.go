package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// BeginIdempotent claims (account, key) when no live record exists, or
// returns the live one. Claiming replaces an expired record.
func (db *DB) BeginIdempotent(ctx context.Context, accountID int64, key string, hash []byte, now, expires time.Time) (store.IdempotencyRecord, bool, error) {
	if key == "" {
		return store.IdempotencyRecord{}, false, errs.New(errs.KindInvalid, "sqlite: empty idempotency key")
	}
	var rec store.IdempotencyRecord
	started := false
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var done, status int64
		var header string
		var body []byte
		var expiresMS int64
		err := tx.QueryRowContext(ctx, `
			SELECT request_hash, done, status, header, body, expires_at
			FROM idempotency WHERE account_id = ? AND key = ?`, accountID, key,
		).Scan(&rec.RequestHash, &done, &status, &header, &body, &expiresMS)
		switch {
		case err == nil && expiresMS > sqlrow.ToMS(now):
			rec.Done = done != 0
			rec.ExpiresAt = sqlrow.FromMS(expiresMS)
			rec.Response = store.StoredResponse{Status: int(status), Body: body}
			if rec.Response.Header, err = sqlrow.DecodeHeader(header); err != nil {
				return err
			}
			return nil
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return internal(err, "begin idempotent")
		}
		// Housekeeping: drop every expired record (indexed by expiry).
		if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency WHERE expires_at <= ?`, sqlrow.ToMS(now)); err != nil {
			return internal(err, "begin idempotent: purge")
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO idempotency (account_id, key, request_hash, done, status, header, body, expires_at)
			VALUES (?, ?, ?, 0, 0, '', NULL, ?)`, accountID, key, hash, sqlrow.ToMS(expires)); err != nil {
			return internal(err, "begin idempotent: claim")
		}
		rec = store.IdempotencyRecord{RequestHash: hash, ExpiresAt: sqlrow.FromMS(sqlrow.ToMS(expires))}
		started = true
		return nil
	})
	if err != nil {
		return store.IdempotencyRecord{}, false, err
	}
	return rec, started, nil
}

// CompleteIdempotent stores the response of the claimed key; a key that
// was never claimed (or was abandoned) is errs.KindNotFound.
func (db *DB) CompleteIdempotent(ctx context.Context, accountID int64, key string, resp store.StoredResponse) error {
	header, err := json.Marshal(resp.Header)
	if err != nil {
		return internal(err, "complete idempotent: header")
	}
	return db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			UPDATE idempotency SET done = 1, status = ?, header = ?, body = ?
			WHERE account_id = ? AND key = ?`, resp.Status, string(header), resp.Body, accountID, key)
		if err != nil {
			return internal(err, "complete idempotent")
		}
		if n, err := res.RowsAffected(); err != nil {
			return internal(err, "complete idempotent")
		} else if n == 0 {
			return errs.NotFound("idempotency key %q is not claimed", key)
		}
		return nil
	})
}

// AbandonIdempotent deletes the record; an unknown key is ignored.
func (db *DB) AbandonIdempotent(ctx context.Context, accountID int64, key string) error {
	return db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency WHERE account_id = ? AND key = ?`, accountID, key); err != nil {
			return internal(err, "abandon idempotent")
		}
		return nil
	})
}
