package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// writeStmts are the hot write statements, prepared once on the writer
// connection and bound to each transaction with tx.StmtContext.
type writeStmts struct {
	addBalance     *sql.Stmt
	balance        *sql.Stmt
	insertLedger   *sql.Stmt
	count          *sql.Stmt
	insertUsageRow *sql.Stmt

	// Run once or more per job: CreateJob, StartJob, FinishJob (with its
	// delivery) and FinishAttempt (with its tries).
	insertJob      *sql.Stmt
	startJob       *sql.Stmt
	selectJob      *sql.Stmt
	finishJob      *sql.Stmt
	insertDelivery *sql.Stmt
	finishAttempt  *sql.Stmt
	insertTry      *sql.Stmt

	// The savepoint around each request of a group commit (write.go).
	savepoint, release, rollbackTo *sql.Stmt
}

// readStmts are the hot queries, prepared on the reader pool.
type readStmts struct {
	reserveCheck *sql.Stmt
	keyByHash    *sql.Stmt
	keyAccount   *sql.Stmt
	accountByID  *sql.Stmt
	getJob       *sql.Stmt
	jobByID      *sql.Stmt
	deliveryByID *sql.Stmt
}

// reserveCheckSQL reads what Reserve decides on besides the holds, in one
// statement (one snapshot): the balance, this month's settled requests and
// the key's credits charged today.
const reserveCheckSQL = `
SELECT a.balance,
       coalesce((SELECT n FROM counters WHERE account_id = a.id AND key_id = 0 AND period = ?1), 0),
       coalesce((SELECT n FROM counters WHERE account_id = a.id AND key_id = ?2 AND period = ?3), 0)
FROM accounts a
WHERE a.id = ?4`

const insertUsageSQL = `
INSERT INTO usage (request_id, account_id, key_id, created_at, endpoint, method, url,
                   status, time_ms, credits_charged, tier_used)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11
WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ?2) -- a call of an account deleted meanwhile leaves nothing
ON CONFLICT (request_id) DO NOTHING`

func (db *DB) prepare(ctx context.Context) error {
	var err error
	prep := func(pool *sql.DB, query string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var s *sql.Stmt
		s, err = pool.PrepareContext(ctx, query)
		return s
	}
	db.ws = writeStmts{
		addBalance: prep(db.w, `UPDATE accounts SET balance = balance + ?, ledger_seq = ledger_seq + 1
			WHERE id = ? RETURNING balance, ledger_seq`),
		balance: prep(db.w, `SELECT balance FROM accounts WHERE id = ?`),
		insertLedger: prep(db.w, `INSERT INTO ledger (account_id, id, delta, balance, reason, endpoint, request_id, key_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		count: prep(db.w, `INSERT INTO counters (account_id, key_id, period, n) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, key_id, period) DO UPDATE SET n = n + excluded.n`),
		insertUsageRow: prep(db.w, insertUsageSQL),
		insertJob:      prep(db.w, insertJobSQL),
		startJob:       prep(db.w, startJobSQL),
		selectJob:      prep(db.w, getJobSQL),
		finishJob:      prep(db.w, finishJobSQL),
		insertDelivery: prep(db.w, insertDeliverySQL),
		finishAttempt:  prep(db.w, finishAttemptSQL),
		insertTry:      prep(db.w, insertTrySQL),
		savepoint:      prep(db.w, `SAVEPOINT batch_request`),
		release:        prep(db.w, `RELEASE batch_request`),
		rollbackTo:     prep(db.w, `ROLLBACK TO batch_request`),
	}
	db.rs = readStmts{
		reserveCheck: prep(db.r, reserveCheckSQL),
		keyByHash:    prep(db.r, `SELECT `+sqlrow.KeyColumns+` FROM keys WHERE hash = ?`),
		keyAccount: prep(db.r, `SELECT `+sqlrow.KeyAccountColumns+`
			FROM keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?`),
		accountByID:  prep(db.r, `SELECT `+sqlrow.AccountColumns+` FROM accounts WHERE id = ?`),
		getJob:       prep(db.r, getJobSQL),
		jobByID:      prep(db.r, jobByIDSQL),
		deliveryByID: prep(db.r, deliveryByIDSQL),
	}
	if err != nil {
		return internal(err, "prepare")
	}
	return nil
}

func closeStmts(stmts ...*sql.Stmt) error {
	var all []error
	for _, s := range stmts {
		if s != nil {
			all = append(all, s.Close())
		}
	}
	return errors.Join(all...)
}

func (s *writeStmts) close() error {
	return closeStmts(s.addBalance, s.balance, s.insertLedger, s.count, s.insertUsageRow,
		s.insertJob, s.startJob, s.selectJob, s.finishJob, s.insertDelivery, s.finishAttempt, s.insertTry,
		s.savepoint, s.release, s.rollbackTo)
}

func (s *readStmts) close() error {
	return closeStmts(s.reserveCheck, s.keyByHash, s.keyAccount, s.accountByID, s.getJob, s.jobByID, s.deliveryByID)
}

// Times are stored as unix milliseconds, UTC.
