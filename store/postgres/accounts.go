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

// CreateAccount stores the account, its sign-up grant and its first key in
// one transaction. The key's CreatedAt is acct.Now.
func (db *DB) CreateAccount(ctx context.Context, acct store.NewAccount, firstKey store.Key) (store.Account, store.Key, error) {
	email, err := sqlrow.ValidNewAccount(acct)
	if err != nil {
		return store.Account{}, store.Key{}, err
	}
	out := store.Account{Email: email, PasswordHash: acct.PasswordHash, Plan: acct.Plan,
		WebhookSecret: acct.WebhookSecret, Kind: store.AccountUser, Login: sqlrow.LoginOf(acct),
		CreatedAt: sqlrow.FromMS(sqlrow.ToMS(acct.Now))}
	var key store.Key
	err = db.tx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `
			INSERT INTO accounts (email, password_hash, plan, webhook_secret, balance, login, created_at)
			VALUES ($1, $2, $3, $4, 0, $5, $6) RETURNING id`,
			out.Email, out.PasswordHash, out.Plan, out.WebhookSecret, string(out.Login), sqlrow.ToMS(out.CreatedAt)).Scan(&out.ID)
		if isUnique(err) {
			return errs.New(errs.KindConflict, "an account with e-mail %s already exists", email)
		}
		if err != nil {
			return internal(err, "create account")
		}
		if acct.InitialCredits > 0 {
			if _, err := book(ctx, tx, ledgerRow{accountID: out.ID, delta: acct.InitialCredits, reason: reasonSignupGrant, now: acct.Now}); err != nil {
				return err
			}
		}
		firstKey.AccountID = out.ID
		firstKey.CreatedAt = acct.Now
		key, err = insertKey(ctx, tx, firstKey)
		return err
	})
	if err != nil {
		return store.Account{}, store.Key{}, err
	}
	return out, key, nil
}

// AccountByID finds an account by id.
func (db *DB) AccountByID(ctx context.Context, id int64) (store.Account, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.AccountColumns+` FROM accounts WHERE id = $1`, id)
	return scanOne(row, sqlrow.ScanAccount, "account by id", func() error { return errs.NotFound("account %d not found", id) })
}

// AccountByEmail finds an account by e-mail, ignoring case.
func (db *DB) AccountByEmail(ctx context.Context, email string) (store.Account, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.AccountColumns+` FROM accounts WHERE email = $1 AND kind = 'user'`, sqlrow.NormalizeEmail(email))
	return scanOne(row, sqlrow.ScanAccount, "account by e-mail", func() error { return errs.NotFound("no account with that e-mail") })
}

// SetWebhookSecret replaces the account's webhook signing secret.
func (db *DB) SetWebhookSecret(ctx context.Context, accountID int64, secret string) error {
	tag, err := db.pool.Exec(ctx, `UPDATE accounts SET webhook_secret = $1 WHERE id = $2`, secret, accountID)
	return exactlyOne(tag, err, "set webhook secret", func() error { return errs.NotFound("account %d not found", accountID) })
}

// SetPassword stores the new hash and revokes the account's other
// dashboard keys in one transaction.
func (db *DB) SetPassword(ctx context.Context, accountID int64, passwordHash string, keepKeyID int64, now time.Time) (int, error) {
	var revoked int64
	err := db.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE accounts SET password_hash = $1 WHERE id = $2`, passwordHash, accountID)
		if err := exactlyOne(tag, err, "set password", func() error { return errs.NotFound("account %d not found", accountID) }); err != nil {
			return err
		}
		tag, err = tx.Exec(ctx, `UPDATE keys SET revoked_at = $1
			WHERE account_id = $2 AND kind = $3 AND revoked_at IS NULL AND id != $4`,
			sqlrow.ToMS(now), accountID, string(store.KeyDashboard), keepKeyID)
		if err != nil {
			return internal(err, "set password: revoke sessions")
		}
		revoked = tag.RowsAffected()
		return nil
	})
	return int(revoked), err
}

// insertKey stores k inside tx with k.CreatedAt as its creation time.
func insertKey(ctx context.Context, tx pgx.Tx, k store.Key) (store.Key, error) {
	if k.Kind == "" {
		k.Kind = store.KeyDeveloper
	}
	if k.Scope == "" {
		k.Scope = store.ScopeAPI
	}
	if err := sqlrow.ValidKey(k); err != nil {
		return store.Key{}, err
	}
	var org *int64
	if k.OrgID != 0 {
		org = &k.OrgID
	}
	var revoked *int64
	if !k.RevokedAt.IsZero() {
		ms := sqlrow.ToMS(k.RevokedAt)
		revoked = &ms
	}
	row := tx.QueryRow(ctx, `
		INSERT INTO keys (account_id, hash, prefix, kind, scope, label, project_tag, daily_cap_credits, org_id, created_at, revoked_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING `+sqlrow.KeyColumns,
		k.AccountID, k.Hash, k.Prefix, string(k.Kind), string(k.Scope), k.Label, k.ProjectTag, k.DailyCapCredits, org,
		sqlrow.ToMS(k.CreatedAt), revoked)
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

func keyNotFound() error { return errs.NotFound("key not found") }

// CreateKey stores k; a zero k.CreatedAt is replaced by the current time.
func (db *DB) CreateKey(ctx context.Context, k store.Key) (store.Key, error) {
	k.ID = 0
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	var out store.Key
	err := db.tx(ctx, func(tx pgx.Tx) error {
		var err error
		out, err = insertKey(ctx, tx, k)
		return err
	})
	return out, err
}

// KeyByHash finds a key, active or revoked, by the hash of its raw value.
func (db *DB) KeyByHash(ctx context.Context, hash []byte) (store.Key, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.KeyColumns+` FROM keys WHERE hash = $1`, hash)
	return scanOne(row, sqlrow.ScanKey, "key by hash", keyNotFound)
}

// KeyAndAccount finds a key and its account in one query.
func (db *DB) KeyAndAccount(ctx context.Context, hash []byte) (store.Key, store.Account, error) {
	k, a, err := sqlrow.ScanKeyAccount(db.pool.QueryRow(ctx, `SELECT `+sqlrow.KeyAccountColumns+`
		FROM keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Key{}, store.Account{}, keyNotFound()
	}
	if err != nil {
		return store.Key{}, store.Account{}, internal(err, "key and account")
	}
	return k, a, nil
}

