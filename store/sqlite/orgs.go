package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// CreateOrg stores the org with its owner as first member.
func (db *DB) CreateOrg(ctx context.Context, ownerAccountID int64, name string, now time.Time) (store.Org, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return store.Org{}, errs.New(errs.KindInvalid, "sqlite: create org: empty name")
	}
	org := store.Org{Name: name, OwnerAccountID: ownerAccountID, CreatedAt: sqlrow.FromMS(sqlrow.ToMS(now))}
	err := db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO orgs (name, owner_account_id, created_at) VALUES (?, ?, ?) RETURNING id`,
			name, ownerAccountID, sqlrow.ToMS(now)).Scan(&org.ID)
		if isForeignKey(err) {
			return errs.NotFound("account %d not found", ownerAccountID)
		}
		if err != nil {
			return internal(err, "create org")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO org_members (org_id, account_id, created_at) VALUES (?, ?, ?)`,
			org.ID, ownerAccountID, sqlrow.ToMS(now)); err != nil {
			return internal(err, "create org: owner membership")
		}
		return nil
	})
	if err != nil {
		return store.Org{}, err
	}
	return org, nil
}

// ListOrgs returns the orgs the account is a member of, oldest first.
func (db *DB) ListOrgs(ctx context.Context, accountID int64) ([]store.Org, error) {
	return queryAll(ctx, db, "list orgs", sqlrow.ScanOrg, `
		SELECT o.id, o.name, o.owner_account_id, o.created_at
		FROM org_members m JOIN orgs o ON o.id = m.org_id
		WHERE m.account_id = ? ORDER BY o.id`, accountID)
}

// IsOrgMember reports membership; an unknown org is simply false.
func (db *DB) IsOrgMember(ctx context.Context, orgID, accountID int64) (bool, error) {
	var one int
	err := db.r.QueryRowContext(ctx, `SELECT 1 FROM org_members WHERE org_id = ? AND account_id = ?`, orgID, accountID).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, internal(err, "is org member")
	}
	return true, nil
}
