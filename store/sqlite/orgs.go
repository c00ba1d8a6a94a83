package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// Team organizations. Every write is one write transaction on the writer,
// so each read-check-write below (a role checked, then changed) is
// serialized by construction; MoveCredits also coordinates with the holds
// in memory (see its comment).

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
	err = db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var plan string
		err := tx.QueryRowContext(ctx, `SELECT plan FROM accounts WHERE id = ? AND kind = 'user'`, ownerAccountID).Scan(&plan)
		if errors.Is(err, sql.ErrNoRows) {
			return errs.NotFound("account %d not found", ownerAccountID)
		}
		if err != nil {
			return internal(err, "create org: owner")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO orgs (name, owner_account_id, created_at) VALUES (?, ?, ?) RETURNING id`,
			name, ownerAccountID, at).Scan(&org.ID); err != nil {
			return internal(err, "create org")
		}
		if err := tx.QueryRowContext(ctx, `
			INSERT INTO accounts (email, password_hash, plan, webhook_secret, balance, kind, created_at)
			VALUES ('org:' || ?, '', ?, '', 0, 'org', ?) RETURNING id`,
			org.ID, plan, at).Scan(&org.WalletAccountID); err != nil {
			return internal(err, "create org: wallet")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE orgs SET wallet_account_id = ? WHERE id = ?`, org.WalletAccountID, org.ID); err != nil {
			return internal(err, "create org: set wallet")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO org_members (org_id, account_id, role, created_at) VALUES (?, ?, 'owner', ?)`,
			org.ID, ownerAccountID, at); err != nil {
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
	row := db.r.QueryRowContext(ctx, `SELECT `+sqlrow.OrgColumns+` FROM orgs o WHERE o.id = ?`, orgID)
	return scanOne(row, sqlrow.ScanOrgRow, "org by id", func() error { return orgNotFound(orgID) })
}

// ListOrgs returns the orgs the account is a member of, oldest first.
func (db *DB) ListOrgs(ctx context.Context, accountID int64) ([]store.Org, error) {
	return queryAll(ctx, db.r, "list orgs", sqlrow.ScanOrgRow, `
		SELECT `+sqlrow.OrgColumns+`
		FROM org_members m JOIN orgs o ON o.id = m.org_id
		WHERE m.account_id = ? ORDER BY o.id`, accountID)
}

// IsOrgMember reports membership; an unknown org is simply false.
func (db *DB) IsOrgMember(ctx context.Context, orgID, accountID int64) (bool, error) {
	var one int
	err := db.r.QueryRowContext(ctx, `SELECT 1 FROM org_members WHERE org_id = ? AND account_id = ?`, orgID, accountID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, internal(err, "is org member")
	}
	return true, nil
}

const orgMemberSQL = `SELECT ` + sqlrow.OrgMemberColumns + ` FROM ` + sqlrow.OrgMemberFrom + `
	WHERE m.org_id = ? AND m.account_id = ?`

// OrgMember returns one membership, with the member's e-mail.
func (db *DB) OrgMember(ctx context.Context, orgID, accountID int64) (store.OrgMember, error) {
	row := db.r.QueryRowContext(ctx, orgMemberSQL, orgID, accountID)
	return scanOne(row, sqlrow.ScanOrgMember, "org member", func() error { return memberNotFound(orgID, accountID) })
}

// txMember reads a membership inside a write transaction.
func txMember(ctx context.Context, tx *sql.Tx, orgID, accountID int64, op string) (store.OrgMember, error) {
	row := tx.QueryRowContext(ctx, orgMemberSQL, orgID, accountID)
	return scanOne(row, sqlrow.ScanOrgMember, op, func() error { return memberNotFound(orgID, accountID) })
}

// OrgMembers lists the org's members: the owner first, then by join time
// (then account id). An unknown org has none.
func (db *DB) OrgMembers(ctx context.Context, orgID int64) ([]store.OrgMember, error) {
	return queryAll(ctx, db.r, "org members", sqlrow.ScanOrgMember, `
		SELECT `+sqlrow.OrgMemberColumns+` FROM `+sqlrow.OrgMemberFrom+`
		WHERE m.org_id = ? ORDER BY `+sqlrow.OrgMemberOrder, orgID)
}

// AddOrgMember adds a person to the org as an admin or a member.
func (db *DB) AddOrgMember(ctx context.Context, orgID, accountID int64, role store.OrgRole, now time.Time) (store.OrgMember, error) {
	if err := sqlrow.ValidMemberRole(role, "add org member"); err != nil {
		return store.OrgMember{}, err
	}
	at := sqlrow.ToMS(now)
	m := store.OrgMember{OrgID: orgID, AccountID: accountID, Role: role, CreatedAt: sqlrow.FromMS(at)}
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM orgs WHERE id = ?`, orgID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return orgNotFound(orgID)
		}
		if err != nil {
			return internal(err, "add org member: org")
		}
		err = tx.QueryRowContext(ctx, `SELECT email FROM accounts WHERE id = ? AND kind = 'user'`, accountID).Scan(&m.Email)
		if errors.Is(err, sql.ErrNoRows) {
			return errs.NotFound("account %d not found", accountID)
		}
		if err != nil {
			return internal(err, "add org member: account")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO org_members (org_id, account_id, role, created_at) VALUES (?, ?, ?, ?)`,
			orgID, accountID, string(role), at)
		if isUnique(err) {
			return errs.New(errs.KindConflict, "account %d is already a member of org %d", accountID, orgID)
		}
		if err != nil {
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
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		m, err = txMember(ctx, tx, orgID, accountID, "set org role")
		if err != nil {
			return err
		}
		if m.Role == store.RoleOwner {
			return errs.New(errs.KindConflict, "account %d owns org %d: transfer the org instead", accountID, orgID)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE org_members SET role = ? WHERE org_id = ? AND account_id = ?`,
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
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		m, err := txMember(ctx, tx, orgID, accountID, "remove org member")
		if err != nil {
			return err
		}
		if m.Role == store.RoleOwner {
			return errs.New(errs.KindConflict, "account %d owns org %d and cannot leave it: transfer it first", accountID, orgID)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM org_members WHERE org_id = ? AND account_id = ?`, orgID, accountID); err != nil {
			return internal(err, "remove org member")
		}
		res, err := tx.ExecContext(ctx, `UPDATE keys SET revoked_at = ?
			WHERE org_id = ? AND account_id = ? AND revoked_at IS NULL`, sqlrow.ToMS(now), orgID, accountID)
		if err != nil {
			return internal(err, "remove org member: revoke keys")
		}
		revoked, err = res.RowsAffected()
		if err != nil {
			return internal(err, "remove org member: revoke keys")
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int(revoked), nil
}

// TransferOrg makes another member the owner; the old owner becomes an
// admin.
func (db *DB) TransferOrg(ctx context.Context, orgID, toAccountID int64) (store.Org, error) {
	var org store.Org
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `SELECT `+sqlrow.OrgColumns+` FROM orgs o WHERE o.id = ?`, orgID)
		var err error
		org, err = scanOne(row, sqlrow.ScanOrgRow, "transfer org", func() error { return orgNotFound(orgID) })
		if err != nil {
			return err
		}
		if org.OwnerAccountID == toAccountID {
			return errs.New(errs.KindConflict, "account %d already owns org %d", toAccountID, orgID)
		}
		if _, err := txMember(ctx, tx, orgID, toAccountID, "transfer org"); err != nil {
			return err
		}
		for _, q := range []struct {
			query string
			args  []any
		}{
			{`UPDATE org_members SET role = 'admin' WHERE org_id = ? AND account_id = ?`, []any{orgID, org.OwnerAccountID}},
			{`UPDATE org_members SET role = 'owner' WHERE org_id = ? AND account_id = ?`, []any{orgID, toAccountID}},
			{`UPDATE orgs SET owner_account_id = ? WHERE id = ?`, []any{toAccountID, orgID}},
		} {
			if _, err := tx.ExecContext(ctx, q.query, q.args...); err != nil {
				return internal(err, "transfer org")
			}
		}
		org.OwnerAccountID = toAccountID
		return nil
	})
	if err != nil {
		return store.Org{}, err
	}
	return org, nil
}

// moveHoldPrefix names the hold of a credit move: a NUL byte, which no
// request id of a call carries, so a move's hold never takes a call's name.
const moveHoldPrefix = "\x00move:"

// MoveCredits debits From and credits To in one write transaction, with a
// ledger row on each, returning From's new balance.
//
// It never lets From spend what its calls in flight hold, under any
// concurrency, by taking part in the holds protocol as a call does: under
// db.mu it reads From's balance on a reader connection (which sees every
// commit whose hold is gone: commits and hold removals happen together
// under db.mu), subtracts From's live holds, and if the move fits records
// a hold of its credits on From (claimed, so Release and Settle never see
// it, and without expiry, so it counts whatever clock a Reserve uses).
// Then it books both ledger rows in one write transaction whose commit
// and the removal of the hold happen together under db.mu, as Settle's
// do: every Reserve or move of From sees the moved credits either held or
// gone from the balance, never available. While it is held the hold
// counts as one request in flight against From's monthly quota too, as
// any hold does (a Reserve at the very edge of the quota may be refused
// during those microseconds, never wrongly admitted).
func (db *DB) MoveCredits(ctx context.Context, m store.CreditMove) (int64, error) {
	if err := sqlrow.ValidCreditMove(m); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, internal(err, "move credits")
	}
	h, err := db.holdForMove(ctx, m)
	if err != nil {
		return 0, err
	}
	var balance int64
	err = db.writeThen(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		balance, err = db.book(ctx, tx, ledgerRow{accountID: m.From, delta: -m.Credits,
			reason: sqlrow.ReasonTransferOut, requestID: m.RequestID, now: m.Now})
		if err != nil {
			return err
		}
		_, err = db.book(ctx, tx, ledgerRow{accountID: m.To, delta: m.Credits,
			reason: sqlrow.ReasonTransferIn, requestID: m.RequestID, now: m.Now})
		return err
	}, func(bool) {
		// Committed, the credits are gone from the balance; if not, nothing
		// moved. (The check guards against a DeleteAccount of From that
		// dropped its holds meanwhile.)
		if db.holds.byID[h.requestID] == h {
			db.holds.remove(h)
		}
	})
	if err != nil {
		return 0, err
	}
	return balance, nil
}

// holdForMove checks that From can afford the move counting its live
// holds and records the move's hold, under db.mu.
func (db *DB) holdForMove(ctx context.Context, m store.CreditMove) (*hold, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	var balance int64
	err := db.r.QueryRowContext(context.WithoutCancel(ctx), `SELECT balance FROM accounts WHERE id = ?`, m.From).Scan(&balance)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.NotFound("account %d not found", m.From)
	}
	if err != nil {
		return nil, internal(err, "move credits: balance")
	}
	_, held, _ := db.holds.live(m.From, 0, sqlrow.ToMS(m.Now))
	if available := balance - held; available < m.Credits {
		return nil, sqlrow.ShortOfCredits(m, available)
	}
	id := moveHoldPrefix + m.RequestID
	if _, dup := db.holds.byID[id]; dup {
		return nil, errs.New(errs.KindConflict, "a move named %q is in progress", m.RequestID)
	}
	h := &hold{requestID: id, account: m.From, credits: m.Credits, expires: math.MaxInt64, settling: true}
	db.holds.add(h)
	return h, nil
}
