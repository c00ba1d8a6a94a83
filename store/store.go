package store

import (
	"context"
	"net/http"
	"time"
)

// Store is the whole storage seam. Drivers implement it; the server
// consumes it.
type Store interface {
	Accounts
	Keys
	Orgs
	Credits
	Usage
	Idempotency
	Jobs
	Webhooks
	Forwarders
	Close() error
}

// AccountKind tells a person from the wallet of a team organization.
type AccountKind string

// Account kinds.
const (
	// AccountUser is a person: signs in, owns keys, jobs and forwarders.
	AccountUser AccountKind = "user"
	// AccountOrg is a team organization's wallet: the balance, ledger and
	// usage log its org keys' calls are charged to. It never signs in;
	// CreateOrg makes it and AccountByEmail never finds it.
	AccountOrg AccountKind = "org"
)

// Login is how a person signs in.
type Login string

// Logins. An OAuth-only account has no password (PasswordHash is empty)
// and confirms its deletion with its e-mail address instead.
const (
	LoginPassword Login = "password"
	LoginOAuth    Login = "oauth"
)

// Account is a customer account (one user), or an org's wallet.
type Account struct {
	ID            int64
	Email         string // lower-cased; "org:<org id>" for a wallet
	PasswordHash  string // PHC-style argon2id string; "" for OAuth-only accounts and wallets
	Plan          string
	WebhookSecret string // whsec_<hex>
	Kind          AccountKind
	Login         Login
	CreatedAt     time.Time
}

// NewAccount is what sign-up stores.
type NewAccount struct {
	Email          string
	PasswordHash   string // required for LoginPassword, empty for LoginOAuth
	Login          Login  // "" is LoginPassword
	Plan           string
	WebhookSecret  string
	InitialCredits int64 // granted with a ledger row of reason "signup_grant"
	Now            time.Time
}

// Deletion is what DeleteAccount erased.
type Deletion struct {
	// CancelledJobs are the account's jobs that had not finished: erased
	// with the rest, so they never run (a worker that picks one up finds
	// no record) and their webhooks are never sent.
	CancelledJobs []string
	// DeletedOrgs are the team organizations the account owned with no
	// other member, erased with their wallets, keys and usage.
	DeletedOrgs []int64
	// LeftOrgs are the organizations the account was a member of.
	LeftOrgs []int64
}

// Accounts stores accounts.
type Accounts interface {
	// CreateAccount stores the account, its initial credit grant and its
	// first key in one transaction. firstKey.AccountID is filled in. A
	// taken e-mail is errs.KindConflict.
	CreateAccount(ctx context.Context, acct NewAccount, firstKey Key) (Account, Key, error)
	AccountByID(ctx context.Context, id int64) (Account, error)
	AccountByEmail(ctx context.Context, email string) (Account, error)
	SetWebhookSecret(ctx context.Context, accountID int64, secret string) error
	// SetPassword stores a new password hash and revokes every active
	// dashboard key of the account except keepKeyID (the caller's session),
	// in one transaction, returning how many were revoked. Developer keys
	// stay.
	SetPassword(ctx context.Context, accountID int64, passwordHash string, keepKeyID int64, now time.Time) (revoked int, err error)
	// DeleteAccount erases a person's account in one transaction: its
	// keys, credit ledger and counters, usage log, idempotency records,
	// jobs, webhook deliveries and their log, forwarders, memberships,
	// the orgs it owns alone (with their wallets and everything charged to
	// them), and the account row; its holds are dropped. When it owns a
	// team org that still has other members it is errs.KindConflict naming
	// the org, and nothing changes. An unknown account or a wallet is
	// errs.KindNotFound.
	DeleteAccount(ctx context.Context, accountID int64) (Deletion, error)
}

// KeyKind tells a dashboard session key from a developer key.
type KeyKind string

// Key kinds.
const (
	KeyDeveloper KeyKind = "developer" // minted for programs (sign-up, POST /v1/keys)
	KeyDashboard KeyKind = "dashboard" // a browser session (login)
)

// KeyScope is what a key may do.
type KeyScope string

// Key scopes.
const (
	// ScopeFull may do everything the account may: the first key of a
	// sign-up, dashboard keys, and keys minted with scope full.
	ScopeFull KeyScope = "full"
	// ScopeAPI may call capabilities and read the account's views, but not
	// manage keys, secrets, passwords or organizations.
	ScopeAPI KeyScope = "api"
)

