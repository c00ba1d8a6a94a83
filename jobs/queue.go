package jobs

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// Runner does the work of one job kind. input is the job's request body.
// An error fails the whole job and refunds all its credits; a partial
// failure is reported in the Outcome instead.
type Runner func(ctx context.Context, input json.RawMessage) (Outcome, error)

// Outcome is what a Runner produced.
type Outcome struct {
	Result any    // JSON-encodable, in the shape of the synchronous endpoint
	Refund int64  // credits to give back (the items that failed)
	Failed bool   // the job as a whole failed (Result may still be partial)
	Error  string // why, when Failed
	// Files are stored with the job (an editor run's screenshots), in the
	// transaction that finishes it.
	Files []store.JobFile
}

// Options configure a Queue; nil means defaults.
type Options struct {
	Runners            map[string]Runner                                // by job kind
	Workers            int                                              // jobs run at once; default 16
	DeliveryWorkers    int                                              // webhook deliveries at once; default 16
	WebhookClient      *http.Client                                     // the SSRF-guarded client deliveries use; nil: a default-guarded one
	CheckWebhookTarget func(ctx context.Context, url string) error      // the SSRF pre-check at submission
	Sleep              func(ctx context.Context, d time.Duration) error // between tries; default: real time
	RetryDelay         func(attempt int) time.Duration                  // between attempts; default AttemptDelay
	Now                func() time.Time
	PollInterval       time.Duration // how often idle workers look for jobs; default 100ms
	JobTimeout         time.Duration // default 10m
	// RescueAfter is how long a job may stay running before River takes it
	// for stuck (its process died) and runs it again, on any process of a
	// shared database; it must exceed JobTimeout. 0: River's default (an
	// hour past JobTimeout).
	RescueAfter time.Duration
	Logger      *slog.Logger
}

// River queues and job kinds.
const (
	queueJobs     = "jobs"
	queueWebhooks = "webhooks"
)

// runArgs asks a worker to run one job. Boot tells the enqueues of
// different process starts apart (see recover).
type runArgs struct {
	JobID string `json:"job_id"`
	Boot  string `json:"boot"`
}

func (runArgs) Kind() string { return "webinfra_run_job" }

// deliveryArgs asks a worker to make one attempt of one webhook delivery.
type deliveryArgs struct {
	DeliveryID int64  `json:"delivery_id"`
	Boot       string `json:"boot"`
}

func (deliveryArgs) Kind() string { return "webinfra_deliver_webhook" }

// riverClient is the part of river.Client the queue uses; it does not
// depend on the driver's transaction type, so Queue is not generic.
type riverClient interface {
	InsertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
}

// Queue accepts jobs, runs them on River and delivers their webhooks.
type Queue struct {
	store    store.Store
	river    riverClient
	inserts  *insertBatcher
	opts     Options
	sender   *Sender
	boot     string
	stopping atomic.Bool
	closeDB  func() error
	// shared: other processes run this queue's jobs too (PostgreSQL), so
	// Start leaves unfinished work to River's rescuer instead of
	// enqueueing it again (which would run a job another process is
	// running).
	shared bool
}

