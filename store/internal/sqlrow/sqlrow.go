package sqlrow

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// MaxPage bounds one page of a listing (ledger, usage log, jobs,
// deliveries).
const MaxPage = 1000

// Scanner is a *sql.Row or *sql.Rows.
type Scanner interface{ Scan(dest ...any) error }

// Times are stored as unix milliseconds, UTC.

const AccountColumns = `id, email, password_hash, plan, webhook_secret, kind, login, created_at`

const UsageColumns = `request_id, account_id, key_id, created_at, endpoint, method, url,
status, time_ms, credits_charged, tier_used`

const KeyColumns = `id, account_id, hash, prefix, kind, scope, label, project_tag,
daily_cap_credits, coalesce(org_id, 0), created_at, revoked_at, last_used_at`

const JobColumns = `id, account_id, key_id, coalesce(payer_account_id, 0), kind, input, status, attempts, result, error,
webhook_url, delivery_id, credits, refunded, created_at, started_at, finished_at`

const DeliveryColumns = `id, account_id, event_id, job_id, url, payload, status, attempts,
last_status_code, last_error, created_at, updated_at`

func ToMS(t time.Time) int64 { return t.UnixMilli() }

func FromMS(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func NullableMS(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: ToMS(t), Valid: true}
}

func FromNullableMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return FromMS(v.Int64)
}

// MonthKey is t's calendar month in UTC as YYYYMM.
func MonthKey(t time.Time) int64 {
	t = t.UTC()
	return int64(t.Year())*100 + int64(t.Month())
}

// DayKey is t's calendar day in UTC as YYYYMMDD.
func DayKey(t time.Time) int64 {
	t = t.UTC()
	return int64(t.Year())*10000 + int64(t.Month())*100 + int64(t.Day())
}

// DayStart is the midnight (UTC) that starts t's day.
func DayStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// MonthStart is the midnight (UTC) that starts t's month.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// PageBounds turns a caller's limit and offset into safe values: a limit
// of 0 or less means 100, and no page is longer than MaxPage.
func PageBounds(limit, offset int) (int, int) {
	if limit <= 0 {
		limit = 100
	}
	return min(limit, MaxPage), max(offset, 0)
}

// NormalizeEmail lower-cases an e-mail address, as accounts store it.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

func ScanLedgerEntry(row Scanner) (store.LedgerEntry, error) {
	var e store.LedgerEntry
	var created int64
	err := row.Scan(&e.ID, &e.Delta, &e.Balance, &e.Reason, &e.Endpoint, &e.RequestID, &e.KeyID, &created)
	e.CreatedAt = FromMS(created)
	return e, err
}

func ScanUsage(row Scanner) (store.UsageRow, error) {
	var u store.UsageRow
	var created int64
	err := row.Scan(&u.RequestID, &u.AccountID, &u.KeyID, &created, &u.Endpoint, &u.Method, &u.URL,
		&u.Status, &u.TimeMS, &u.CreditsCharged, &u.TierUsed)
	if err != nil {
		return store.UsageRow{}, err
	}
	u.CreatedAt = FromMS(created)
	return u, nil
}

func ScanKey(row Scanner) (store.Key, error) {
	var ks keyScan
	if err := row.Scan(ks.dest()...); err != nil {
		return store.Key{}, err
	}
	return ks.key(), nil
}

// KeyAccountColumns are KeyColumns then AccountColumns, of keys k joined
// with accounts a (see ScanKeyAccount).
const KeyAccountColumns = `k.id, k.account_id, k.hash, k.prefix, k.kind, k.scope, k.label, k.project_tag,
k.daily_cap_credits, coalesce(k.org_id, 0), k.created_at, k.revoked_at, k.last_used_at,
a.id, a.email, a.password_hash, a.plan, a.webhook_secret, a.kind, a.login, a.created_at`