// Key is an API key. Only the SHA-256 hash of the raw key is stored.
type Key struct {
	ID              int64
	AccountID       int64
	Hash            []byte // SHA-256 of the raw key, 32 bytes, unique
	Prefix          string // the first characters of the raw key, for display
	Kind            KeyKind
	Scope           KeyScope // "" is stored as ScopeAPI
	Label           string
	ProjectTag      string
	DailyCapCredits int64 // 0 = no cap
	OrgID           int64 // 0 = personal key
	CreatedAt       time.Time
	RevokedAt       time.Time // zero while active
	LastUsedAt      time.Time // zero until first used (TouchKey)
}

// Active reports whether the key has not been revoked.
func (k Key) Active() bool { return k.RevokedAt.IsZero() }

// KeyUpdate changes a key's settable fields; nil leaves a field alone.
type KeyUpdate struct {
	Label           *string
	ProjectTag      *string // "" clears it
	DailyCapCredits *int64  // 0 removes the cap
}

// Keys stores API keys.
type Keys interface {
	// CreateKey stores k; ID is assigned. k.CreatedAt is the caller's
	// clock (drivers fall back to their own only when it is zero).
	CreateKey(ctx context.Context, k Key) (Key, error)
	// KeyByHash finds a key, active or revoked, by the hash of its raw
	// value; unknown hashes are errs.KindNotFound.
	KeyByHash(ctx context.Context, hash []byte) (Key, error)
	// KeyAndAccount is KeyByHash and AccountByID of its account in one
	// lookup, what every authenticated call needs; an unknown hash is
	// errs.KindNotFound.
	KeyAndAccount(ctx context.Context, hash []byte) (Key, Account, error)
	// ListKeys returns the account's keys, active and revoked, oldest first.
	ListKeys(ctx context.Context, accountID int64) ([]Key, error)
	UpdateKey(ctx context.Context, accountID, keyID int64, u KeyUpdate) (Key, error)
	// RevokeKey sets RevokedAt (revoking twice keeps the first time).
	RevokeKey(ctx context.Context, accountID, keyID int64, now time.Time) (Key, error)
	// TouchKey records that the key was used at now (LastUsedAt). Callers
	// coalesce: it is not meant to run on every call.
	TouchKey(ctx context.Context, keyID int64, now time.Time) error
	// RotateKey stores replacement with the old key's label, project tag,
	// org, daily cap, kind and scope, and revokes the old key, in one
	// transaction.
	// Only Hash and Prefix of replacement are used. Rotating a revoked
	// key is errs.KindConflict.
	RotateKey(ctx context.Context, accountID, keyID int64, replacement Key, now time.Time) (Key, error)
}

// Reservation asks to hold credits and one request of quota for a call
// that is about to run.
type Reservation struct {
	RequestID    string // unique; names the hold
	AccountID    int64
	KeyID        int64
	Credits      int64 // sticker cost, > 0
	MonthlyQuota int64 // billable requests per calendar month; 0 = unlimited
	DailyCap     int64 // the key's credits per day; 0 = no cap
	Unmetered    bool  // an internal bypass plan: nothing is checked or held
	Now          time.Time
	TTL          time.Duration // a hold older than this no longer counts
}

// Settlement turns a hold into a charge. Holds are named by request id
// alone: request ids are 128-bit random values, unique across accounts.
type Settlement struct {
	RequestID string
	Charged   int64 // <= the held credits; 0 records the request but no ledger row
	Endpoint  string
	Now       time.Time
}

