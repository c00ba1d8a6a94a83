package store

import (
	"context"
	"encoding/json"
	"time"
)

// JobStatus is the state of an asynchronous job. Transitions:
//
//	queued → running → completed | failed
//	running → running   (a retry after a crash or a retryable error)
//
// completed and failed are final.
type JobStatus string

// Job statuses.
const (
	JobQueued    JobStatus = "queued"
	JobRunning   JobStatus = "running"
	JobCompleted JobStatus = "completed"
	JobFailed    JobStatus = "failed"
)

// Final reports whether no transition leaves s.
func (s JobStatus) Final() bool { return s == JobCompleted || s == JobFailed }

// Job is an asynchronous job's record.
type Job struct {
	ID         string // "job_" + random hex; unique
	AccountID  int64
	KeyID      int64
	PayerID    int64           // the account charged and refunded (an org key's wallet); 0 = AccountID
	Kind       string          // e.g. "scrape", "batch_scrape", "crawl"
	Input      json.RawMessage // the request body
	Status     JobStatus
	Attempts   int             // how many times a worker started it
	Result     json.RawMessage // set when completed (or failed with a partial result)
	Error      string          // set when failed
	WebhookURL string          // "" when the caller polls
	DeliveryID int64           // the job's webhook delivery, created when it finished; 0 when none
	Credits    int64           // charged when the job was accepted
	Refunded   int64           // given back when it finished
	CreatedAt  time.Time
	StartedAt  time.Time // zero until first started
	FinishedAt time.Time // zero until final
}

// SecretsField is the top-level member of a job's Input that holds its
// secrets (sealed; a scrape's request headers): FinishJob deletes it, so
// no secret outlives its job.
const SecretsField = "secrets"

// JobOutcome finishes a job.
type JobOutcome struct {
	JobID  string
	Status JobStatus // JobCompleted or JobFailed
	Result json.RawMessage
	Error  string
	Refund int64 // credits to give back (0..Credits) to the job's payer, with a ledger row of reason "refund"
	// Delivery, when set, is the job's webhook delivery: stored pending
	// in the same transaction, so a job never finishes without its
	// webhook being queued; the finished job's DeliveryID names it.
	Delivery *WebhookDelivery
	// Files are stored under the job in the same transaction (an editor
	// run's screenshots), read back by JobFile and erased with the job.
	Files []JobFile
	Now   time.Time
}

// JobFile is a file a job produced, stored with it.
type JobFile struct {
	Name        string // unique within the job
	ContentType string
	Data        []byte
}

// MaxJobFiles and MaxJobFileBytes bound what one job may store.
const (
	MaxJobFiles     = 16
	MaxJobFileBytes = 4 << 20
)

// Jobs stores job records.
type Jobs interface {
	// CreateJob stores a queued job; ID, AccountID, KeyID, Kind, Input and
	// CreatedAt must be set. A taken ID is errs.KindConflict.
	CreateJob(ctx context.Context, j Job) (Job, error)
	// JobByID finds one of the account's jobs; another account's is
	// errs.KindNotFound.
	JobByID(ctx context.Context, accountID int64, jobID string) (Job, error)
	// GetJob finds a job whatever its account (for workers).
	GetJob(ctx context.Context, jobID string) (Job, error)
	// ListJobs pages the account's jobs, newest first.
	ListJobs(ctx context.Context, accountID int64, limit, offset int) ([]Job, error)
	// StartJob moves a queued or running job to running, counts an attempt
	// and sets StartedAt on the first. A final job is errs.KindConflict and
	// is returned unchanged alongside the error.
	StartJob(ctx context.Context, jobID string, now time.Time) (Job, error)
	// FinishJob moves a non-final job to completed or failed, deleting the
	// input's SecretsField member, storing the result or error, refunding o.Refund credits (capped at Credits) with
	// a ledger row and storing o.Delivery, all in one transaction, so a job
	// is refunded and handed to delivery at most once. A final job is
	// errs.KindConflict and nothing changes.
	FinishJob(ctx context.Context, o JobOutcome) (Job, error)
	// UnfinishedJobs lists non-final jobs, oldest first, for recovery
	// after a restart.
	UnfinishedJobs(ctx context.Context, limit int) ([]Job, error)
	// JobFile returns a file of one of the account's jobs; another
	// account's job, an unknown job or an unknown name is
	// errs.KindNotFound.
	JobFile(ctx context.Context, accountID int64, jobID, name string) (JobFile, error)
}