// ScanKeyAccount scans a row of KeyAccountColumns: the key and its account
// in one lookup, what every authenticated call needs.
func ScanKeyAccount(row Scanner) (store.Key, store.Account, error) {
	var ks keyScan
	var as accountScan
	if err := row.Scan(append(ks.dest(), as.dest()...)...); err != nil {
		return store.Key{}, store.Account{}, err
	}
	return ks.key(), as.account(), nil
}

// ScanAccount scans a row of AccountColumns.
func ScanAccount(row Scanner) (store.Account, error) {
	var as accountScan
	err := row.Scan(as.dest()...)
	return as.account(), err
}

// keyScan holds a key's columns while a row is scanned.
type keyScan struct {
	k             store.Key
	kind, scope   string
	created       int64
	revoked, used sql.NullInt64
}

func (s *keyScan) dest() []any {
	return []any{&s.k.ID, &s.k.AccountID, &s.k.Hash, &s.k.Prefix, &s.kind, &s.scope, &s.k.Label, &s.k.ProjectTag,
		&s.k.DailyCapCredits, &s.k.OrgID, &s.created, &s.revoked, &s.used}
}

func (s *keyScan) key() store.Key {
	k := s.k
	k.Kind, k.Scope = store.KeyKind(s.kind), store.KeyScope(s.scope)
	k.CreatedAt = FromMS(s.created)
	k.RevokedAt = FromNullableMS(s.revoked)
	k.LastUsedAt = FromNullableMS(s.used)
	return k
}

// accountScan holds an account's columns while a row is scanned.
type accountScan struct {
	a           store.Account
	kind, login string
	created     int64
}

func (s *accountScan) dest() []any {
	return []any{&s.a.ID, &s.a.Email, &s.a.PasswordHash, &s.a.Plan, &s.a.WebhookSecret, &s.kind, &s.login, &s.created}
}

func (s *accountScan) account() store.Account {
	a := s.a
	a.Kind, a.Login = store.AccountKind(s.kind), store.Login(s.login)
	a.CreatedAt = FromMS(s.created)
	return a
}

func ValidKey(k store.Key) error {
	switch {
	case len(k.Hash) == 0:
		return errs.New(errs.KindInvalid, "store: key without a hash")
	case k.Kind != store.KeyDeveloper && k.Kind != store.KeyDashboard:
		return errs.New(errs.KindInvalid, "store: unknown key kind %q", k.Kind)
	case k.Scope != store.ScopeFull && k.Scope != store.ScopeAPI:
		return errs.New(errs.KindInvalid, "store: unknown key scope %q", k.Scope)
	case k.DailyCapCredits < 0:
		return errs.New(errs.KindInvalid, "store: negative daily cap %d", k.DailyCapCredits)
	}
	return nil
}

func ScanJob(row Scanner) (store.Job, error) {
	var j store.Job
	var status string
	var input, result []byte
	var created int64
	var started, finished sql.NullInt64
	err := row.Scan(&j.ID, &j.AccountID, &j.KeyID, &j.PayerID, &j.Kind, &input, &status, &j.Attempts, &result, &j.Error,
		&j.WebhookURL, &j.DeliveryID, &j.Credits, &j.Refunded, &created, &started, &finished)
	if err != nil {
		return store.Job{}, err
	}
	j.Status = store.JobStatus(status)
	j.Input, j.Result = RawJSON(input), RawJSON(result)
	j.CreatedAt = FromMS(created)
	j.StartedAt = FromNullableMS(started)
	j.FinishedAt = FromNullableMS(finished)
	return j, nil
}

// RawJSON turns a stored document into a json.RawMessage; NULL and empty
// are nil.
func RawJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return b
}

// NullJSON is the stored form of a document: NULL when empty.
func NullJSON(m json.RawMessage) any {
	if len(m) == 0 {
		return nil
	}
	return []byte(m)
}

