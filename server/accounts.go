package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/mail"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/apikey"
	"github.com/webinfra/webinfra/internal/password"
	"github.com/webinfra/webinfra/store"
)

// SignupRequest creates an account.
type SignupRequest struct {
	Email    string `json:"email" maxLength:"254" example:"ada@example.com" doc:"The account e-mail (case-insensitive)."`
	Password string `json:"password" minLength:"8" maxLength:"256" doc:"At least 8 characters."`
}

// LoginRequest opens a dashboard session.
type LoginRequest struct {
	Email    string `json:"email" maxLength:"254"`
	Password string `json:"password" maxLength:"256"`
}

// User is the public view of an account.
type User struct {
	Email string `json:"email"`
	Plan  string `json:"plan"`
	Limit int64  `json:"limit" doc:"The plan's monthly request quota (0 = unlimited)."`
}

// SignupResponse carries the first developer key, shown only here.
type SignupResponse struct {
	User   User   `json:"user"`
	APIKey string `json:"api_key" doc:"A developer key (osk_...). Shown once; only its hash is stored."`
}

// LoginResponse carries a dashboard session key.
type LoginResponse struct {
	APIKey string `json:"api_key" doc:"A dashboard key (osk_...) for this browser session. Shown once."`
}

func (s *Server) signup(ctx context.Context, in *SignupRequest) (*SignupResponse, error) {
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	plan, err := s.opts.Billing.Plan(s.opts.Billing.DefaultPlan)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "default plan")
	}
	var hash string
	if err := s.hashes.run(ctx, func() { hash = password.Hash(in.Password, s.opts.Password) }); err != nil {
		return nil, err
	}
	minted := apikey.New()
	acct, _, err := s.store.CreateAccount(ctx, store.NewAccount{
		Email: email, PasswordHash: hash, Plan: plan.Name,
		WebhookSecret: newWebhookSecret(), InitialCredits: plan.Credits, Now: s.now(),
	}, store.Key{Hash: minted.Hash, Prefix: minted.Display, Kind: store.KeyDeveloper, Scope: store.ScopeFull, Label: "default"})
	if errs.Is(err, errs.KindConflict) {
		return nil, &errs.Error{Kind: errs.KindConflict, Field: "body.email", Message: "an account with this e-mail already exists"}
	}
	if err != nil {
		return nil, err
	}
	return &SignupResponse{User: userOf(acct, plan.MonthlyRequests), APIKey: minted.Raw}, nil
}

// login checks the password under the failed-login throttle: an e-mail
// locked out after repeated failures is refused (429) before any hashing,
// and every failure is logged with the client's address.
func (s *Server) login(ctx context.Context, in *LoginRequest) (*LoginResponse, error) {
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	if wait := s.logins.lockedOut(email); wait > 0 {
		return nil, errs.RetryLater(errs.KindRateLimited, wait, "too many failed logins for this e-mail; retry after %s", wait.Round(time.Second))
	}
	acct, err := s.store.AccountByEmail(ctx, email)
	known := err == nil
	if err != nil && !errs.Is(err, errs.KindNotFound) {
		return nil, err
	}
	var ok bool
	var verr error
	err = s.hashes.run(ctx, func() {
		if known {
			ok, verr = password.Verify(in.Password, acct.PasswordHash)
		} else {
			password.Dummy(in.Password, s.opts.Password) // same time as a wrong password: no account enumeration
		}
	})
	if err != nil {
		return nil, err
	}
	if verr != nil {
		return nil, errs.Wrap(errs.KindInternal, verr, "stored password hash")
	}
	if !ok {
		lockout := s.logins.failed(email)
		c := callFrom(ctx)
		s.log.Warn("login failed", "account_id", acct.ID, "known_account", known, "client", c.client,
			"request_id", c.requestID, "lockout", lockout)
		return nil, errs.New(errs.KindUnauthenticated, "invalid e-mail or password")
	}
	s.logins.succeeded(email)
	minted := apikey.New()
	_, err = s.store.CreateKey(ctx, store.Key{AccountID: acct.ID, Hash: minted.Hash, Prefix: minted.Display,
		Kind: store.KeyDashboard, Scope: store.ScopeFull, Label: "dashboard session " + s.now().UTC().Format(time.RFC3339), CreatedAt: s.now()})
	if err != nil {
		return nil, err
	}
	return &LoginResponse{APIKey: minted.Raw}, nil
}

func normalizeEmail(raw string) (string, error) {
	email := strings.ToLower(strings.TrimSpace(raw))
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || !strings.Contains(email[strings.LastIndexByte(email, '@'):], ".") {
		return "", errs.Invalid("body.email", "%q is not an e-mail address", raw)
	}
	return email, nil
}

func newWebhookSecret() string {
	b := make([]byte, 32)
	rand.Read(b)
	return "whsec_" + hex.EncodeToString(b)
}

func userOf(a store.Account, limit int64) User {
	return User{Email: a.Email, Plan: a.Plan, Limit: limit}
}

// ChangePasswordRequest replaces the account's password.
type ChangePasswordRequest struct {
	CurrentPassword string `json:"current_password" maxLength:"256"`
	NewPassword     string `json:"new_password" minLength:"8" maxLength:"256" doc:"At least 8 characters."`
}

// ChangePasswordResponse says how many other browser sessions were ended.
type ChangePasswordResponse struct {
	RevokedSessions int `json:"revoked_sessions" doc:"Dashboard keys revoked; the calling key and developer keys stay."`
}

func (s *Server) changePassword(ctx context.Context, in *ChangePasswordRequest) (*ChangePasswordResponse, error) {
	p := callFrom(ctx).principal
	var ok bool
	var verr error
	var hash string
	err := s.hashes.run(ctx, func() {
		if ok, verr = password.Verify(in.CurrentPassword, p.account.PasswordHash); ok {
			hash = password.Hash(in.NewPassword, s.opts.Password)
		}
	})
	if err != nil {
		return nil, err
	}
	if verr != nil {
		return nil, errs.Wrap(errs.KindInternal, verr, "stored password hash")
	}
	if !ok {
		return nil, &errs.Error{Kind: errs.KindForbidden, Field: "body.current_password", Message: "does not match the account's password"}
	}
	n, err := s.store.SetPassword(ctx, p.account.ID, hash, p.key.ID, s.now())
	if err != nil {
		return nil, err
	}
	return &ChangePasswordResponse{RevokedSessions: n}, nil
}