// New builds a queue over any River driver: riversqlite for the embedded
// default (see OpenSQLite), riverpgxv5 for PostgreSQL. River's own tables
// must already be migrated.
func New[TTx any](driver riverdriver.Driver[TTx], st store.Store, opts *Options) (*Queue, error) {
	o := withDefaults(opts)
	q := &Queue{store: st, opts: o, boot: randomHex(8)}
	q.sender = &Sender{Client: o.WebhookClient, Now: o.Now, Sleep: o.Sleep}
	workers := river.NewWorkers()
	river.AddWorker(workers, &runWorker{q: q})
	river.AddWorker(workers, &deliveryWorker{q: q})
	client, err := river.NewClient(driver, &river.Config{
		Queues: map[string]river.QueueConfig{
			queueJobs:     {MaxWorkers: o.Workers},
			queueWebhooks: {MaxWorkers: o.DeliveryWorkers},
		},
		Workers:                     workers,
		FetchCooldown:               min(10*time.Millisecond, o.PollInterval),
		FetchPollInterval:           o.PollInterval,
		JobTimeout:                  o.JobTimeout,
		RescueStuckJobsAfter:        o.RescueAfter,
		CompletedJobRetentionPeriod: time.Hour, // River rows only carry work; records live in the store
		Logger:                      o.Logger,
	})
	if err != nil {
		return nil, fmt.Errorf("jobs: river client: %w", err)
	}
	q.river = client
	q.inserts = &insertBatcher{insertMany: func(ctx context.Context, p []river.InsertManyParams) error {
		_, err := client.InsertMany(ctx, p)
		return err
	}}
	return q, nil
}

