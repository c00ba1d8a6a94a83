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

// scanOneKey scans a single-row key result, mapping no row to not found.
func scanOneKey(row *sql.Row, op string) (store.Key, error) {
	return scanOne(row, sqlrow.ScanKey, op, func() error { return errs.NotFound("key not found") })
}

// insertKey stores k inside tx with k.CreatedAt as its creation time.
func insertKey(ctx context.Context, tx *sql.Tx, k store.Key) (store.Key, error) {
	if k.Kind == "" {
		k.Kind = store.KeyDeveloper
	}
	if k.Scope == "" {
		k.Scope = store.ScopeAPI
	}
	if err := sqlrow.ValidKey(k); err != nil {
		return store.Key{}, err
	}
	var org sql.NullInt64
	if k.OrgID != 0 {
		org = sql.NullInt64{Int64: k.OrgID, Valid: true}
	}
	row := tx.QueryRowContext(ctx, `
		INSERT INTO keys (account_id, hash, prefix, kind, scope, label, project_tag, daily_cap_credits, org_id, created_at, revoked_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING `+sqlrow.KeyColumns,
		k.AccountID, k.Hash, k.Prefix, string(k.Kind), string(k.Scope), k.Label, k.ProjectTag, k.DailyCapCredits, org,
		sqlrow.ToMS(k.CreatedAt), sqlrow.NullableMS(k.RevokedAt))
	out, err := sqlrow.ScanKey(row)
	switch {
	case isUnique(err):
		return store.Key{}, errs.New(errs.KindConflict, "a key with that hash already exists")
	case isForeignKey(err):
		return store.Key{}, errs.NotFound("the key's account or org does not exist")
	case err != nil:
		return store.Key{}, internal(err, "insert key")
	}
	return out, nil
}

// CreateKey stores k. The interface has no clock argument here, so a
// non-zero k.CreatedAt is taken as the creation time; a zero one is
// replaced by the current time.
func (db *DB) CreateKey(ctx context.Context, k store.Key) (store.Key, error) {
	k.ID = 0
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	var out store.Key
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		out, err = insertKey(ctx, tx, k)
		return err
	})
	return out, err
}

// KeyByHash finds a key, active or revoked, by the hash of its raw value.
// It runs on every authenticated call and is one index lookup, so it does
// not watch ctx for cancellation (which costs a goroutine per query).
func (db *DB) KeyByHash(ctx context.Context, hash []byte) (store.Key, error) {
	return scanOneKey(db.rs.keyByHash.QueryRowContext(context.WithoutCancel(ctx), hash), "key by hash")
}

// KeyAndAccount finds a key and its account in one query. Like KeyByHash
// it does not watch ctx.
func (db *DB) KeyAndAccount(ctx context.Context, hash []byte) (store.Key, store.Account, error) {
	k, a, err := sqlrow.ScanKeyAccount(db.rs.keyAccount.QueryRowContext(context.WithoutCancel(ctx), hash))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Key{}, store.Account{}, errs.NotFound("key not found")
	}
	if err != nil {
		return store.Key{}, store.Account{}, internal(err, "key and account")
	}
	return k, a, nil
}

// ListKeys returns the account's keys, oldest first.
func (db *DB) ListKeys(ctx context.Context, accountID int64) ([]store.Key, error) {
	return queryAll(ctx, db.r, "list keys", sqlrow.ScanKey, `SELECT `+sqlrow.KeyColumns+` FROM keys WHERE account_id = ? ORDER BY id`, accountID)
}

// UpdateKey changes the key's label, project tag and daily cap.
func (db *DB) UpdateKey(ctx context.Context, accountID, keyID int64, u store.KeyUpdate) (store.Key, error) {
	if u.DailyCapCredits != nil && *u.DailyCapCredits < 0 {
		return store.Key{}, errs.New(errs.KindInvalid, "sqlite: negative daily cap %d", *u.DailyCapCredits)
	}
	var out store.Key
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
			UPDATE keys SET label = coalesce(?, label),
			                project_tag = coalesce(?, project_tag),
			                daily_cap_credits = coalesce(?, daily_cap_credits)
			WHERE id = ? AND account_id = ? RETURNING `+sqlrow.KeyColumns,
			nullString(u.Label), nullString(u.ProjectTag), nullInt(u.DailyCapCredits), keyID, accountID)
		var err error
		out, err = scanOneKey(row, "update key")
		return err
	})
	return out, err
}

// TouchKey sets the key's last use; a later time only (two processes
// touching at once keep the later).
func (db *DB) TouchKey(ctx context.Context, keyID int64, now time.Time) error {
	return db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE keys SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?`, sqlrow.ToMS(now), keyID)
		if err != nil {
			return internal(err, "touch key")
		}
		return nil
	})
}

// RevokeKey revokes the key; revoking twice keeps the first time.
func (db *DB) RevokeKey(ctx context.Context, accountID, keyID int64, now time.Time) (store.Key, error) {
	var out store.Key
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
			UPDATE keys SET revoked_at = coalesce(revoked_at, ?)
			WHERE id = ? AND account_id = ? RETURNING `+sqlrow.KeyColumns, sqlrow.ToMS(now), keyID, accountID)
		var err error
		out, err = scanOneKey(row, "revoke key")
		return err
	})
	return out, err
}

// RotateKey stores the replacement with the old key's settings and revokes
// the old key, in one transaction.
func (db *DB) RotateKey(ctx context.Context, accountID, keyID int64, replacement store.Key, now time.Time) (store.Key, error) {
	var out store.Key
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `SELECT `+sqlrow.KeyColumns+` FROM keys WHERE id = ? AND account_id = ?`, keyID, accountID)
		old, err := scanOneKey(row, "rotate key")
		if err != nil {
			return err
		}
		if !old.Active() {
			return errs.New(errs.KindConflict, "key %d is revoked and cannot be rotated", keyID)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE keys SET revoked_at = ? WHERE id = ?`, sqlrow.ToMS(now), keyID); err != nil {
			return internal(err, "rotate key: revoke")
		}
		out, err = insertKey(ctx, tx, store.Key{
			AccountID:       accountID,
			Hash:            replacement.Hash,
			Prefix:          replacement.Prefix,
			Kind:            old.Kind,
			Scope:           old.Scope,
			Label:           old.Label,
			ProjectTag:      old.ProjectTag,
			DailyCapCredits: old.DailyCapCredits,
			OrgID:           old.OrgID,
			CreatedAt:       now,
		})
		return err
	})
	return out, err
}

func nullString(p *string) sql.NullString {
	if p == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *p, Valid: true}
}

func nullInt(p *int64) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *p, Valid: true}
}
