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

// CreateAccount stores the account, its sign-up grant and its first key in
// one transaction. The key's CreatedAt is acct.Now.
func (db *DB) CreateAccount(ctx context.Context, acct store.NewAccount, firstKey store.Key) (store.Account, store.Key, error) {
	email, err := sqlrow.ValidNewAccount(acct)
	if err != nil {
		return store.Account{}, store.Key{}, err
	}
	out := store.Account{
		Email:         email,
		PasswordHash:  acct.PasswordHash,
		Plan:          acct.Plan,
		WebhookSecret: acct.WebhookSecret,
		Kind:          store.AccountUser,
		Login:         sqlrow.LoginOf(acct),
		CreatedAt:     sqlrow.FromMS(sqlrow.ToMS(acct.Now)),
	}
	var key store.Key
	err = db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
			INSERT INTO accounts (email, password_hash, plan, webhook_secret, balance, login, created_at)
			VALUES (?, ?, ?, ?, 0, ?, ?) RETURNING id`,
			out.Email, out.PasswordHash, out.Plan, out.WebhookSecret, string(out.Login), sqlrow.ToMS(out.CreatedAt)).Scan(&out.ID)
		if isUnique(err) {
			return errs.New(errs.KindConflict, "an account with e-mail %s already exists", email)
		}
		if err != nil {
			return internal(err, "create account")
		}
		if acct.InitialCredits > 0 {
			if _, err := db.book(ctx, tx, ledgerRow{
				accountID: out.ID, delta: acct.InitialCredits, reason: reasonSignupGrant, now: acct.Now,
			}); err != nil {
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

// AccountByID finds an account by id. It runs on every authenticated call
// (a prepared statement) and, like KeyByHash, does not watch ctx.
func (db *DB) AccountByID(ctx context.Context, id int64) (store.Account, error) {
	row := db.rs.accountByID.QueryRowContext(context.WithoutCancel(ctx), id)
	a, err := scanAccount(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Account{}, errs.NotFound("account %d not found", id)
	}
	return a, err
}

// AccountByEmail finds an account by e-mail, ignoring case.
func (db *DB) AccountByEmail(ctx context.Context, email string) (store.Account, error) {
	row := db.r.QueryRowContext(ctx, `SELECT `+sqlrow.AccountColumns+` FROM accounts WHERE email = ? AND kind = 'user'`, sqlrow.NormalizeEmail(email))
	a, err := scanAccount(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Account{}, errs.NotFound("no account with that e-mail")
	}
	return a, err
}

// SetWebhookSecret replaces the account's webhook signing secret.
func (db *DB) SetWebhookSecret(ctx context.Context, accountID int64, secret string) error {
	return db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET webhook_secret = ? WHERE id = ?`, secret, accountID)
		if err != nil {
			return internal(err, "set webhook secret")
		}
		if n, err := res.RowsAffected(); err != nil {
			return internal(err, "set webhook secret")
		} else if n == 0 {
			return errs.NotFound("account %d not found", accountID)
		}
		return nil
	})
}

func scanAccount(row *sql.Row) (store.Account, error) {
	a, err := sqlrow.ScanAccount(row)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return store.Account{}, internal(err, "scan account")
	}
	return a, err
}

// SetPassword stores the new hash and revokes the account's other
// dashboard keys in one transaction.
func (db *DB) SetPassword(ctx context.Context, accountID int64, passwordHash string, keepKeyID int64, now time.Time) (int, error) {
	var revoked int64
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = ? WHERE id = ?`, passwordHash, accountID)
		if err != nil {
			return internal(err, "set password")
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errs.NotFound("account %d not found", accountID)
		}
		res, err = tx.ExecContext(ctx, `
			UPDATE keys SET revoked_at = ?
			WHERE account_id = ? AND kind = ? AND revoked_at IS NULL AND id != ?`,
			sqlrow.ToMS(now), accountID, string(store.KeyDashboard), keepKeyID)
		if err != nil {
			return internal(err, "set password: revoke sessions")
		}
		revoked, err = res.RowsAffected()
		if err != nil {
			return internal(err, "set password: revoke sessions")
		}
		return nil
	})
	return int(revoked), err
}
