package server

import (
	"context"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/apikey"
	"github.com/webinfra/webinfra/store"
)

// KeyInfo is a key as listings show it: the prefix, never the secret.
type KeyInfo struct {
	KeyID           int64          `json:"key_id"`
	Prefix          string         `json:"prefix" example:"osk_1a2b3c4d"`
	Kind            store.KeyKind  `json:"kind" enum:"developer,dashboard"`
	Scope           store.KeyScope `json:"scope" enum:"full,api" doc:"full: everything the account may do; api: capability calls and read-only account views."`
	Label           string         `json:"label"`
	ProjectTag      string         `json:"project_tag"`
	DailyCapCredits int64          `json:"daily_cap_credits" doc:"0 = no cap"`
	OrgID           *int64         `json:"org_id"`
	Active          bool           `json:"active"`
	CreatedAt       time.Time      `json:"created_at"`
	RevokedAt       *time.Time     `json:"revoked_at"`
	LastUsedAt      *time.Time     `json:"last_used_at" doc:"The last authenticated call, to the minute; null when never used."`
}

func keyInfo(k store.Key) KeyInfo {
	info := KeyInfo{KeyID: k.ID, Prefix: k.Prefix, Kind: k.Kind, Scope: k.Scope, Label: k.Label, ProjectTag: k.ProjectTag,
		DailyCapCredits: k.DailyCapCredits, Active: k.Active(), CreatedAt: k.CreatedAt.UTC()}
	if k.OrgID != 0 {
		info.OrgID = &k.OrgID
	}
	if !k.Active() {
		t := k.RevokedAt.UTC()
		info.RevokedAt = &t
	}
	if !k.LastUsedAt.IsZero() {
		t := k.LastUsedAt.UTC()
		info.LastUsedAt = &t
	}
	return info
}

// KeyList is the caller's keys.
type KeyList struct {
	Keys []KeyInfo `json:"keys"`
}

// CreateKeyRequest mints a developer key.
type CreateKeyRequest struct {
	Label           string `json:"label,omitempty" maxLength:"200"`
	ProjectTag      string `json:"project_tag,omitempty" maxLength:"100"`
	DailyCapCredits int64  `json:"daily_cap_credits,omitempty" minimum:"0" doc:"Credits this key may spend per UTC day; 0 = no cap."`
	OrgID           int64  `json:"org_id,omitempty" minimum:"1" doc:"A team organization the caller is a member of (at creation only)."`
	Scope           string `json:"scope,omitempty" enum:"api,full" default:"api" doc:"api (default): capability calls and read-only account views; full: also managing keys, secrets and the password."`
}

// UpdateKeyRequest changes a key's settable fields; absent fields stay.
type UpdateKeyRequest struct {
	Label           *string `json:"label,omitempty" maxLength:"200"`
	ProjectTag      *string `json:"project_tag,omitempty" maxLength:"100" doc:"An empty string clears the tag."`
	DailyCapCredits *int64  `json:"daily_cap_credits,omitempty" minimum:"0" doc:"0 removes the cap."`
	OrgID           *int64  `json:"org_id,omitempty" doc:"Not settable: a key's organization is fixed at creation (422)."`
}

// MintedKey is a new key with its raw value, shown once.
type MintedKey struct {
	Key    KeyInfo `json:"key"`
	APIKey string  `json:"api_key" doc:"The raw key. Shown once; only its hash is stored."`
}

// KeyOutput wraps one key's metadata.
type KeyOutput struct {
	Key KeyInfo `json:"key"`
}

type keyIDPath struct {
	KeyID int64 `path:"key_id" minimum:"1"`
}

type updateKeyInput struct {
	KeyID int64 `path:"key_id" minimum:"1"`
	Body  UpdateKeyRequest
}

func (s *Server) listKeys(ctx context.Context, _ *struct{}) (*bodyOutput[KeyList], error) {
	p := callFrom(ctx).principal
	keys, err := s.store.ListKeys(ctx, p.account.ID)
	if err != nil {
		return nil, err
	}
	out := KeyList{Keys: make([]KeyInfo, 0, len(keys))}
	for _, k := range keys {
		out.Keys = append(out.Keys, keyInfo(k))
	}
	return reply(&out), nil
}

func (s *Server) createKey(ctx context.Context, in *CreateKeyRequest) (*MintedKey, error) {
	p := callFrom(ctx).principal
	if in.OrgID != 0 {
		member, err := s.store.IsOrgMember(ctx, in.OrgID, p.account.ID)
		if err != nil {
			return nil, err
		}
		if !member {
			return nil, &errs.Error{Kind: errs.KindForbidden, Field: "body.org_id", Message: "you are not a member of this organization"}
		}
	}
	scope := store.KeyScope(in.Scope)
	if scope == "" {
		scope = store.ScopeAPI
	}
	minted := apikey.New()
	k, err := s.store.CreateKey(ctx, store.Key{AccountID: p.account.ID, Hash: minted.Hash, Prefix: minted.Display,
		Kind: store.KeyDeveloper, Scope: scope, Label: in.Label, ProjectTag: in.ProjectTag, DailyCapCredits: in.DailyCapCredits, OrgID: in.OrgID, CreatedAt: s.now()})
	if err != nil {
		return nil, err
	}
	return &MintedKey{Key: keyInfo(k), APIKey: minted.Raw}, nil
}

func (s *Server) updateKey(ctx context.Context, in *updateKeyInput) (*bodyOutput[KeyOutput], error) {
	if in.Body.OrgID != nil {
		return nil, errs.Invalid("body.org_id", "can only be set when the key is created")
	}
	p := callFrom(ctx).principal
	k, err := s.store.UpdateKey(ctx, p.account.ID, in.KeyID, store.KeyUpdate{
		Label: in.Body.Label, ProjectTag: in.Body.ProjectTag, DailyCapCredits: in.Body.DailyCapCredits})
	if err != nil {
		return nil, keyNotFound(err, in.KeyID)
	}
	return reply(&KeyOutput{Key: keyInfo(k)}), nil
}

func (s *Server) revokeKey(ctx context.Context, in *keyIDPath) (*bodyOutput[KeyOutput], error) {
	p := callFrom(ctx).principal
	k, err := s.store.RevokeKey(ctx, p.account.ID, in.KeyID, s.now())
	if err != nil {
		return nil, keyNotFound(err, in.KeyID)
	}
	return reply(&KeyOutput{Key: keyInfo(k)}), nil
}

func (s *Server) rotateKey(ctx context.Context, in *keyIDPath) (*bodyOutput[MintedKey], error) {
	p := callFrom(ctx).principal
	minted := apikey.New()
	k, err := s.store.RotateKey(ctx, p.account.ID, in.KeyID, store.Key{Hash: minted.Hash, Prefix: minted.Display}, s.now())
	if err != nil {
		return nil, keyNotFound(err, in.KeyID)
	}
	return reply(&MintedKey{Key: keyInfo(k), APIKey: minted.Raw}), nil
}

func keyNotFound(err error, id int64) error {
	if errs.Is(err, errs.KindNotFound) {
		return errs.NotFound("no key %d in this account", id)
	}
	return err
}
