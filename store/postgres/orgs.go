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

// Team organizations. A read-check-write (a role checked, then changed)
// locks what it checks: TransferOrg the org's row, then the memberships it
// changes; SetOrgRole and RemoveOrgMember the membership's row. So a
// transfer and a removal of the same member cannot both succeed, and the
// org always has exactly one owner.

func orgNotFound(orgID int64) error { return errs.NotFound("org %d not found", orgID) }

func memberNotFound(orgID, accountID int64) error {
	return errs.NotFound("account %d is not a member of org %d", accountID, orgID)
}

// CreateOrg stores the org, its wallet (an account of kind org, e-mail
// "org:<org id>", the owner's plan, no credits) and the owner's membership
// (role owner) in one transaction. An unknown owner, or a wallet, is
// errs.KindNotFound.
func (db *DB) CreateOrg(ctx context.Context, ownerAccountID int64, name string, now time.Time) (store.Org, error) {
	name, err := sqlrow.OrgName(name)
	if err != nil {
		return store.Org{}, err
	}
	at := sqlrow.ToMS(now)
	org := store.Org{Name: name, OwnerAccountID: ownerAccountID, CreatedAt: sqlrow.FromMS(at)}
	ownerNotFound := func() error { return errs.NotFound("account %d not found", ownerAccountID) }
	err = db.tx(ctx, func(tx pgx.Tx) error {
		var plan string
		err := tx.QueryRow(ctx, `SELECT plan FROM accounts WHERE id = $1 AND kind = 'user'`, ownerAccountID).Scan(&plan)
		if errors.Is(err, pgx.ErrNoRows) {
			return ownerNotFound()
		}
		if err != nil {
			return internal(err, "create org: owner")
		}
		err = tx.QueryRow(ctx, `INSERT INTO orgs (name, owner_account_id, created_at) VALUES ($1, $2, $3) RETURNING id`,
			name, ownerAccountID, at).Scan(&org.ID)
		if isForeignKey(err) { // the owner was deleted meanwhile
			return ownerNotFound()
		}
		if err != nil {
			return internal(err, "create org")
		}
		if err := tx.QueryRow(ctx, `
			INSERT INTO accounts (email, password_hash, plan, webhook_secret, balance, kind, created_at)
			VALUES ('org:' || $1::bigint, '', $2, '', 0, 'org', $3) RETURNING id`,
			org.ID, plan, at).Scan(&org.WalletAccountID); err != nil {
			return internal(err, "create org: wallet")
		}
		if _, err := tx.Exec(ctx, `UPDATE orgs SET wallet_account_id = $1 WHERE id = $2`, org.WalletAccountID, org.ID); err != nil {
			return internal(err, "create org: set wallet")
		}
		_, err = tx.Exec(ctx, `INSERT INTO org_members (org_id, account_id, role, created_at) VALUES ($1, $2, 'owner', $3)`,
			org.ID, ownerAccountID, at)
		if isForeignKey(err) {
			return ownerNotFound()
		}
		if err != nil {
			return internal(err, "create org: owner membership")
		}
		return nil
	})
	if err != nil {
		return store.Org{}, err
	}
	return org, nil
}

// OrgByID finds an org.
func (db *DB) OrgByID(ctx context.Context, orgID int64) (store.Org, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.OrgColumns+` FROM orgs o WHERE o.id = $1`, orgID)
	return scanOne(row, sqlrow.ScanOrgRow, "org by id", func() error { return orgNotFound(orgID) })
}

// ListOrgs returns the orgs the account is a member of, oldest first.
func (db *DB) ListOrgs(ctx context.Context, accountID int64) ([]store.Org, error) {
	return queryAll(ctx, db.pool, "list orgs", sqlrow.ScanOrgRow, `
		SELECT `+sqlrow.OrgColumns+`
		FROM org_members m JOIN orgs o ON o.id = m.org_id
		WHERE m.account_id = $1 ORDER BY o.id`, accountID)
}

// IsOrgMember reports membership; an unknown org is simply false.
func (db *DB) IsOrgMember(ctx context.Context, orgID, accountID int64) (bool, error) {
	var one int
	err := db.pool.QueryRow(ctx, `SELECT 1 FROM org_members WHERE org_id = $1 AND account_id = $2`, orgID, accountID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, internal(err, "is org member")
	}
	return true, nil
}

const orgMemberSQL = `SELECT ` + sqlrow.OrgMemberColumns + ` FROM ` + sqlrow.OrgMemberFrom + `
	WHERE m.org_id = $1 AND m.account_id = $2`

// OrgMember returns one membership, with the member's e-mail.
func (db *DB) OrgMember(ctx context.Context, orgID, accountID int64) (store.OrgMember, error) {
	row := db.pool.QueryRow(ctx, orgMemberSQL, orgID, accountID)
	return scanOne(row, sqlrow.ScanOrgMember, "org member", func() error { return memberNotFound(orgID, accountID) })
}

