package sqlite

import (
	"context"
	"database/sql"

	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// DeleteAccount erases the person's account in one write transaction (see
// store.Accounts): the orgs it owns alone and their wallets first, then
// everything under the account. The holds of its calls still in flight,
// and of its wallets, are forgotten with the commit; a Settle of such a
// call that comes later finds no account and books nothing.
func (db *DB) DeleteAccount(ctx context.Context, accountID int64) (store.Deletion, error) {
	var out store.Deletion
	var erased []int64 // accounts whose holds go
	err := db.writeThen(ctx, func(ctx context.Context, tx *sql.Tx) error {
		out, erased = store.Deletion{}, nil
		var kind string
		err := tx.QueryRowContext(ctx, `SELECT kind FROM accounts WHERE id = ?`, accountID).Scan(&kind)
		if err == sql.ErrNoRows || err == nil && kind != string(store.AccountUser) {
			return sqlrow.NotAPerson(accountID)
		}
		if err != nil {
			return internal(err, "delete account")
		}
		owned, err := queryAll(ctx, tx, "delete account: owned orgs", sqlrow.ScanOwnedOrg, sqlrow.SQLiteParams(sqlrow.OwnedOrgsSQL), accountID)
		if err != nil {
			return err
		}
		if err := sqlrow.BlockingOrg(owned); err != nil {
			return err
		}
		if out.LeftOrgs, err = queryAll(ctx, tx, "delete account: memberships", sqlrow.ScanInt64, sqlrow.SQLiteParams(sqlrow.MembershipsSQL), accountID); err != nil {
			return err
		}
		for _, o := range owned {
			out.DeletedOrgs = append(out.DeletedOrgs, o.ID)
			if err := execAll(ctx, tx, "delete account: erase org", sqlrow.EraseOrgSQL, o.ID); err != nil {
				return err
			}
			if o.Wallet != 0 {
				if err := db.eraseAccount(ctx, tx, o.Wallet, &out); err != nil {
					return err
				}
				erased = append(erased, o.Wallet)
			}
		}
		erased = append(erased, accountID)
		return db.eraseAccount(ctx, tx, accountID, &out)
	}, func(committed bool) {
		if committed {
			for _, id := range erased {
				db.holds.dropAccount(id)
			}
		}
	})
	if err != nil {
		return store.Deletion{}, err
	}
	return out, nil
}

// eraseAccount collects the account's unfinished jobs into out and runs
// the erasure statements.
func (db *DB) eraseAccount(ctx context.Context, tx *sql.Tx, accountID int64, out *store.Deletion) error {
	jobs, err := queryAll(ctx, tx, "delete account: unfinished jobs", sqlrow.ScanString, sqlrow.SQLiteParams(sqlrow.UnfinishedJobsOfSQL), accountID)
	if err != nil {
		return err
	}
	out.CancelledJobs = append(out.CancelledJobs, jobs...)
	return execAll(ctx, tx, "delete account: erase", sqlrow.EraseAccountSQL, accountID)
}

func execAll(ctx context.Context, tx *sql.Tx, op string, statements []string, id int64) error {
	for _, q := range statements {
		if _, err := tx.ExecContext(ctx, sqlrow.SQLiteParams(q), id); err != nil {
			return internal(err, op)
		}
	}
	return nil
}
