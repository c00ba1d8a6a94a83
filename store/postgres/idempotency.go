package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// BeginIdempotent claims (account, key) when no live record exists, or
// returns the live one. The claim is one INSERT … ON CONFLICT that also
// takes over an expired record, so two processes never both start a key.
func (db *DB) BeginIdempotent(ctx context.Context, accountID int64, key string, hash []byte, now, expires time.Time) (store.IdempotencyRecord, bool, error) {
	if key == "" {
		return store.IdempotencyRecord{}, false, errs.New(errs.KindInvalid, "postgres: empty idempotency key")
	}
	var rec store.IdempotencyRecord
	started := false
	err := db.tx(ctx, func(tx pgx.Tx) error {
		// Housekeeping: drop this account's expired records (indexed by
		// expiry across accounts; one account's are few).
		if _, err := tx.Exec(ctx, `DELETE FROM idempotency WHERE account_id = $1 AND expires_at <= $2`, accountID, sqlrow.ToMS(now)); err != nil {
			return internal(err, "begin idempotent: purge")
		}
		tag, err := tx.Exec(ctx, `INSERT INTO idempotency (account_id, key, request_hash, expires_at)
			VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, key) DO NOTHING`, accountID, key, hash, sqlrow.ToMS(expires))
		if err != nil {
			return internal(err, "begin idempotent: claim")
		}
		if tag.RowsAffected() == 1 {
			rec, started = store.IdempotencyRecord{RequestHash: hash, ExpiresAt: sqlrow.FromMS(sqlrow.ToMS(expires))}, true
			return nil
		}
		var header string
		var expiresMS int64
		err = tx.QueryRow(ctx, `SELECT request_hash, done, status, header, body, expires_at
			FROM idempotency WHERE account_id = $1 AND key = $2`, accountID, key).
			Scan(&rec.RequestHash, &rec.Done, &rec.Response.Status, &header, &rec.Response.Body, &expiresMS)
		if err != nil {
			return internal(err, "begin idempotent")
		}
		rec.ExpiresAt = sqlrow.FromMS(expiresMS)
		rec.Response.Header, err = sqlrow.DecodeHeader(header)
		return err
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
	tag, err := db.pool.Exec(ctx, `UPDATE idempotency SET done = true, status = $1, header = $2, body = $3
		WHERE account_id = $4 AND key = $5`, resp.Status, string(header), resp.Body, accountID, key)
	return exactlyOne(tag, err, "complete idempotent", func() error { return errs.NotFound("idempotency key %q is not claimed", key) })
}

// AbandonIdempotent deletes the record; an unknown key is ignored.
func (db *DB) AbandonIdempotent(ctx context.Context, accountID int64, key string) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM idempotency WHERE account_id = $1 AND key = $2`, accountID, key); err != nil {
		return internal(err, "abandon idempotent")
	}
	return nil
}
