package server

import (
	"context"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// fullScope marks an operation that only a key of scope full may call:
// managing keys, secrets, the password and organizations. Everything else
// (capabilities, read-only account views) is open to scope api too.
func fullScope(o Operation) Operation { o.FullScope = true; return o }

// requiredScope is the scope an operation needs, as x-required-scope says.
func (o *Operation) requiredScope() store.KeyScope {
	if o.FullScope {
		return store.ScopeFull
	}
	return store.ScopeAPI
}

// checkScope refuses a key whose scope is narrower than the operation's.
func checkScope(op *Operation, key store.Key) error {
	if op.FullScope && key.Scope != store.ScopeFull {
		return errs.New(errs.KindForbidden, "%s %s needs a key with scope full; this key has scope %s (mint one with a full key: POST /v1/keys {\"scope\": \"full\"})",
			op.Method, op.Path, key.Scope)
	}
	return nil
}

// touchEvery is how often a key's last use is written: at most once a
// minute per key, not once per call.
const touchEvery = time.Minute

// checkIdle refuses a dashboard key (a browser session) unused for longer
// than Limits.DashboardKeyIdle, and records the key's use (coalesced).
func (s *Server) checkIdle(ctx context.Context, key store.Key) error {
	now := s.now()
	last := key.LastUsedAt
	if last.IsZero() {
		last = key.CreatedAt
	}
	if idle := s.opts.Billing.Limits.DashboardKeyIdle(); key.Kind == store.KeyDashboard && now.Sub(last) > idle {
		return errs.New(errs.KindUnauthenticated, "this dashboard session expired after %d days without use; log in again", int(idle.Hours()/24))
	}
	if now.Sub(key.LastUsedAt) >= touchEvery {
		if err := s.store.TouchKey(ctx, key.ID, now); err != nil {
			s.log.Warn("record key use", "key_id", key.ID, "err", err)
		}
	}
	return nil
}