// ListKeys returns the account's keys, oldest first.
func (db *DB) ListKeys(ctx context.Context, accountID int64) ([]store.Key, error) {
	return queryAll(ctx, db.pool, "list keys", sqlrow.ScanKey, `SELECT `+sqlrow.KeyColumns+` FROM keys WHERE account_id = $1 ORDER BY id`, accountID)
}

// UpdateKey changes the key's label, project tag and daily cap.
func (db *DB) UpdateKey(ctx context.Context, accountID, keyID int64, u store.KeyUpdate) (store.Key, error) {
	if u.DailyCapCredits != nil && *u.DailyCapCredits < 0 {
		return store.Key{}, errs.New(errs.KindInvalid, "postgres: negative daily cap %d", *u.DailyCapCredits)
	}
	row := db.pool.QueryRow(ctx, `
		UPDATE keys SET label = coalesce($1, label), project_tag = coalesce($2, project_tag),
		                daily_cap_credits = coalesce($3, daily_cap_credits)
		WHERE id = $4 AND account_id = $5 RETURNING `+sqlrow.KeyColumns,
		u.Label, u.ProjectTag, u.DailyCapCredits, keyID, accountID)
	return scanOne(row, sqlrow.ScanKey, "update key", keyNotFound)
}

// RevokeKey revokes the key; revoking twice keeps the first time.
func (db *DB) RevokeKey(ctx context.Context, accountID, keyID int64, now time.Time) (store.Key, error) {
	row := db.pool.QueryRow(ctx, `UPDATE keys SET revoked_at = coalesce(revoked_at, $1)
		WHERE id = $2 AND account_id = $3 RETURNING `+sqlrow.KeyColumns, sqlrow.ToMS(now), keyID, accountID)
	return scanOne(row, sqlrow.ScanKey, "revoke key", keyNotFound)
}

// TouchKey sets the key's last use, keeping the later of two touches.
func (db *DB) TouchKey(ctx context.Context, keyID int64, now time.Time) error {
	_, err := db.pool.Exec(ctx, `UPDATE keys SET last_used_at = greatest(coalesce(last_used_at, 0), $1) WHERE id = $2`,
		sqlrow.ToMS(now), keyID)
	if err != nil {
		return internal(err, "touch key")
	}
	return nil
}

// RotateKey stores the replacement with the old key's settings and revokes
// the old key, in one transaction (the old key's row locked).
func (db *DB) RotateKey(ctx context.Context, accountID, keyID int64, replacement store.Key, now time.Time) (store.Key, error) {
	var out store.Key
	err := db.tx(ctx, func(tx pgx.Tx) error {
		row := tx.QueryRow(ctx, `SELECT `+sqlrow.KeyColumns+` FROM keys WHERE id = $1 AND account_id = $2 FOR UPDATE`, keyID, accountID)
		old, err := scanOne(row, sqlrow.ScanKey, "rotate key", keyNotFound)
		if err != nil {
			return err
		}
		if !old.Active() {
			return errs.New(errs.KindConflict, "key %d is revoked and cannot be rotated", keyID)
		}
		if _, err := tx.Exec(ctx, `UPDATE keys SET revoked_at = $1 WHERE id = $2`, sqlrow.ToMS(now), keyID); err != nil {
			return internal(err, "rotate key: revoke")
		}
		out, err = insertKey(ctx, tx, store.Key{AccountID: accountID, Hash: replacement.Hash, Prefix: replacement.Prefix,
			Kind: old.Kind, Scope: old.Scope, Label: old.Label, ProjectTag: old.ProjectTag,
			DailyCapCredits: old.DailyCapCredits, OrgID: old.OrgID, CreatedAt: now})
		return err
	})
	return out, err
}