// LedgerEntry is one row of the append-only credit ledger.
type LedgerEntry struct {
	ID        int64     `json:"id"`
	Delta     int64     `json:"delta"`   // negative for charges
	Balance   int64     `json:"balance"` // after this entry
	Reason    string    `json:"reason"`  // signup_grant, charge, grant
	Endpoint  string    `json:"endpoint,omitempty"`
	RequestID string    `json:"request_id,omitempty"`
	KeyID     int64     `json:"key_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// Credits keeps balances, holds, quotas, daily caps and the ledger.
type Credits interface {
	// Reserve checks, in this order, the monthly quota
	// (errs.KindQuotaExceeded, message naming "monthly request quota"),
	// the key's daily cap (errs.KindQuotaExceeded, "daily credit cap") and
	// the balance (errs.KindPaymentRequired), each counting live holds,
	// then records the hold. Nothing is written when a check fails.
	Reserve(ctx context.Context, r Reservation) error
	// Settle removes the hold, debits Charged with a ledger row of reason
	// "charge", counts one request against the month and Charged against
	// the key's day, and returns the new balance. An unknown hold is
	// errs.KindNotFound.
	Settle(ctx context.Context, s Settlement) (balance int64, err error)
	// Release removes the hold, changing nothing else. Unknown holds are
	// ignored.
	Release(ctx context.Context, requestID string) error
	Balance(ctx context.Context, accountID int64) (int64, error)
	// Grant adds credits with a ledger row of the given reason.
	Grant(ctx context.Context, accountID, credits int64, reason string, now time.Time) (balance int64, err error)
	// Ledger pages the account's ledger, newest first.
	Ledger(ctx context.Context, accountID int64, limit, offset int) ([]LedgerEntry, error)
	// MonthlyRequests counts the account's settled requests in now's month.
	MonthlyRequests(ctx context.Context, accountID int64, now time.Time) (int64, error)
}

// UsageRow is one authenticated call in the usage log.
type UsageRow struct {
	RequestID      string
	AccountID      int64
	KeyID          int64
	CreatedAt      time.Time
	Endpoint       string // the catalog path, e.g. /v1/scrape
	Method         string
	URL            string // the target URL of the call, if any
	Status         int
	TimeMS         float64
	CreditsCharged int64
	TierUsed       string
}

// UsageQuery selects usage rows, newest first.
type UsageQuery struct {
	AccountID int64
	Endpoint  string // exact match; empty = all
	Limit     int
	Offset    int
}

// UsageDay is one day's bucket of the usage chart.
type UsageDay struct {
	Day       string  `json:"day"` // YYYY-MM-DD, UTC
	Requests  int64   `json:"requests"`
	Errors    int64   `json:"errors"` // status >= 400
	Credits   int64   `json:"credits"`
	AvgTimeMS float64 `json:"avg_time_ms"`
}

// UsageStats summarizes an account's usage for GET /v1/me.
type UsageStats struct {
	RequestsThisMonth int64
	RequestsToday     int64
	AvgResponseMS     float64 // over this month
	SuccessRate       float64 // percentage of this month's calls with status < 400; 100 when none
}

// Usage stores the request log.
type Usage interface {
	// InsertUsage appends rows (a batch); a duplicate request id is
	// ignored, and so is a row of an account that no longer exists (a
	// call that finished after its account was deleted).
	InsertUsage(ctx context.Context, rows []UsageRow) error
	ListUsage(ctx context.Context, q UsageQuery) ([]UsageRow, error)
	UsageByRequestID(ctx context.Context, accountID int64, requestID string) (UsageRow, error)
	// UsageDaily returns one bucket per day from since's day to now's day
	// inclusive, oldest first, days without calls included as zeros.
	UsageDaily(ctx context.Context, accountID int64, since, now time.Time) ([]UsageDay, error)
	UsageStats(ctx context.Context, accountID int64, now time.Time) (UsageStats, error)
	// CountUsage counts the account's usage rows.
	CountUsage(ctx context.Context, accountID int64) (int64, error)
}

// StoredResponse is a response kept for idempotent replay.
type StoredResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

// IdempotencyRecord is the state of one Idempotency-Key of an account.
type IdempotencyRecord struct {
	RequestHash []byte // hash of method, path and body of the first request
	Done        bool   // false while the first request is in flight
	Response    StoredResponse
	ExpiresAt   time.Time
}

// Idempotency stores Idempotency-Key records, scoped to an account.
type Idempotency interface {
	// BeginIdempotent claims the key for a request when no live record
	// exists (none, or expired at now), returning started=true. Otherwise
	// it returns the live record and started=false.
	BeginIdempotent(ctx context.Context, accountID int64, key string, hash []byte, now, expires time.Time) (rec IdempotencyRecord, started bool, err error)
	// CompleteIdempotent stores the response of the claimed key.
	CompleteIdempotent(ctx context.Context, accountID int64, key string, resp StoredResponse) error
	// AbandonIdempotent deletes the claim so the key can be used again.
	AbandonIdempotent(ctx context.Context, accountID int64, key string) error
}