// lockMember reads a membership inside tx and locks its row.
func lockMember(ctx context.Context, tx pgx.Tx, orgID, accountID int64, op string) (store.OrgMember, error) {
	row := tx.QueryRow(ctx, orgMemberSQL+` FOR UPDATE OF m`, orgID, accountID)
	return scanOne(row, sqlrow.ScanOrgMember, op, func() error { return memberNotFound(orgID, accountID) })
}

// OrgMembers lists the org's members: the owner first, then by join time
// (then account id). An unknown org has none.
func (db *DB) OrgMembers(ctx context.Context, orgID int64) ([]store.OrgMember, error) {
	return queryAll(ctx, db.pool, "org members", sqlrow.ScanOrgMember, `
		SELECT `+sqlrow.OrgMemberColumns+` FROM `+sqlrow.OrgMemberFrom+`
		WHERE m.org_id = $1 ORDER BY `+sqlrow.OrgMemberOrder, orgID)
}

// AddOrgMember adds a person to the org as an admin or a member.
func (db *DB) AddOrgMember(ctx context.Context, orgID, accountID int64, role store.OrgRole, now time.Time) (store.OrgMember, error) {
	if err := sqlrow.ValidMemberRole(role, "add org member"); err != nil {
		return store.OrgMember{}, err
	}
	at := sqlrow.ToMS(now)
	m := store.OrgMember{OrgID: orgID, AccountID: accountID, Role: role, CreatedAt: sqlrow.FromMS(at)}
	err := db.tx(ctx, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM orgs WHERE id = $1`, orgID).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return orgNotFound(orgID)
		}
		if err != nil {
			return internal(err, "add org member: org")
		}
		err = tx.QueryRow(ctx, `SELECT email FROM accounts WHERE id = $1 AND kind = 'user'`, accountID).Scan(&m.Email)
		if errors.Is(err, pgx.ErrNoRows) {
			return errs.NotFound("account %d not found", accountID)
		}
		if err != nil {
			return internal(err, "add org member: account")
		}
		_, err = tx.Exec(ctx, `INSERT INTO org_members (org_id, account_id, role, created_at) VALUES ($1, $2, $3, $4)`,
			orgID, accountID, string(role), at)
		switch {
		case isUnique(err):
			return errs.New(errs.KindConflict, "account %d is already a member of org %d", accountID, orgID)
		case isForeignKey(err): // the org or the account was deleted meanwhile
			return errs.NotFound("org %d or account %d not found", orgID, accountID)
		case err != nil:
			return internal(err, "add org member")
		}
		return nil
	})
	if err != nil {
		return store.OrgMember{}, err
	}
	return m, nil
}

// SetOrgRole makes a member an admin or a plain member.
func (db *DB) SetOrgRole(ctx context.Context, orgID, accountID int64, role store.OrgRole) (store.OrgMember, error) {
	if err := sqlrow.ValidMemberRole(role, "set org role"); err != nil {
		return store.OrgMember{}, err
	}
	var m store.OrgMember
	err := db.tx(ctx, func(tx pgx.Tx) error {
		var err error
		m, err = lockMember(ctx, tx, orgID, accountID, "set org role")
		if err != nil {
			return err
		}
		if m.Role == store.RoleOwner {
			return errs.New(errs.KindConflict, "account %d owns org %d: transfer the org instead", accountID, orgID)
		}
		if _, err := tx.Exec(ctx, `UPDATE org_members SET role = $1 WHERE org_id = $2 AND account_id = $3`,
			string(role), orgID, accountID); err != nil {
			return internal(err, "set org role")
		}
		m.Role = role
		return nil
	})
	if err != nil {
		return store.OrgMember{}, err
	}
	return m, nil
}

// RemoveOrgMember ends a membership and revokes the member's active keys
// of the org, in one transaction, returning how many it revoked. The
// member's personal keys and keys of other orgs stay.
func (db *DB) RemoveOrgMember(ctx context.Context, orgID, accountID int64, now time.Time) (int, error) {
	var revoked int64
	err := db.tx(ctx, func(tx pgx.Tx) error {
		m, err := lockMember(ctx, tx, orgID, accountID, "remove org member")
		if err != nil {
			return err
		}
		if m.Role == store.RoleOwner {
			return errs.New(errs.KindConflict, "account %d owns org %d and cannot leave it: transfer it first", accountID, orgID)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM org_members WHERE org_id = $1 AND account_id = $2`, orgID, accountID); err != nil {
			return internal(err, "remove org member")
		}
		tag, err := tx.Exec(ctx, `UPDATE keys SET revoked_at = $1
			WHERE org_id = $2 AND account_id = $3 AND revoked_at IS NULL`, sqlrow.ToMS(now), orgID, accountID)
		if err != nil {
			return internal(err, "remove org member: revoke keys")
		}
		revoked = tag.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int(revoked), nil
}

