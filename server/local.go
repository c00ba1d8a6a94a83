package server

import (
	"context"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/internal/apikey"
	"github.com/webinfra/webinfra/store"
)

// LocalKey creates the one account of an in-process server that has no
// users (`webinfra mcp` over stdio) and returns its key: the account is on
// the internal plan, so calls are neither charged nor held to a quota, and
// it has no password (stored as an OAuth-only account, the kind without
// one), so nobody can log in as it.
func (s *Server) LocalKey(ctx context.Context, email string) (string, error) {
	minted := apikey.New()
	_, _, err := s.store.CreateAccount(ctx, store.NewAccount{
		Email: email, Login: store.LoginOAuth, Plan: billing.PlanInternal, WebhookSecret: newWebhookSecret(), Now: s.now(),
	}, store.Key{Hash: minted.Hash, Prefix: minted.Display, Kind: store.KeyDeveloper, Scope: store.ScopeFull, Label: "local"})
	if err != nil {
		return "", err
	}
	return minted.Raw, nil
}
