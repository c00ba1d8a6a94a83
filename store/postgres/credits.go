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
// still be settled; a later sweep (a Reserve that would be refused)
// deletes it.
const holdGrace = 24 * time.Hour

// Reserve checks the monthly quota, the key's daily cap and the balance,
// counting live holds, and stores a hold: one call of webinfra_reserve
// (migration 00003). Its common case is one conditional UPDATE of the
// account's row and one of the key's, against counters kept on those
// rows; a refusal is decided under the account's row lock after its
// expired holds are swept, so the checks are exact under any concurrency,
// from any number of processes. A refusal is worded from the state the
// function read, by the same rules (sqlrow.CheckReservation).
func (db *DB) Reserve(ctx context.Context, r store.Reservation) error {
	if r.Unmetered {
		return nil
	}
	if err := sqlrow.ValidReservation(r); err != nil {
		return err
	}
	now := sqlrow.ToMS(r.Now)
	var found, inserted bool
	var a sqlrow.Account
	err := db.pool.QueryRow(ctx, `SELECT * FROM webinfra_reserve($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		r.RequestID, r.AccountID, r.KeyID, r.Credits, sqlrow.MonthKey(r.Now), sqlrow.DayKey(r.Now), now,
		now+r.TTL.Milliseconds(), now-holdGrace.Milliseconds(), r.MonthlyQuota, r.DailyCap,
	).Scan(&found, &inserted, &a.Balance, &a.MonthRequests, &a.KeyToday, &a.LiveHolds, &a.Held, &a.KeyHeld)
	switch {
	case err != nil:
		return internal(err, "reserve")
	case !found:
		return errs.NotFound("account %d not found", r.AccountID)
	case inserted:
		return nil
	}
	if err := sqlrow.CheckReservation(r, a); err != nil {
		return err
	}
	return errs.New(errs.KindConflict, "a hold named %q already exists", r.RequestID)
}

// Settle turns the hold into a charge: one call of webinfra_settle, which
// deletes the hold (a concurrent Settle or Release then finds nothing) and
// writes the counters, the balance and the ledger row in the same
// transaction. Settle ignores ctx's cancellation: the work is done and
// must be booked.
func (db *DB) Settle(ctx context.Context, s store.Settlement) (int64, error) {
	ctx = context.WithoutCancel(ctx)
	if s.Charged < 0 {
		return 0, errs.New(errs.KindInvalid, "postgres: settle: negative charge %d", s.Charged)
	}
	var found bool
	var held, balance *int64
	err := db.pool.QueryRow(ctx, `SELECT * FROM webinfra_settle($1, $2, $3, $4, $5, $6)`,
		s.RequestID, s.Charged, sqlrow.MonthKey(s.Now), sqlrow.DayKey(s.Now), s.Endpoint, sqlrow.ToMS(s.Now),
	).Scan(&found, &held, &balance)
	switch {
	case err != nil:
		return 0, internal(err, "settle")
	case !found:
		return 0, errs.NotFound("no hold for request %q", s.RequestID)
	case balance == nil:
		return 0, errs.New(errs.KindInvalid, "postgres: settle: charge %d exceeds the %d credits held", s.Charged, *held)
	}
	return *balance, nil
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

// Release drops the hold and takes it out of the counters (one call of
// webinfra_release); unknown holds are ignored. A hold a Settle is
// writing is locked by it: Release waits, then finds it gone (the charge
// wins).
func (db *DB) Release(ctx context.Context, requestID string) error {
	if _, err := db.pool.Exec(context.WithoutCancel(ctx), `SELECT webinfra_release($1)`, requestID); err != nil {
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

// MonthlyRequests counts the account's settled requests in now's month:
// the account row's counter for its newest month, the counters table's for
// a closed one.
func (db *DB) MonthlyRequests(ctx context.Context, accountID int64, now time.Time) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, `SELECT webinfra_period_n(id, 0, $2, month_key, month_requests) FROM accounts WHERE id = $1`,
		accountID, sqlrow.MonthKey(now)).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, internal(err, "monthly requests")
	}
	return n, nil
}
