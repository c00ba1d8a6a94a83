package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// eraseHoldsSQL drops an erased account's holds (calls in flight: their
// Settle then finds no hold and books nothing).
const eraseHoldsSQL = `DELETE FROM holds WHERE account_id = $1`

// DeleteAccount erases the person's account in one transaction (see
// store.Accounts). The account row is locked first, so the decision about
// the orgs it owns and the erasure see the same memberships.
func (db *DB) DeleteAccount(ctx context.Context, accountID int64) (store.Deletion, error) {
	var out store.Deletion
	err := db.tx(ctx, func(tx pgx.Tx) error {
		out = store.Deletion{}
		var kind string
		err := tx.QueryRow(ctx, `SELECT kind FROM accounts WHERE id = $1 FOR UPDATE`, accountID).Scan(&kind)
		if errors.Is(err, pgx.ErrNoRows) || err == nil && kind != string(store.AccountUser) {
			return sqlrow.NotAPerson(accountID)
		}
		if err != nil {
			return internal(err, "delete account")
		}
		// Lock the owned orgs so no member joins one while it is judged.
		owned, err := queryAll(ctx, tx, "delete account: owned orgs", sqlrow.ScanOwnedOrg, sqlrow.OwnedOrgsSQL+` FOR UPDATE OF o`, accountID)
		if err != nil {
			return err
		}
		if err := sqlrow.BlockingOrg(owned); err != nil {
			return err
		}
		if out.LeftOrgs, err = queryAll(ctx, tx, "delete account: memberships", sqlrow.ScanInt64, sqlrow.MembershipsSQL, accountID); err != nil {
			return err
		}
		for _, o := range owned {
			out.DeletedOrgs = append(out.DeletedOrgs, o.ID)
			if err := execAll(ctx, tx, "delete account: erase org", sqlrow.EraseOrgSQL, o.ID); err != nil {
				return err
			}
			if o.Wallet != 0 {
				if err := eraseAccount(ctx, tx, o.Wallet, &out); err != nil {
					return err
				}
			}
		}
		return eraseAccount(ctx, tx, accountID, &out)
	})
	if err != nil {
		return store.Deletion{}, err
	}
	return out, nil
}

// eraseAccount collects the account's unfinished jobs into out, then
// drops its holds and runs the erasure statements.
func eraseAccount(ctx context.Context, tx pgx.Tx, accountID int64, out *store.Deletion) error {
	jobs, err := queryAll(ctx, tx, "delete account: unfinished jobs", sqlrow.ScanString, sqlrow.UnfinishedJobsOfSQL, accountID)
	if err != nil {
		return err
	}
	out.CancelledJobs = append(out.CancelledJobs, jobs...)
	return execAll(ctx, tx, "delete account: erase", append([]string{eraseHoldsSQL}, sqlrow.EraseAccountSQL...), accountID)
}

func execAll(ctx context.Context, tx pgx.Tx, op string, statements []string, id int64) error {
	for _, q := range statements {
		if _, err := tx.Exec(ctx, q, id); err != nil {
			return internal(err, op)
		}
	}
	return nil
}
