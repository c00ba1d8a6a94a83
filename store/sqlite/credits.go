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

// Ledger reasons written by the driver itself.
const (
	reasonSignupGrant = "signup_grant"
	reasonCharge      = "charge"
	reasonRefund      = "refund" // FinishJob giving back a job's credits
)

// Reserve checks the monthly quota, the key's daily cap and the balance,
// counting live holds, and records a hold in memory. It writes nothing to
// the database: under db.mu it reads the balance and the month's and the
// day's counters in one statement on a reader connection, which sees every
// Settle whose hold is gone (Settle commits before it drops the hold, under
// the same mutex), so a charge is never missing from both the balance and
// the holds, nor counted in both.
// The balance an "insufficient credits" error names is the balance less
// the account's live holds.
// An unmetered reservation holds nothing and always passes; the caller
// must not Settle it (Settle would report the unknown hold as not found),
// and Release of it is a harmless no-op.
func (db *DB) Reserve(ctx context.Context, r store.Reservation) error {
	if r.Unmetered {
		return nil
	}
	if err := sqlrow.ValidReservation(r); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return internal(err, "reserve")
	}
	now := sqlrow.ToMS(r.Now)
	db.mu.Lock()
	defer db.mu.Unlock()
	var balance, monthRequests, keyToday int64
	err := db.rs.reserveCheck.QueryRowContext(context.WithoutCancel(ctx),
		sqlrow.MonthKey(r.Now), r.KeyID, sqlrow.DayKey(r.Now), r.AccountID,
	).Scan(&balance, &monthRequests, &keyToday)
	if errors.Is(err, sql.ErrNoRows) {
		return errs.NotFound("account %d not found", r.AccountID)
	}
	if err != nil {
		return internal(err, "reserve")
	}
	liveHolds, held, keyHeld := db.holds.live(r.AccountID, r.KeyID, now)
	if err := sqlrow.CheckReservation(r, sqlrow.Account{Balance: balance, MonthRequests: monthRequests, KeyToday: keyToday, LiveHolds: liveHolds, Held: held, KeyHeld: keyHeld}); err != nil {
		return err
	}
	if _, dup := db.holds.byID[r.RequestID]; dup {
		return errs.New(errs.KindConflict, "a hold named %q already exists", r.RequestID)
	}
	db.holds.add(&hold{
		requestID: r.RequestID, account: r.AccountID, key: r.KeyID, credits: r.Credits,
		expires: now + r.TTL.Milliseconds(),
	})
	return nil
}

// Settle turns the hold into a charge. A hold is settled even after its TTL
// (the call did run), as long as Reserve has not dropped it (holdGrace).
// Charging more than was held, or a negative amount, is errs.KindInvalid.
// Settle ignores ctx's cancellation: the call's work is done and must be
// booked even when its client has gone.
//
// The hold is claimed first (a concurrent Settle or Release of it then
// finds nothing), the charge is written in one transaction, and the commit
// and the removal of the hold happen together under db.mu. If the
// transaction fails the hold is left as it was.
func (db *DB) Settle(ctx context.Context, s store.Settlement) (int64, error) {
	ctx = context.WithoutCancel(ctx)
	if s.Charged < 0 {
		return 0, errs.New(errs.KindInvalid, "sqlite: settle: negative charge %d", s.Charged)
	}
	db.mu.Lock()
	h, err := db.holds.claim(s.RequestID, s.Charged)
	db.mu.Unlock()
	if err != nil {
		return 0, err
	}
	var balance int64
	err = db.writeThen(ctx, func(ctx context.Context, tx *sql.Tx) error {
		count := tx.StmtContext(ctx, db.ws.count)
		if _, err := count.ExecContext(ctx, h.account, 0, sqlrow.MonthKey(s.Now), 1); err != nil {
			return internal(err, "settle: monthly counter")
		}
		if s.Charged == 0 {
			err := tx.StmtContext(ctx, db.ws.balance).QueryRowContext(ctx, h.account).Scan(&balance)
			if err != nil {
				return internal(err, "settle: balance")
			}
			return nil
		}
		if _, err := count.ExecContext(ctx, h.account, h.key, sqlrow.DayKey(s.Now), s.Charged); err != nil {
			return internal(err, "settle: daily counter")
		}
		var err error
		balance, err = db.book(ctx, tx, ledgerRow{
			accountID: h.account, delta: -s.Charged, reason: reasonCharge,
			endpoint: s.Endpoint, requestID: s.RequestID, keyID: h.key, now: s.Now,
		})
		return err
	}, func(committed bool) {
		if committed {
			db.holds.remove(h)
		} else {
			h.settling = false
		}
	})
	if err != nil {
		return 0, err
	}
	return balance, nil
}

// ledgerRow is one change of an account's balance.
type ledgerRow struct {
	accountID, delta    int64
	reason              string
	endpoint, requestID string
	keyID               int64
	now                 time.Time
}

// book changes the balance and appends the ledger row inside tx, returning
// the new balance. An unknown account is errs.KindNotFound.
func (db *DB) book(ctx context.Context, tx *sql.Tx, r ledgerRow) (int64, error) {
	var balance, seq int64
	err := tx.StmtContext(ctx, db.ws.addBalance).QueryRowContext(ctx, r.delta, r.accountID).Scan(&balance, &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errs.NotFound("account %d not found", r.accountID)
	}
	if err != nil {
		return 0, internal(err, "update balance")
	}
	if _, err := tx.StmtContext(ctx, db.ws.insertLedger).ExecContext(ctx,
		r.accountID, seq, r.delta, balance, r.reason, r.endpoint, r.requestID, r.keyID, sqlrow.ToMS(r.now)); err != nil {
		return 0, internal(err, "ledger")
	}
	return balance, nil
}

// Release drops the hold; unknown (or unmetered) holds are ignored, and
// so is a hold a Settle is writing (the charge wins). It touches only
// memory.
func (db *DB) Release(_ context.Context, requestID string) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if h := db.holds.byID[requestID]; h != nil && !h.settling {
		db.holds.remove(h)
	}
	return nil
}

// Balance returns the account's balance, not counting holds.
func (db *DB) Balance(ctx context.Context, accountID int64) (int64, error) {
	var balance int64
	err := db.r.QueryRowContext(ctx, `SELECT balance FROM accounts WHERE id = ?`, accountID).Scan(&balance)
	if errors.Is(err, sql.ErrNoRows) {
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
		return 0, errs.New(errs.KindInvalid, "sqlite: grant: empty reason")
	}
	var balance int64
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		balance, err = db.book(ctx, tx, ledgerRow{accountID: accountID, delta: credits, reason: reason, now: now})
		return err
	})
	if err != nil {
		return 0, err
	}
	return balance, nil
}

// Ledger pages the account's ledger, newest first.
func (db *DB) Ledger(ctx context.Context, accountID int64, limit, offset int) ([]store.LedgerEntry, error) {
	limit, offset = sqlrow.PageBounds(limit, offset)
	return queryAll(ctx, db.r, "ledger", sqlrow.ScanLedgerEntry, `
		SELECT id, delta, balance, reason, endpoint, request_id, key_id, created_at
		FROM ledger WHERE account_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`, accountID, limit, offset)
}

// MonthlyRequests counts the account's settled requests in now's month.
func (db *DB) MonthlyRequests(ctx context.Context, accountID int64, now time.Time) (int64, error) {
	var n int64
	err := db.r.QueryRowContext(ctx, `SELECT n FROM counters WHERE account_id = ? AND key_id = 0 AND period = ?`,
		accountID, sqlrow.MonthKey(now)).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, internal(err, "monthly requests")
	}
	return n, nil
}
