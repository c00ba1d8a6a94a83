package server

import (
	"context"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/password"
	"github.com/webinfra/webinfra/store"
)

// Subscriptions is told about accounts that end, so a billing provider
// can stop charging them. The server calls it after the account is erased;
// an error is logged, the deletion stands.
type Subscriptions interface {
	// CancelAtPeriodEnd cancels the account's subscription, if any, at
	// its next billing date.
	CancelAtPeriodEnd(ctx context.Context, acct store.Account) error
}

// NoSubscriptions is the default Subscriptions: self-hosted servers bill
// nobody, so there is nothing to cancel.
type NoSubscriptions struct{}

// CancelAtPeriodEnd does nothing.
func (NoSubscriptions) CancelAtPeriodEnd(context.Context, store.Account) error { return nil }

// DeleteAccountRequest confirms an account's deletion: the password of a
// password account, or the e-mail of an OAuth-only account.
type DeleteAccountRequest struct {
	Password     string `json:"password,omitempty" maxLength:"1024" doc:"The account's password (password accounts)."`
	ConfirmEmail string `json:"confirm_email,omitempty" maxLength:"254" doc:"The account's e-mail, typed again (OAuth-only accounts, which have no password)."`
}

// AccountDeleted is what a deletion erased.
type AccountDeleted struct {
	Deleted       bool    `json:"deleted"`
	AccountID     int64   `json:"account_id"`
	Email         string  `json:"email"`
	CancelledJobs int     `json:"cancelled_jobs" doc:"Jobs that had not finished: they never run, their webhooks are never sent."`
	DeletedOrgs   []int64 `json:"deleted_orgs" doc:"Team organizations the account owned alone, erased with it."`
	LeftOrgs      []int64 `json:"left_orgs" doc:"Organizations the account was a member of."`
}

func (s *Server) deleteAccount(ctx context.Context, in *DeleteAccountRequest) (*AccountDeleted, error) {
	c := callFrom(ctx)
	acct := c.principal.account
	if err := s.confirmDeletion(ctx, acct, in); err != nil {
		return nil, err
	}
	// Calls already answered are logged before the log is erased.
	if err := s.usage.Flush(ctx); err != nil {
		return nil, errs.Wrap(errs.KindUnavailable, err, "could not write the usage log before erasing it")
	}
	forwarders, err := s.store.ListForwarders(ctx, acct.ID)
	if err != nil {
		return nil, err
	}
	del, err := s.store.DeleteAccount(context.WithoutCancel(ctx), acct.ID)
	if err != nil {
		return nil, err
	}
	c.erased = true // nothing more is written under the account (pipeline.go)
	for _, f := range forwarders {
		s.forwarding.Remove(acct.ID, f.ID) // spans already buffered still flush
	}
	if err := s.opts.Subscriptions.CancelAtPeriodEnd(context.WithoutCancel(ctx), acct); err != nil {
		s.log.Error("cancel the subscription of a deleted account", "account_id", acct.ID, "err", err)
	}
	return &AccountDeleted{Deleted: true, AccountID: acct.ID, Email: acct.Email, CancelledJobs: len(del.CancelledJobs),
		DeletedOrgs: nonNil(del.DeletedOrgs), LeftOrgs: nonNil(del.LeftOrgs)}, nil
}

// confirmDeletion checks what the account kind asks for.
func (s *Server) confirmDeletion(ctx context.Context, acct store.Account, in *DeleteAccountRequest) error {
	if acct.Login == store.LoginOAuth {
		if in.ConfirmEmail == "" {
			return errs.Invalid("body.confirm_email", "required: this account signs in with OAuth, so confirm with its e-mail address")
		}
		if !strings.EqualFold(strings.TrimSpace(in.ConfirmEmail), acct.Email) {
			return &errs.Error{Kind: errs.KindForbidden, Field: "body.confirm_email", Message: "does not match the account's e-mail"}
		}
		return nil
	}
	if in.Password == "" {
		return errs.Invalid("body.password", "required: confirm the deletion with the account's password")
	}
	var ok bool
	var verr error
	if err := s.hashes.run(ctx, func() { ok, verr = password.Verify(in.Password, acct.PasswordHash) }); err != nil {
		return err
	}
	if verr != nil {
		return errs.Wrap(errs.KindInternal, verr, "stored password hash")
	}
	if !ok {
		return &errs.Error{Kind: errs.KindForbidden, Field: "body.password", Message: "does not match the account's password"}
	}
	return nil
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