// CheckJSON rejects a non-empty document that is not valid JSON: it would
// make every later json.Marshal of the job fail.
func CheckJSON(what string, m json.RawMessage) error {
	if len(m) > 0 && !json.Valid(m) {
		return errs.New(errs.KindInvalid, "store: %s is not valid JSON", what)
	}
	return nil
}

func ValidNewJob(j store.Job) error {
	switch {
	case j.ID == "":
		return errs.New(errs.KindInvalid, "store: create job: empty id")
	case j.AccountID == 0:
		return errs.New(errs.KindInvalid, "store: create job: no account")
	case j.KeyID == 0:
		return errs.New(errs.KindInvalid, "store: create job: no key")
	case j.Kind == "":
		return errs.New(errs.KindInvalid, "store: create job: empty kind")
	case len(j.Input) == 0:
		return errs.New(errs.KindInvalid, "store: create job: no input")
	case j.CreatedAt.IsZero():
		return errs.New(errs.KindInvalid, "store: create job: no creation time")
	case j.Credits < 0:
		return errs.New(errs.KindInvalid, "store: create job: negative credits %d", j.Credits)
	}
	return CheckJSON("job input", j.Input)
}

// JobDelivery is the delivery FinishJob stores for job j: d with the job's
// account and id filled in when zero (other values are errs.KindInvalid:
// a job's webhook never goes to another account's log) and now as its
// creation time when that is zero.
func JobDelivery(j store.Job, d store.WebhookDelivery, now time.Time) (store.WebhookDelivery, error) {
	if d.AccountID == 0 {
		d.AccountID = j.AccountID
	}
	if d.JobID == "" {
		d.JobID = j.ID
	}
	if d.AccountID != j.AccountID || d.JobID != j.ID {
		return store.WebhookDelivery{}, errs.New(errs.KindInvalid,
			"store: finish job: the delivery names account %d and job %q, not the job's (%d, %q)",
			d.AccountID, d.JobID, j.AccountID, j.ID)
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = now
	}
	return d, nil
}

func ScanDelivery(row Scanner) (store.WebhookDelivery, error) {
	var d store.WebhookDelivery
	var status string
	var created, updated int64
	err := row.Scan(&d.ID, &d.AccountID, &d.EventID, &d.JobID, &d.URL, &d.Payload, &status, &d.Attempts,
		&d.LastStatusCode, &d.LastError, &created, &updated)
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	d.Status = store.DeliveryStatus(status)
	d.CreatedAt = FromMS(created)
	d.UpdatedAt = FromMS(updated)
	return d, nil
}

func ScanTry(row Scanner) (store.DeliveryTry, error) {
	var t store.DeliveryTry
	var at int64
	if err := row.Scan(&t.DeliveryID, &t.Attempt, &t.Try, &t.StatusCode, &t.Error, &t.LatencyMS, &at); err != nil {
		return store.DeliveryTry{}, err
	}
	t.At = FromMS(at)
	return t, nil
}

func ValidDeliveryStatus(s store.DeliveryStatus) bool {
	return s == store.DeliveryPending || s == store.DeliveryDelivered || s == store.DeliveryDead
}

// ValidNewDelivery checks what CreateDelivery and FinishJob need of a
// delivery; op names the operation in errors.
func ValidNewDelivery(d store.WebhookDelivery, op string) error {
	switch {
	case d.EventID == "":
		return errs.New(errs.KindInvalid, "store: %s: empty event id", op)
	case d.URL == "":
		return errs.New(errs.KindInvalid, "store: %s: empty URL", op)
	}
	return nil
}

// DecodeHeader reads the headers of a stored idempotent answer (JSON; ""
// or "null" for none).
func DecodeHeader(s string) (http.Header, error) {
	if s == "" || s == "null" {
		return nil, nil
	}
	var h http.Header
	if err := json.Unmarshal([]byte(s), &h); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "store: idempotency: decode header")
	}
	return h, nil
}