// TransferOrg makes another member the owner; the old owner becomes an
// admin. The org's row is locked first, so transfers of one org queue.
func (db *DB) TransferOrg(ctx context.Context, orgID, toAccountID int64) (store.Org, error) {
	var org store.Org
	err := db.tx(ctx, func(tx pgx.Tx) error {
		row := tx.QueryRow(ctx, `SELECT `+sqlrow.OrgColumns+` FROM orgs o WHERE o.id = $1 FOR UPDATE`, orgID)
		var err error
		org, err = scanOne(row, sqlrow.ScanOrgRow, "transfer org", func() error { return orgNotFound(orgID) })
		if err != nil {
			return err
		}
		if org.OwnerAccountID == toAccountID {
			return errs.New(errs.KindConflict, "account %d already owns org %d", toAccountID, orgID)
		}
		if _, err := lockMember(ctx, tx, orgID, toAccountID, "transfer org"); err != nil {
			return err
		}
		b := &pgx.Batch{}
		b.Queue(`UPDATE org_members SET role = 'admin' WHERE org_id = $1 AND account_id = $2`, orgID, org.OwnerAccountID)
		b.Queue(`UPDATE org_members SET role = 'owner' WHERE org_id = $1 AND account_id = $2`, orgID, toAccountID)
		b.Queue(`UPDATE orgs SET owner_account_id = $1 WHERE id = $2`, toAccountID, orgID)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return internal(err, "transfer org")
		}
		org.OwnerAccountID = toAccountID
		return nil
	})
	if err != nil {
		return store.Org{}, err
	}
	return org, nil
}

// MoveCredits debits From and credits To in one transaction, with a
// ledger row on each, returning From's new balance.
//
// Both account rows are locked, in ascending id order (two opposite moves
// cannot deadlock), before anything is decided. Holds keep their credits
// on the account row (accounts.held, migration 00003), and every Reserve
// and Settle changes them under the same row lock, so balance - held read
// under the lock is exactly what From can spend. As in Reserve, a hold
// past its expiry still counts there until a sweep takes it out: when the
// move does not fit, From's expired holds are swept (as Reserve's slow
// path does, skipping holds a Settle or Release is writing) and the move
// decided again, so a refusal is decided on live holds only.
func (db *DB) MoveCredits(ctx context.Context, m store.CreditMove) (int64, error) {
	if err := sqlrow.ValidCreditMove(m); err != nil {
		return 0, err
	}
	var balance int64
	err := db.tx(ctx, func(tx pgx.Tx) error {
		var fromBalance, fromHeld int64
		for _, id := range []int64{min(m.From, m.To), max(m.From, m.To)} {
			var bal, held int64
			err := tx.QueryRow(ctx, `SELECT balance, held FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&bal, &held)
			if errors.Is(err, pgx.ErrNoRows) {
				return errs.NotFound("account %d not found", id)
			}
			if err != nil {
				return internal(err, "move credits: lock account")
			}
			if id == m.From {
				fromBalance, fromHeld = bal, held
			}
		}
		if fromBalance-fromHeld < m.Credits {
			var err error
			if fromHeld, err = sweepExpiredHolds(ctx, tx, m.From, sqlrow.ToMS(m.Now)); err != nil {
				return err
			}
			if available := fromBalance - fromHeld; available < m.Credits {
				return sqlrow.ShortOfCredits(m, available)
			}
		}
		var err error
		balance, err = book(ctx, tx, ledgerRow{accountID: m.From, delta: -m.Credits,
			reason: sqlrow.ReasonTransferOut, requestID: m.RequestID, now: m.Now})
		if err != nil {
			return err
		}
		_, err = book(ctx, tx, ledgerRow{accountID: m.To, delta: m.Credits,
			reason: sqlrow.ReasonTransferIn, requestID: m.RequestID, now: m.Now})
		return err
	})
	if err != nil {
		return 0, err
	}
	return balance, nil
}

// sweepExpiredHoldsSQL stops counting the account's holds expired at $2,
// as webinfra_reserve's slow path does (migration 00003), and returns the
// credits the account's holds still hold. The account's row must be
// locked by the caller; holds locked by a Settle or Release are skipped
// (their own statement takes them out of the counters).
const sweepExpiredHoldsSQL = `
WITH expired AS (
    UPDATE holds h SET counted = false
     WHERE h.request_id IN (SELECT request_id FROM holds
                             WHERE account_id = $1 AND counted AND expires_at <= $2
                             FOR UPDATE SKIP LOCKED)
    RETURNING h.key_id, h.credits),
per_key AS (
    UPDATE keys k SET held = k.held - e.credits
      FROM (SELECT key_id, sum(credits) AS credits FROM expired GROUP BY key_id) e
     WHERE k.id = e.key_id)
UPDATE accounts SET held = held - (SELECT coalesce(sum(credits), 0) FROM expired),
                    holds = holds - (SELECT count(*) FROM expired)
 WHERE id = $1
RETURNING held`

// sweepExpiredHolds runs sweepExpiredHoldsSQL inside tx.
func sweepExpiredHolds(ctx context.Context, tx pgx.Tx, accountID, now int64) (held int64, err error) {
	if err := tx.QueryRow(ctx, sweepExpiredHoldsSQL, accountID, now).Scan(&held); err != nil {
		return 0, internal(err, "move credits: sweep expired holds")
	}
	return held, nil
}
