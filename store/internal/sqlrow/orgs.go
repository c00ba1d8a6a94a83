package sqlrow

import (
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// Ledger reasons of a credit move (store.Orgs.MoveCredits).
const (
	ReasonTransferOut = "transfer_out"
	ReasonTransferIn  = "transfer_in"
)

// OrgColumns are an org's columns, of orgs o (see ScanOrgRow).
const OrgColumns = `o.id, o.name, o.owner_account_id, coalesce(o.wallet_account_id, 0), o.created_at`

// ScanOrgRow scans a row of OrgColumns.
func ScanOrgRow(row Scanner) (store.Org, error) {
	var o store.Org
	var created int64
	if err := row.Scan(&o.ID, &o.Name, &o.OwnerAccountID, &o.WalletAccountID, &created); err != nil {
		return store.Org{}, err
	}
	o.CreatedAt = FromMS(created)
	return o, nil
}

// OrgMemberColumns are a membership's columns, of org_members m joined
// with accounts a on the member (see ScanOrgMember).
const OrgMemberColumns = `m.org_id, m.account_id, a.email, m.role, m.created_at`

// OrgMemberFrom is the FROM clause OrgMemberColumns are read from.
const OrgMemberFrom = `org_members m JOIN accounts a ON a.id = m.account_id`

// OrgMemberOrder lists an org's members as the seam wants them: the owner
// first, then by join time, then by account id.
const OrgMemberOrder = `CASE WHEN m.role = 'owner' THEN 0 ELSE 1 END, m.created_at, m.account_id`

// ScanOrgMember scans a row of OrgMemberColumns.
func ScanOrgMember(row Scanner) (store.OrgMember, error) {
	var m store.OrgMember
	var role string
	var created int64
	if err := row.Scan(&m.OrgID, &m.AccountID, &m.Email, &role, &created); err != nil {
		return store.OrgMember{}, err
	}
	m.Role = store.OrgRole(role)
	m.CreatedAt = FromMS(created)
	return m, nil
}

// OrgName trims an org's name; an empty one is errs.KindInvalid.
func OrgName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", errs.New(errs.KindInvalid, "store: create org: empty name")
	}
	return name, nil
}

// ValidMemberRole checks the role a member is given by AddOrgMember or
// SetOrgRole (op names it): admin or member. Owner is errs.KindInvalid
// too: ownership only moves by TransferOrg.
func ValidMemberRole(role store.OrgRole, op string) error {
	switch {
	case role == store.RoleOwner:
		return errs.New(errs.KindInvalid, "store: %s: ownership only moves by a transfer", op)
	case !role.Valid():
		return errs.New(errs.KindInvalid, "store: %s: unknown role %q", op, role)
	}
	return nil
}

// ValidCreditMove checks a move's own fields.
func ValidCreditMove(m store.CreditMove) error {
	switch {
	case m.RequestID == "":
		return errs.New(errs.KindInvalid, "store: move credits: empty request id")
	case m.Credits <= 0:
		return errs.New(errs.KindInvalid, "store: move credits: %d credits, want a positive amount", m.Credits)
	case m.From == m.To:
		return errs.New(errs.KindInvalid, "store: move credits: account %d to itself", m.From)
	}
	return nil
}

// ShortOfCredits is the error of a move From cannot afford: available is
// its balance less the credits its calls in flight hold.
func ShortOfCredits(m store.CreditMove, available int64) error {
	return errs.New(errs.KindPaymentRequired, "insufficient credits: balance %d available, the move takes %d", available, m.Credits)
}
