package store

import (
	"context"
	"time"
)

// Org is a team organization. Its credits, ledger and usage live on its
// wallet, an account of kind AccountOrg: the calls of its org keys are
// charged there.
type Org struct {
	ID              int64
	Name            string
	OwnerAccountID  int64
	WalletAccountID int64
	CreatedAt       time.Time
}

// OrgRole is a member's role in an org.
type OrgRole string

// Roles. An org has exactly one owner. Owners and admins manage members;
// only the owner transfers ownership. Every member may mint org keys.
const (
	RoleOwner  OrgRole = "owner"
	RoleAdmin  OrgRole = "admin"
	RoleMember OrgRole = "member"
)

// Valid reports whether r is one of the three roles.
func (r OrgRole) Valid() bool { return r == RoleOwner || r == RoleAdmin || r == RoleMember }

// OrgMember is one membership.
type OrgMember struct {
	OrgID     int64
	AccountID int64
	Email     string
	Role      OrgRole
	CreatedAt time.Time // when the account joined
}

// CreditMove moves credits from one account's balance to another's, e.g.
// from a member's own balance into an org's wallet.
type CreditMove struct {
	RequestID string // unique; names the move in both ledger rows
	From, To  int64
	Credits   int64 // > 0
	Now       time.Time
}

// Orgs stores team organizations and their members.
type Orgs interface {
	// CreateOrg stores the org, its wallet (an AccountOrg account with the
	// owner's plan and no credits) and its owner as first member (role
	// owner), in one transaction. An empty name is errs.KindInvalid; an
	// unknown owner, or a wallet, errs.KindNotFound.
	CreateOrg(ctx context.Context, ownerAccountID int64, name string, now time.Time) (Org, error)
	// OrgByID finds an org; an unknown one is errs.KindNotFound.
	OrgByID(ctx context.Context, orgID int64) (Org, error)
	// ListOrgs returns the orgs the account is a member of, oldest first.
	ListOrgs(ctx context.Context, accountID int64) ([]Org, error)
	// IsOrgMember reports membership; an unknown org is simply false.
	IsOrgMember(ctx context.Context, orgID, accountID int64) (bool, error)
	// OrgMember returns one membership; a non-member (or an unknown org)
	// is errs.KindNotFound.
	OrgMember(ctx context.Context, orgID, accountID int64) (OrgMember, error)
	// OrgMembers lists the org's members, owner first, then by join time.
	OrgMembers(ctx context.Context, orgID int64) ([]OrgMember, error)
	// AddOrgMember adds a person with role admin or member (owner is
	// errs.KindInvalid: ownership only moves by TransferOrg). Already a
	// member is errs.KindConflict; an unknown org or account, or a wallet,
	// errs.KindNotFound.
	AddOrgMember(ctx context.Context, orgID, accountID int64, role OrgRole, now time.Time) (OrgMember, error)
	// SetOrgRole changes a member's role between admin and member. The
	// owner's role is errs.KindConflict (transfer instead); owner as the
	// new role is errs.KindInvalid; a non-member errs.KindNotFound.
	SetOrgRole(ctx context.Context, orgID, accountID int64, role OrgRole) (OrgMember, error)
	// RemoveOrgMember ends a membership (a removal, or the member
	// leaving) and revokes that member's keys of the org, in one
	// transaction, returning how many keys it revoked. The owner is
	// errs.KindConflict; a non-member errs.KindNotFound.
	RemoveOrgMember(ctx context.Context, orgID, accountID int64, now time.Time) (revokedKeys int, err error)
	// TransferOrg makes another member the owner; the old owner becomes
	// an admin. A non-member is errs.KindNotFound; the current owner
	// errs.KindConflict.
	TransferOrg(ctx context.Context, orgID, toAccountID int64) (Org, error)
	// MoveCredits debits From and credits To in one transaction, with a
	// ledger row on each (reasons "transfer_out" and "transfer_in", the
	// move's request id), returning From's new balance. From's credits
	// held by calls in flight are not available: a move that would leave
	// less than they hold is errs.KindPaymentRequired and changes nothing.
	MoveCredits(ctx context.Context, m CreditMove) (fromBalance int64, err error)
}
