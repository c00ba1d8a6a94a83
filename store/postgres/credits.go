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

// Ledger reasons written by the driver itself (as the SQLite driver's).
const (
	reasonSignupGrant = "signup_grant"
	reasonCharge      = "charge"
	reasonRefund      = "refund"
)

// holdGrace is how long after its expiry a hold is kept so a slow call can
// still be settled; the account's next Reserve after that deletes it.
const holdGrace = 24 * time.Hour

// reserveSQL reads what Reserve decides on besides the balance: the
// month's settled requests, the key's credits today and the live holds. It
// runs after the account's row is locked, as a statement of its own: in
// READ COMMITTED each statement sees what was committed when it began, so
// it sees every Settle and Reserve of the account that held the lock
// before (one statement with FOR UPDATE would re-read only the locked row
// after waiting, and count the holds as they were before the wait).
const reserveSQL = `
	SELECT coalesce((SELECT n FROM counters WHERE account_id = $1 AND key_id = 0 AND period = $2), 0),
		coalesce((SELECT n FROM counters WHERE account_id = $1 AND key_id = $3 AND period = $4), 0),
		count(*), coalesce(sum(credits), 0), coalesce(sum(credits) FILTER (WHERE key_id = $3), 0)
	FROM holds WHERE account_id = $1 AND expires_at > $5`

// Reserve checks the monthly quota, the key's daily cap and the balance,
// counting live holds, and stores a hold, in one transaction holding the
// account's row lock: exact under any concurrency, from any number of
// processes.
func (db *DB) Reserve(ctx context.Context, r store.Reservation) error {
	if r.Unmetered {
		return nil
	}
	if err := sqlrow.ValidReservation(r); err != nil {
		return err
	}
	now := sqlrow.ToMS(r.Now)
	return db.tx(ctx, func(tx pgx.Tx) error {
		// The account's row lock: the Reserves and debits of one account,
		// from any process, take turns.
		var balance, monthRequests, keyToday, liveHolds, held, keyHeld int64
		err := tx.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1 FOR UPDATE`, r.AccountID).Scan(&balance)
		if errors.Is(err, pgx.ErrNoRows) {
			return errs.NotFound("account %d not found", r.AccountID)
		}
		if err != nil {
			return internal(err, "reserve")
		}
		err = tx.QueryRow(ctx, reserveSQL, r.AccountID, sqlrow.MonthKey(r.Now), r.KeyID, sqlrow.DayKey(r.Now), now).
			Scan(&monthRequests, &keyToday, &liveHolds, &held, &keyHeld)
		if err != nil {
			return internal(err, "reserve")
		}
		if err := sqlrow.CheckReservation(r, sqlrow.Account{Balance: balance, MonthRequests: monthRequests, KeyToday: keyToday, LiveHolds: liveHolds, Held: held, KeyHeld: keyHeld}); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM holds WHERE account_id = $1 AND expires_at < $2`,
			r.AccountID, now-holdGrace.Milliseconds()); err != nil {
			return internal(err, "reserve: drop stale holds")
		}
		tag, err := tx.Exec(ctx, `INSERT INTO holds (request_id, account_id, key_id, credits, expires_at)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (request_id) DO NOTHING`,
			r.RequestID, r.AccountID, r.KeyID, r.Credits, now+r.TTL.Milliseconds())
		if err != nil {
			return internal(err, "reserve: hold")
		}
		if tag.RowsAffected() == 0 {
			return errs.New(errs.KindConflict, "a hold named %q already exists", r.RequestID)
		}
		return nil
	})
}

// countSQL adds n to a counter (a month's requests or a key's day).
const countSQL = `INSERT INTO counters (account_id, key_id, period, n) VALUES ($1, $2, $3, $4)
	ON CONFLICT (account_id, key_id, period) DO UPDATE SET n = counters.n + excluded.n`