// DeliveryStatus is the state of a webhook delivery.
type DeliveryStatus string

// Delivery statuses: pending until a try gets a 2xx (delivered) or the
// last attempt fails (dead: the dead-letter list).
const (
	DeliveryPending   DeliveryStatus = "pending"
	DeliveryDelivered DeliveryStatus = "delivered"
	DeliveryDead      DeliveryStatus = "dead"
)

// WebhookDelivery is one event sent to one URL, over one or more attempts,
// each of one or more tries.
type WebhookDelivery struct {
	ID             int64
	AccountID      int64
	EventID        string // the X-Webinfra-Event-ID: the job id, or test_<hex>
	JobID          string // "" for test deliveries
	URL            string
	Payload        []byte // the body as sent (re-signed on every try)
	Status         DeliveryStatus
	Attempts       int // attempts finished so far
	LastStatusCode int // 0 when the last try got no HTTP answer
	LastError      string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// DeliveryTry is one HTTP POST of a delivery, for the delivery log.
type DeliveryTry struct {
	DeliveryID int64
	Attempt    int // 1-based
	Try        int // 1-based within the attempt
	StatusCode int // 0 when no HTTP answer came
	Error      string
	LatencyMS  float64
	At         time.Time
}

// AttemptRecord is the end of one delivery attempt.
type AttemptRecord struct {
	DeliveryID     int64
	Status         DeliveryStatus // the delivery's status after the attempt
	Attempts       int            // attempts finished, this one included
	LastStatusCode int
	LastError      string
	Tries          []DeliveryTry // the attempt's tries, appended to the log
	Now            time.Time
}

// DeliveryQuery pages an account's deliveries, newest first.
type DeliveryQuery struct {
	AccountID int64
	DeadOnly  bool // the dead-letter list
	Limit     int
	Offset    int
}

// Webhooks stores webhook deliveries and their log.
type Webhooks interface {
	// CreateDelivery stores a pending delivery (ID assigned).
	CreateDelivery(ctx context.Context, d WebhookDelivery) (WebhookDelivery, error)
	// FinishAttempt records the end of an attempt (the new status, the
	// attempt count and the last answer) and appends its tries to the
	// log, in one transaction.
	FinishAttempt(ctx context.Context, a AttemptRecord) (WebhookDelivery, error)
	// Delivery finds one of the account's deliveries (others: not found).
	Delivery(ctx context.Context, accountID, deliveryID int64) (WebhookDelivery, error)
	// DeliveryByID finds a delivery whatever its account (for workers).
	DeliveryByID(ctx context.Context, deliveryID int64) (WebhookDelivery, error)
	ListDeliveries(ctx context.Context, q DeliveryQuery) ([]WebhookDelivery, error)
	// PendingDeliveries lists pending deliveries of every account, oldest
	// first, for recovery after a restart.
	PendingDeliveries(ctx context.Context, limit int) ([]WebhookDelivery, error)
	// DeliveryTries returns the log of one of the account's deliveries,
	// oldest first.
	DeliveryTries(ctx context.Context, accountID, deliveryID int64) ([]DeliveryTry, error)
}

// Payer is the account the job is charged to and refunded to.
func (j Job) Payer() int64 {
	if j.PayerID != 0 {
		return j.PayerID
	}
	return j.AccountID
}
