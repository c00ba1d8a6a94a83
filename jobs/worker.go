package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// runWorker runs jobs.
type runWorker struct {
	river.WorkerDefaults[runArgs]
	q *Queue
}

func (w *runWorker) Work(ctx context.Context, job *river.Job[runArgs]) error {
	return w.q.run(ctx, job.Args.JobID)
}

// run moves the job to running, runs its Runner and makes it final with
// its result, refund and webhook delivery (one transaction), then makes the
// delivery's first attempt at once. A job found final already (a second
// run after a crash) is left alone, and so is a job whose record is gone
// (its account was deleted: the job is cancelled, its webhook never sent).
func (q *Queue) run(ctx context.Context, jobID string) error {
	job, err := q.store.StartJob(ctx, jobID, q.opts.Now())
	if errs.Is(err, errs.KindConflict) || errs.Is(err, errs.KindNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	outcome, err := q.execute(ctx, job)
	if err != nil {
		return err // shutting down: River runs it again after the restart
	}
	ctx = context.WithoutCancel(ctx)
	final, err := q.store.FinishJob(ctx, outcome)
	if errs.Is(err, errs.KindConflict) || errs.Is(err, errs.KindNotFound) {
		return nil // another run finished it first, or its account was deleted meanwhile
	}
	if err != nil {
		return err
	}
	if final.DeliveryID == 0 {
		return nil
	}
	d, err := q.store.DeliveryByID(ctx, final.DeliveryID)
	if err != nil {
		return err
	}
	return q.deliver(ctx, d)
}

// execute runs the job's Runner and turns what it said into an outcome,
// with the webhook delivery of its result when the job has a webhook_url.
func (q *Queue) execute(ctx context.Context, job store.Job) (store.JobOutcome, error) {
	out := store.JobOutcome{JobID: job.ID, Status: store.JobCompleted}
	runner := q.opts.Runners[job.Kind]
	var res Outcome
	var err error
	if runner == nil {
		err = fmt.Errorf("no runner for job kind %q on this server", job.Kind)
	} else {
		res, err = runner(ctx, job.Input)
	}
	if err != nil && q.stopping.Load() && ctx.Err() != nil {
		return out, err
	}
	out.Now = q.opts.Now()
	switch {
	case err != nil:
		out.Status, out.Error, out.Refund = store.JobFailed, err.Error(), job.Credits
	case res.Failed:
		out.Status, out.Error, out.Refund = store.JobFailed, res.Error, res.Refund
	default:
		out.Refund = res.Refund
	}
	out.Files = res.Files
	if res.Result != nil {
		b, merr := json.Marshal(res.Result)
		if merr != nil {
			return out, merr
		}
		out.Result = b
	}
	if job.WebhookURL != "" {
		body, err := json.Marshal(Event{JobID: job.ID, Status: out.Status, Result: orNull(out.Result), Error: out.Error})
		if err != nil {
			return out, err
		}
		out.Delivery = &store.WebhookDelivery{AccountID: job.AccountID, EventID: job.ID, JobID: job.ID,
			URL: job.WebhookURL, Payload: body, Status: store.DeliveryPending, CreatedAt: out.Now, UpdatedAt: out.Now}
	}
	return out, nil
}

func orNull(b json.RawMessage) json.RawMessage {
	if b == nil {
		return json.RawMessage("null")
	}
	return b
}

// Event is the body of a job's webhook: SPEC's {job_id, result}, with the
// final status and, for a failed job, its error.
type Event struct {
	JobID  string          `json:"job_id"`
	Status store.JobStatus `json:"status"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error,omitempty"`
}

// deliver makes a pending delivery's next attempt now and, when it fails
// and attempts remain, leaves the next to River at RetryDelay.
func (q *Queue) deliver(ctx context.Context, d store.WebhookDelivery) error {
	d, err := q.attempt(ctx, d, d.Attempts+1 >= MaxAttempts)
	if err != nil || d.Status != store.DeliveryPending {
		return err
	}
	return q.enqueueDelivery(ctx, d)
}

// WebhookOutcome is a job's _webhook field: where its delivery stands.
type WebhookOutcome struct {
	Status         store.DeliveryStatus `json:"status"`
	DeliveryID     int64                `json:"delivery_id"`
	Attempts       int                  `json:"attempts"`
	LastStatusCode int                  `json:"last_status_code,omitempty"`
	LastError      string               `json:"last_error,omitempty"`
}

// OutcomeOf summarizes a delivery for a job's _webhook field.
func OutcomeOf(d store.WebhookDelivery) WebhookOutcome {
	return WebhookOutcome{Status: d.Status, DeliveryID: d.ID, Attempts: d.Attempts,
		LastStatusCode: d.LastStatusCode, LastError: d.LastError}
}

// deliveryWorker makes one attempt of a webhook delivery per River attempt.
type deliveryWorker struct {
	river.WorkerDefaults[deliveryArgs]
	q *Queue
}

// errAttemptFailed asks River for the next attempt, at NextRetry.
var errAttemptFailed = errors.New("webhook delivery attempt failed")

func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[deliveryArgs]) error {
	d, err := w.q.store.DeliveryByID(ctx, job.Args.DeliveryID)
	if errs.Is(err, errs.KindNotFound) {
		return nil // its account was deleted: never sent
	}
	if err != nil {
		return err
	}
	if d.Status != store.DeliveryPending {
		return nil
	}
	d, err = w.q.attempt(ctx, d, d.Attempts+1 >= MaxAttempts)
	if err != nil {
		return err
	}
	if d.Status == store.DeliveryPending {
		return errAttemptFailed
	}
	return nil
}