func withDefaults(opts *Options) Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Workers <= 0 {
		o.Workers = 16
	}
	if o.DeliveryWorkers <= 0 {
		o.DeliveryWorkers = 16
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RetryDelay == nil {
		o.RetryDelay = AttemptDelay
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 100 * time.Millisecond
	}
	if o.JobTimeout <= 0 {
		o.JobTimeout = 10 * time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// OpenSQLite opens (creating and migrating) River's tables in their own
// SQLite file and builds a queue on it. River wants one connection to
// SQLite; keeping its file apart from the store's lets the two write
// without waiting on each other.
func OpenSQLite(ctx context.Context, path string, st store.Store, opts *Options) (*Queue, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("jobs: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, fmt.Errorf("jobs: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	driver := riversqlite.New(db)
	migrator, err := rivermigrate.New(driver, nil)
	if err == nil {
		_, err = migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("jobs: migrate river tables in %s: %w", path, err)
	}
	q, err := New(driver, st, opts)
	if err != nil {
		db.Close()
		return nil, err
	}
	q.closeDB = db.Close
	return q, nil
}

// Start re-enqueues what a previous process left unfinished, then starts
// the workers. Only Stop ends them: cancelling ctx (a signal context, say)
// must not cancel the jobs that Stop is meant to drain.
func (q *Queue) Start(ctx context.Context) error {
	if !q.shared {
		if err := q.recover(ctx); err != nil {
			return err
		}
	}
	return q.river.Start(context.WithoutCancel(ctx))
}

// Stop drains: running jobs and deliveries finish until ctx is done; then
// they are cancelled (and resume at the next start). It closes River's
// database when OpenSQLite opened it.
func (q *Queue) Stop(ctx context.Context) error {
	q.stopping.Store(true)
	err := q.river.Stop(ctx)
	if ctx.Err() != nil {
		cancelCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		err = q.river.StopAndCancel(cancelCtx)
	}
	if q.closeDB != nil {
		if cerr := q.closeDB(); err == nil {
			err = cerr
		}
	}
	return err
}

// Submission is a job to accept.
type Submission struct {
	AccountID  int64
	KeyID      int64
	PayerID    int64 // the account charged, when not AccountID (an org key's wallet)
	Kind       string
	Input      json.RawMessage
	WebhookURL string
	Credits    int64 // what the submission call charges
}

// Create validates the webhook URL and stores the job as queued, without
// running it yet: the caller charges the submission first and then calls
// Enqueue, so a job's refund is never recorded before its charge, and a
// submission whose charge fails never runs (Abandon). Errors name the
// field ("webhook_url", "kind").
func (q *Queue) Create(ctx context.Context, s Submission) (store.Job, error) {
	if _, ok := q.opts.Runners[s.Kind]; !ok {
		return store.Job{}, errs.Invalid("kind", "no runner for job kind %q", s.Kind)
	}
	if s.WebhookURL != "" {
		if err := q.checkWebhookURL(ctx, s.WebhookURL); err != nil {
			return store.Job{}, err
		}
	}
	return q.store.CreateJob(ctx, store.Job{
		ID: "job_" + randomHex(12), AccountID: s.AccountID, KeyID: s.KeyID, PayerID: s.PayerID, Kind: s.Kind, Input: s.Input,
		Status: store.JobQueued, WebhookURL: s.WebhookURL, Credits: s.Credits, CreatedAt: q.opts.Now(),
	})
}

// Enqueue hands a created job to the workers. When it cannot be queued the
// job is failed with its whole charge refunded, and the error says the
// queue is unavailable.
func (q *Queue) Enqueue(ctx context.Context, job store.Job) error {
	if err := q.enqueueRun(ctx, job.ID); err != nil {
		q.finishUnrun(context.WithoutCancel(ctx), job.ID, "could not be queued", job.Credits)
		return errs.Wrap(errs.KindUnavailable, err, "queue unavailable")
	}
	return nil
}

// Abandon fails a created job that was never started because its
// submission was not charged; nothing is refunded.
func (q *Queue) Abandon(ctx context.Context, jobID string) {
	q.finishUnrun(context.WithoutCancel(ctx), jobID, "submission was not charged", 0)
}

func (q *Queue) finishUnrun(ctx context.Context, jobID, reason string, refund int64) {
	if _, err := q.store.FinishJob(ctx, store.JobOutcome{JobID: jobID, Status: store.JobFailed,
		Error: reason, Refund: refund, Now: q.opts.Now()}); err != nil {
		q.opts.Logger.Error("jobs: fail a job that did not start", "job_id", jobID, "err", err)
	}
}

func (q *Queue) checkWebhookURL(ctx context.Context, raw string) error {
	if err := ValidateWebhookURL(raw); err != nil {
		return err
	}
	if q.opts.CheckWebhookTarget != nil {
		if err := q.opts.CheckWebhookTarget(ctx, raw); err != nil {
			return &errs.Error{Kind: errs.KindOf(err), Field: "webhook_url", Message: err.Error()}
		}
	}
	return nil
}

func (q *Queue) enqueueRun(ctx context.Context, jobID string) error {
	return q.inserts.insert(ctx, runArgs{JobID: jobID, Boot: q.boot}, &river.InsertOpts{Queue: queueJobs, MaxAttempts: 5})
}

// enqueueDelivery hands a pending delivery's next attempt to River, due
// RetryDelay after its last attempt (at once when it has had none).
func (q *Queue) enqueueDelivery(ctx context.Context, d store.WebhookDelivery) error {
	due := q.opts.Now()
	if d.Attempts > 0 {
		due = d.UpdatedAt.Add(q.opts.RetryDelay(d.Attempts))
	}
	return q.inserts.insert(ctx, deliveryArgs{DeliveryID: d.ID, Boot: q.boot},
		&river.InsertOpts{Queue: queueWebhooks, MaxAttempts: MaxAttempts, ScheduledAt: due})
}

// recover re-enqueues what the last process left: unfinished jobs and
// pending deliveries (a job hands its delivery off in the transaction that
// finishes it, so nothing else can be left). Work that is in fact still
// queued in River runs twice at worst, and the second run finds the job
// final or the delivery settled and does nothing.
func (q *Queue) recover(ctx context.Context) error {
	const batch = 100000
	unfinished, err := q.store.UnfinishedJobs(ctx, batch)
	if err != nil {
		return err
	}
	for _, j := range unfinished {
		if err := q.enqueueRun(ctx, j.ID); err != nil {
			return err
		}
	}
	pending, err := q.store.PendingDeliveries(ctx, batch)
	if err != nil {
		return err
	}
	for _, d := range pending {
		if err := q.enqueueDelivery(ctx, d); err != nil {
			return err
		}
	}
	if n := len(unfinished) + len(pending); n > 0 {
		q.opts.Logger.Info("jobs: recovered work of a previous run", "jobs", len(unfinished), "deliveries", len(pending))
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