// Settle turns the hold into a charge: the hold is claimed by deleting it
// (a concurrent Settle or Release then finds nothing), and the charge, the
// counters and the ledger row are written in the same transaction; if it
// fails, the hold is back. Settle ignores ctx's cancellation: the work is
// done and must be booked.
func (db *DB) Settle(ctx context.Context, s store.Settlement) (int64, error) {
	ctx = context.WithoutCancel(ctx)
	if s.Charged < 0 {
		return 0, errs.New(errs.KindInvalid, "postgres: settle: negative charge %d", s.Charged)
	}
	var balance int64
	err := db.tx(ctx, func(tx pgx.Tx) error {
		var account, key, credits int64
		err := tx.QueryRow(ctx, `DELETE FROM holds WHERE request_id = $1 RETURNING account_id, key_id, credits`, s.RequestID).
			Scan(&account, &key, &credits)
		if errors.Is(err, pgx.ErrNoRows) {
			return errs.NotFound("no hold for request %q", s.RequestID)
		}
		if err != nil {
			return internal(err, "settle: claim hold")
		}
		if s.Charged > credits {
			return errs.New(errs.KindInvalid, "postgres: settle: charge %d exceeds the %d credits held", s.Charged, credits)
		}
		if _, err := tx.Exec(ctx, countSQL, account, 0, sqlrow.MonthKey(s.Now), 1); err != nil {
			return internal(err, "settle: monthly counter")
		}
		if s.Charged == 0 {
			if err := tx.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1`, account).Scan(&balance); err != nil {
				return internal(err, "settle: balance")
			}
			return nil
		}
		if _, err := tx.Exec(ctx, countSQL, account, key, sqlrow.DayKey(s.Now), s.Charged); err != nil {
			return internal(err, "settle: daily counter")
		}
		balance, err = book(ctx, tx, ledgerRow{accountID: account, delta: -s.Charged, reason: reasonCharge,
			endpoint: s.Endpoint, requestID: s.RequestID, keyID: key, now: s.Now})
		return err
	})
	return balance, err
}

// ledgerRow is one change of an account's balance.
type ledgerRow struct {
	accountID, delta    int64
	reason              string
	endpoint, requestID string
	keyID               int64
	now                 time.Time
}

// book changes the balance (one UPDATE, which also takes the next ledger
// id) and appends the ledger row inside tx, returning the new balance.
func book(ctx context.Context, tx pgx.Tx, r ledgerRow) (int64, error) {
	var balance, seq int64
	err := tx.QueryRow(ctx, `UPDATE accounts SET balance = balance + $1, ledger_seq = ledger_seq + 1
		WHERE id = $2 RETURNING balance, ledger_seq`, r.delta, r.accountID).Scan(&balance, &seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, errs.NotFound("account %d not found", r.accountID)
	}
	if err != nil {
		return 0, internal(err, "update balance")
	}
	if _, err := tx.Exec(ctx, `INSERT INTO ledger (account_id, id, delta, balance, reason, endpoint, request_id, key_id, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		r.accountID, seq, r.delta, balance, r.reason, r.endpoint, r.requestID, r.keyID, sqlrow.ToMS(r.now)); err != nil {
		return 0, internal(err, "ledger")
	}
	return balance, nil
}

// Release drops the hold; unknown holds are ignored. A hold a Settle is
// writing is locked by it: Release waits, then finds it gone (the charge
// wins).
func (db *DB) Release(ctx context.Context, requestID string) error {
	if _, err := db.pool.Exec(context.WithoutCancel(ctx), `DELETE FROM holds WHERE request_id = $1`, requestID); err != nil {
		return internal(err, "release")
	}
	return nil
}

// Balance returns the account's balance, not counting holds.
func (db *DB) Balance(ctx context.Context, accountID int64) (int64, error) {
	var balance int64
	err := db.pool.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1`, accountID).Scan(&balance)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, errs.NotFound("account %d not found", accountID)
	}
	if err != nil {
		return 0, internal(err, "balance")
	}
	return balance, nil
}

// Grant adds credits (a negative amount takes them away) with a ledger row.
func (db *DB) Grant(ctx context.Context, accountID, credits int64, reason string, now time.Time) (int64, error) {
	if reason == "" {
		return 0, errs.New(errs.KindInvalid, "postgres: grant: empty reason")
	}
	var balance int64
	err := db.tx(ctx, func(tx pgx.Tx) error {
		var err error
		balance, err = book(ctx, tx, ledgerRow{accountID: accountID, delta: credits, reason: reason, now: now})
		return err
	})
	return balance, err
}

// Ledger pages the account's ledger, newest first.
func (db *DB) Ledger(ctx context.Context, accountID int64, limit, offset int) ([]store.LedgerEntry, error) {
	limit, offset = sqlrow.PageBounds(limit, offset)
	return queryAll(ctx, db.pool, "ledger", sqlrow.ScanLedgerEntry, `
		SELECT id, delta, balance, reason, endpoint, request_id, key_id, created_at
		FROM ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, accountID, limit, offset)
}

// MonthlyRequests counts the account's settled requests in now's month.
func (db *DB) MonthlyRequests(ctx context.Context, accountID int64, now time.Time) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, `SELECT n FROM counters WHERE account_id = $1 AND key_id = 0 AND period = $2`,
		accountID, sqlrow.MonthKey(now)).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, internal(err, "monthly requests")
	}
	return n, nil
}