// NextRetry schedules the delivery's next attempt at RetryDelay of the
// attempts it has had (AttemptDelay by default).
func (w *deliveryWorker) NextRetry(job *river.Job[deliveryArgs]) time.Time {
	attempts := job.Attempt
	if d, err := w.q.store.DeliveryByID(context.Background(), job.Args.DeliveryID); err == nil {
		attempts = d.Attempts
	}
	return w.q.opts.Now().Add(w.q.opts.RetryDelay(attempts))
}

// Timeout covers one attempt: every try's timeout plus the waits between.
func (w *deliveryWorker) Timeout(*river.Job[deliveryArgs]) time.Duration {
	return 5*DefaultTryTimeout + 10*time.Second
}

// attempt makes one delivery attempt (tries and waits per Sender) and
// records it with its tries: delivered, pending for another attempt, or
// dead when last.
func (q *Queue) attempt(ctx context.Context, d store.WebhookDelivery, last bool) (store.WebhookDelivery, error) {
	acct, err := q.store.AccountByID(ctx, d.AccountID)
	if err != nil {
		return d, err
	}
	rec := store.AttemptRecord{DeliveryID: d.ID, Attempts: d.Attempts + 1, Status: store.DeliveryPending}
	res := q.sender.Attempt(ctx, Delivery{URL: d.URL, EventID: d.EventID, Body: d.Payload, Secret: acct.WebhookSecret},
		func(t TryResult) {
			rec.Tries = append(rec.Tries, store.DeliveryTry{DeliveryID: d.ID, Attempt: rec.Attempts, Try: t.Try,
				StatusCode: t.StatusCode, Error: t.Error, LatencyMS: float64(t.Latency.Microseconds()) / 1000, At: t.At})
		})
	switch {
	case res.Delivered:
		rec.Status = store.DeliveryDelivered
	case last:
		rec.Status = store.DeliveryDead
	}
	rec.LastStatusCode, rec.LastError, rec.Now = res.LastStatusCode, res.LastError, q.opts.Now()
	return q.store.FinishAttempt(context.WithoutCancel(ctx), rec)
}
