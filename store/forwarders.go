package store

import (
	"context"
	"time"
)

// Forwarder is an account's telemetry destination: an OTLP/HTTP traces
// endpoint the server exports a span per call to. The auth value and the
// extra headers are sealed by the server before they are stored; the
// store keeps the bytes as given.
type Forwarder struct {
	ID            int64
	AccountID     int64
	Name          string
	Endpoint      string // the OTLP/HTTP traces URL
	AuthHeader    string // e.g. "Authorization"; "" when none
	AuthSealed    []byte // the sealed auth value; nil when none
	HeadersSealed []byte // the sealed JSON object of extra headers; nil when none
	CreatedAt     time.Time
	LastTest      ForwarderTest // zero until tested
}

// ForwarderTest is the outcome of the last test span.
type ForwarderTest struct {
	At     time.Time // zero when never tested
	Status string    // "ok" or "failed"
	Detail string
}

// Forwarders stores telemetry forwarders, scoped to their account.
type Forwarders interface {
	// CreateForwarder stores f (ID assigned; CreatedAt is the caller's).
	// An account that already has limit forwarders is
	// errs.KindConflict; an unknown account errs.KindNotFound.
	CreateForwarder(ctx context.Context, f Forwarder, limit int) (Forwarder, error)
	// ListForwarders returns the account's forwarders, oldest first.
	ListForwarders(ctx context.Context, accountID int64) ([]Forwarder, error)
	// Forwarder finds one of the account's forwarders; another account's
	// is errs.KindNotFound.
	Forwarder(ctx context.Context, accountID, forwarderID int64) (Forwarder, error)
	// DeleteForwarder removes one of the account's forwarders (another
	// account's is errs.KindNotFound).
	DeleteForwarder(ctx context.Context, accountID, forwarderID int64) error
	// RecordForwarderTest stores the outcome of a test span and returns
	// the forwarder.
	RecordForwarderTest(ctx context.Context, accountID, forwarderID int64, t ForwarderTest) (Forwarder, error)
}
