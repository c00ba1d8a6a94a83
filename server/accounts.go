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
	minted := apikey.New()
	acct, _, err := s.store.CreateAccount(ctx, store.NewAccount{
		Email: email, PasswordHash: password.Hash(in.Password, s.opts.Password), Plan: plan.Name,
		WebhookSecret: newWebhookSecret(), InitialCredits: plan.Credits, Now: s.now(),
	}, store.Key{Hash: minted.Hash, Prefix: minted.Display, Kind: store.KeyDeveloper, Label: "default"})
	if errs.Is(err, errs.KindConflict) {
		return nil, &errs.Error{Kind: errs.KindConflict, Field: "body.email", Message: "an account with this e-mail already exists"}
	}
	if err != nil {
		return nil, err
	}
	return &SignupResponse{User: userOf(acct, plan.MonthlyRequests), APIKey: minted.Raw}, nil
}

func (s *Server) login(ctx context.Context, in *LoginRequest) (*LoginResponse, error) {
	wrong := errs.New(errs.KindUnauthenticated, "invalid e-mail or password")
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	acct, err := s.store.AccountByEmail(ctx, email)
	if errs.Is(err, errs.KindNotFound) {
		password.Dummy(in.Password) // same time as a wrong password: no account enumeration
		return nil, wrong
	}
	if err != nil {
		return nil, err
	}
	ok, err := password.Verify(in.Password, acct.PasswordHash)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "stored password hash")
	}
	if !ok {
		return nil, wrong
	}
	minted := apikey.New()
	_, err = s.store.CreateKey(ctx, store.Key{AccountID: acct.ID, Hash: minted.Hash, Prefix: minted.Display,
		Kind: store.KeyDashboard, Label: "dashboard session " + s.now().UTC().Format(time.RFC3339), CreatedAt: s.now()})
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
	ok, err := password.Verify(in.CurrentPassword, p.account.PasswordHash)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "stored password hash")
	}
	if !ok {
		return nil, &errs.Error{Kind: errs.KindForbidden, Field: "body.current_password", Message: "does not match the account's password"}
	}
	n, err := s.store.SetPassword(ctx, p.account.ID, password.Hash(in.NewPassword, s.opts.Password), p.key.ID, s.now())
	if err != nil {
		return nil, err
	}
	return &ChangePasswordResponse{RevokedSessions: n}, nil
}
