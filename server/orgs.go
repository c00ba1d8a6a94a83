package server

import (
	"context"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// Bounds on organizations, so no caller can grow one without limit.
const (
	maxOwnedOrgs  = 20   // team organizations one account may own
	maxOrgMembers = 1000 // members of one organization
)

// OrgRequest creates a team organization.
type OrgRequest struct {
	Name string `json:"name" minLength:"1" maxLength:"200"`
}

// OrgInfo is a team organization as one of its members sees it.
type OrgInfo struct {
	OrgID     int64         `json:"org_id"`
	Name      string        `json:"name"`
	Role      store.OrgRole `json:"role" enum:"owner,admin,member" doc:"The caller's role."`
	Owner     bool          `json:"owner" doc:"Whether the caller owns it."`
	CreatedAt time.Time     `json:"created_at"`
}

// OrgList is the organizations the caller belongs to.
type OrgList struct {
	Orgs []OrgInfo `json:"orgs"`
}

// OrgMemberInfo is one member of an organization.
type OrgMemberInfo struct {
	AccountID int64         `json:"account_id"`
	Email     string        `json:"email"`
	Role      store.OrgRole `json:"role" enum:"owner,admin,member"`
	JoinedAt  time.Time     `json:"joined_at"`
}

// OrgDetail is an organization with its members and credit balance.
type OrgDetail struct {
	OrgInfo
	Credits int64           `json:"credits" doc:"The organization's balance: what its keys' calls spend."`
	Members []OrgMemberInfo `json:"members" doc:"Owner first, then by join time."`
}

// AddOrgMemberRequest adds an existing account to an organization.
type AddOrgMemberRequest struct {
	Email string `json:"email" format:"email" minLength:"3" maxLength:"254" doc:"The e-mail of an existing account."`
	Role  string `json:"role,omitempty" enum:"admin,member" default:"member"`
}

// SetOrgRoleRequest changes a member's role (the owner's changes only by
// transfer).
type SetOrgRoleRequest struct {
	Role string `json:"role" enum:"admin,member"`
}

// OrgTransferRequest names the member who becomes the owner.
type OrgTransferRequest struct {
	AccountID int64 `json:"account_id" minimum:"1" doc:"A member of the organization; the old owner becomes an admin."`
}

// OrgCreditsRequest moves credits from the caller's balance into the
// organization's.
type OrgCreditsRequest struct {
	Credits int64 `json:"credits" minimum:"1" maximum:"1000000000"`
}

// OrgCreditsMoved is the outcome of a move.
type OrgCreditsMoved struct {
	Moved      int64 `json:"moved"`
	Balance    int64 `json:"balance" doc:"The caller's balance after the move."`
	OrgCredits int64 `json:"org_credits" doc:"The organization's balance after the move."`
}

// MemberRemoved is the outcome of a removal or of leaving.
type MemberRemoved struct {
	AccountID   int64 `json:"account_id"`
	RevokedKeys int   `json:"revoked_keys" doc:"The member's keys of this organization, revoked with the membership."`
}

type orgMemberPath struct {
	OrgID     int64 `path:"org_id" minimum:"1"`
	AccountID int64 `path:"account_id" minimum:"1"`
}

type orgBody[B any] struct {
	OrgID int64 `path:"org_id" minimum:"1"`
	Body  B
}

type orgMemberBody[B any] struct {
	OrgID     int64 `path:"org_id" minimum:"1"`
	AccountID int64 `path:"account_id" minimum:"1"`
	Body      B
}

// orgPage and orgUsageQuery repeat the fields of page and usageQuery:
// huma reads no parameters from embedded unexported structs.
type orgPage struct {
	OrgID  int64 `path:"org_id" minimum:"1"`
	Limit  int   `query:"limit" default:"50" minimum:"1" maximum:"1000"`
	Offset int   `query:"offset" default:"0" minimum:"0"`
}

type orgUsageQuery struct {
	OrgID    int64  `path:"org_id" minimum:"1"`
	Limit    int    `query:"limit" default:"50" minimum:"1" maximum:"100000" doc:"Rows to return (JSON pages are capped at 1000)."`
	Offset   int    `query:"offset" default:"0" minimum:"0"`
	Endpoint string `query:"endpoint" maxLength:"300" doc:"Only calls of this endpoint path, e.g. /v1/scrape."`
	Format   string `query:"format" default:"json" enum:"json,csv" doc:"csv streams text/csv with the same filters."`
}

func orgInfo(o store.Org, role store.OrgRole, accountID int64) OrgInfo {
	return OrgInfo{OrgID: o.ID, Name: o.Name, Role: role, Owner: o.OwnerAccountID == accountID, CreatedAt: o.CreatedAt.UTC()}
}

func memberInfo(m store.OrgMember) OrgMemberInfo {
	return OrgMemberInfo{AccountID: m.AccountID, Email: m.Email, Role: m.Role, JoinedAt: m.CreatedAt.UTC()}
}

// orgAs finds the org for the caller, who must be a member (else 404: an
// org of others is not shown to exist) with one of roles (else 403).
func (s *Server) orgAs(ctx context.Context, orgID int64, roles ...store.OrgRole) (store.Org, store.OrgMember, error) {
	p := callFrom(ctx).principal
	m, err := s.store.OrgMember(ctx, orgID, p.account.ID)
	if errs.Is(err, errs.KindNotFound) {
		return store.Org{}, store.OrgMember{}, errs.NotFound("no organization %d among yours", orgID)
	}
	if err != nil {
		return store.Org{}, store.OrgMember{}, err
	}
	if len(roles) > 0 && !hasRole(m.Role, roles) {
		return store.Org{}, store.OrgMember{}, errs.New(errs.KindForbidden, "this needs the role %s in the organization; yours is %s", rolesText(roles), m.Role)
	}
	org, err := s.store.OrgByID(ctx, orgID)
	return org, m, err
}

func hasRole(r store.OrgRole, roles []store.OrgRole) bool {
	for _, want := range roles {
		if r == want {
			return true
		}
	}
	return false
}

func rolesText(roles []store.OrgRole) string {
	out := ""
	for i, r := range roles {
		if i > 0 {
			out += " or "
		}
		out += string(r)
	}
	return out
}

func (s *Server) createOrg(ctx context.Context, in *OrgRequest) (*OrgInfo, error) {
	p := callFrom(ctx).principal
	orgs, err := s.store.ListOrgs(ctx, p.account.ID)
	if err != nil {
		return nil, err
	}
	owned := 0
	for _, o := range orgs {
		if o.OwnerAccountID == p.account.ID {
			owned++
		}
	}
	if owned >= maxOwnedOrgs {
		return nil, errs.New(errs.KindConflict, "you already own %d organizations, the limit", maxOwnedOrgs)
	}
	o, err := s.store.CreateOrg(ctx, p.account.ID, in.Name, s.now())
	if err != nil {
		return nil, err
	}
	info := orgInfo(o, store.RoleOwner, p.account.ID)
	return &info, nil
}

func (s *Server) listOrgs(ctx context.Context, _ *struct{}) (*bodyOutput[OrgList], error) {
	p := callFrom(ctx).principal
	orgs, err := s.store.ListOrgs(ctx, p.account.ID)
	if err != nil {
		return nil, err
	}
	out := OrgList{Orgs: make([]OrgInfo, 0, len(orgs))}
	for _, o := range orgs {
		m, err := s.store.OrgMember(ctx, o.ID, p.account.ID)
		if err != nil {
			return nil, err
		}
		out.Orgs = append(out.Orgs, orgInfo(o, m.Role, p.account.ID))
	}
	return reply(&out), nil
}

func (s *Server) getOrg(ctx context.Context, in *orgIDPath) (*bodyOutput[OrgDetail], error) {
	org, me, err := s.orgAs(ctx, in.OrgID)
	if err != nil {
		return nil, err
	}
	members, err := s.store.OrgMembers(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	bal, err := s.store.Balance(ctx, org.WalletAccountID)
	if err != nil {
		return nil, err
	}
	out := OrgDetail{OrgInfo: orgInfo(org, me.Role, me.AccountID), Credits: bal, Members: make([]OrgMemberInfo, 0, len(members))}
	for _, m := range members {
		out.Members = append(out.Members, memberInfo(m))
	}
	return reply(&out), nil
}

func (s *Server) addOrgMember(ctx context.Context, in *orgBody[AddOrgMemberRequest]) (*bodyOutput[OrgMemberInfo], error) {
	org, _, err := s.orgAs(ctx, in.OrgID, store.RoleOwner, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	members, err := s.store.OrgMembers(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	if len(members) >= maxOrgMembers {
		return nil, errs.New(errs.KindConflict, "the organization has %d members, the limit", maxOrgMembers)
	}
	acct, err := s.store.AccountByEmail(ctx, in.Body.Email)
	if errs.Is(err, errs.KindNotFound) {
		return nil, &errs.Error{Kind: errs.KindNotFound, Field: "body.email", Message: "no account with this e-mail: the person signs up first"}
	}
	if err != nil {
		return nil, err
	}
	role := store.OrgRole(in.Body.Role)
	if role == "" {
		role = store.RoleMember
	}
	m, err := s.store.AddOrgMember(ctx, org.ID, acct.ID, role, s.now())
	if errs.Is(err, errs.KindConflict) {
		return nil, &errs.Error{Kind: errs.KindConflict, Field: "body.email", Message: "already a member of this organization"}
	}
	if err != nil {
		return nil, err
	}
	info := memberInfo(m)
	return reply(&info), nil
}

func (s *Server) setOrgRole(ctx context.Context, in *orgMemberBody[SetOrgRoleRequest]) (*bodyOutput[OrgMemberInfo], error) {
	org, _, err := s.orgAs(ctx, in.OrgID, store.RoleOwner)
	if err != nil {
		return nil, err
	}
	m, err := s.store.SetOrgRole(ctx, org.ID, in.AccountID, store.OrgRole(in.Body.Role))
	if errs.Is(err, errs.KindConflict) {
		return nil, errs.New(errs.KindConflict, "the owner's role changes only by a transfer (POST /v1/orgs/%d/transfer)", org.ID)
	}
	if err != nil {
		return nil, memberNotFound(err, in.AccountID)
	}
	info := memberInfo(m)
	return reply(&info), nil
}

// removeOrgMember removes a member, or lets the caller leave. The owner
// removes anyone but themself, an admin removes members, everyone may
// leave except the owner.
func (s *Server) removeOrgMember(ctx context.Context, in *orgMemberPath) (*bodyOutput[MemberRemoved], error) {
	org, me, err := s.orgAs(ctx, in.OrgID)
	if err != nil {
		return nil, err
	}
	if in.AccountID != me.AccountID {
		target, err := s.store.OrgMember(ctx, org.ID, in.AccountID)
		if err != nil {
			return nil, memberNotFound(err, in.AccountID)
		}
		if me.Role == store.RoleMember || me.Role == store.RoleAdmin && target.Role != store.RoleMember {
			return nil, errs.New(errs.KindForbidden, "a %s cannot remove a %s", me.Role, target.Role)
		}
	}
	n, err := s.store.RemoveOrgMember(ctx, org.ID, in.AccountID, s.now())
	if errs.Is(err, errs.KindConflict) {
		return nil, errs.New(errs.KindConflict, "the owner cannot leave the organization: transfer it first (POST /v1/orgs/%d/transfer)", org.ID)
	}
	if err != nil {
		return nil, memberNotFound(err, in.AccountID)
	}
	return reply(&MemberRemoved{AccountID: in.AccountID, RevokedKeys: n}), nil
}

func (s *Server) transferOrg(ctx context.Context, in *orgBody[OrgTransferRequest]) (*bodyOutput[OrgInfo], error) {
	org, me, err := s.orgAs(ctx, in.OrgID, store.RoleOwner)
	if err != nil {
		return nil, err
	}
	if in.Body.AccountID == me.AccountID {
		return nil, errs.Invalid("body.account_id", "you already own this organization")
	}
	org, err = s.store.TransferOrg(ctx, org.ID, in.Body.AccountID)
	if errs.Is(err, errs.KindNotFound) {
		return nil, errs.Invalid("body.account_id", "account %d is not a member of this organization: add it first", in.Body.AccountID)
	}
	if err != nil {
		return nil, err
	}
	info := orgInfo(org, store.RoleAdmin, me.AccountID)
	return reply(&info), nil
}

func (s *Server) fundOrg(ctx context.Context, in *orgBody[OrgCreditsRequest]) (*bodyOutput[OrgCreditsMoved], error) {
	org, _, err := s.orgAs(ctx, in.OrgID)
	if err != nil {
		return nil, err
	}
	c := callFrom(ctx)
	bal, err := s.store.MoveCredits(ctx, store.CreditMove{RequestID: c.requestID, From: c.principal.account.ID,
		To: org.WalletAccountID, Credits: in.Body.Credits, Now: s.now()})
	if err != nil {
		return nil, err
	}
	orgBal, err := s.store.Balance(ctx, org.WalletAccountID)
	if err != nil {
		return nil, err
	}
	return reply(&OrgCreditsMoved{Moved: in.Body.Credits, Balance: bal, OrgCredits: orgBal}), nil
}

func (s *Server) orgCredits(ctx context.Context, in *orgPage) (*bodyOutput[CreditsResponse], error) {
	org, _, err := s.orgAs(ctx, in.OrgID, store.RoleOwner, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	return s.creditsOf(ctx, org.WalletAccountID, &page{Limit: in.Limit, Offset: in.Offset})
}

func (s *Server) orgUsage(ctx context.Context, in *orgUsageQuery) (*huma.StreamResponse, error) {
	org, _, err := s.orgAs(ctx, in.OrgID, store.RoleOwner, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	return s.usageOf(ctx, org.WalletAccountID, &usageQuery{Limit: in.Limit, Offset: in.Offset, Endpoint: in.Endpoint, Format: in.Format})
}

func memberNotFound(err error, accountID int64) error {
	if errs.Is(err, errs.KindNotFound) {
		return errs.NotFound("account %d is not a member of this organization", accountID)
	}
	return err
}
