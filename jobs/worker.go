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
// its result and refund, then hands its webhook to delivery. A job found
// final already (a second run after a crash) is left alone.
func (q *Queue) run(ctx context.Context, jobID string) error {
	job, err := q.store.StartJob(ctx, jobID, q.opts.Now())
	if errs.Is(err, errs.KindConflict) {
		return nil
	}
	if err != nil {
		return err
	}
	outcome, err := q.execute(ctx, job)
	if err != nil {
		return err // shutting down: River runs it again after the restart
	}
	final, err := q.store.FinishJob(context.WithoutCancel(ctx), outcome)
	if errs.Is(err, errs.KindConflict) {
		return nil // another run finished it first
	}
	if err != nil {
		return err
	}
	if final.WebhookURL != "" {
		return q.handOff(context.WithoutCancel(ctx), final)
	}
	return nil
}

// execute runs the job's Runner and turns what it said into an outcome.
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
	if res.Result != nil {
		b, merr := json.Marshal(res.Result)
		if merr != nil {
			return out, merr
		}
		out.Result = b
	}
	return out, nil
}

// Event is the body of a job's webhook: SPEC's {job_id, result}, with the
// final status and, for a failed job, its error.
type Event struct {
	JobID  string          `json:"job_id"`
	Status store.JobStatus `json:"status"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error,omitempty"`
}

// handOff stores the job's webhook delivery, marks the job as handed off
// and enqueues the first attempt.
func (q *Queue) handOff(ctx context.Context, job store.Job) error {
	result := job.Result
	if result == nil {
		result = json.RawMessage("null")
	}
	body, err := json.Marshal(Event{JobID: job.ID, Status: job.Status, Result: result, Error: job.Error})
	if err != nil {
		return err
	}
	now := q.opts.Now()
	d, err := q.store.CreateDelivery(ctx, store.WebhookDelivery{AccountID: job.AccountID, EventID: job.ID, JobID: job.ID,
		URL: job.WebhookURL, Payload: body, Status: store.DeliveryPending, CreatedAt: now, UpdatedAt: now})
	if err != nil {
		return err
	}
	if err := q.store.SetJobWebhook(ctx, job.ID, webhookOutcome(d)); err != nil {
		return err
	}
	return q.enqueueDelivery(ctx, d.ID)
}

// WebhookOutcome is a job's _webhook field.
type WebhookOutcome struct {
	Status         store.DeliveryStatus `json:"status"`
	DeliveryID     int64                `json:"delivery_id"`
	Attempts       int                  `json:"attempts"`
	LastStatusCode int                  `json:"last_status_code,omitempty"`
	LastError      string               `json:"last_error,omitempty"`
}

func webhookOutcome(d store.WebhookDelivery) json.RawMessage {
	b, _ := json.Marshal(WebhookOutcome{Status: d.Status, DeliveryID: d.ID, Attempts: d.Attempts,
		LastStatusCode: d.LastStatusCode, LastError: d.LastError})
	return b
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

// NextRetry schedules the next attempt of a failed one (AttemptDelay).
func (w *deliveryWorker) NextRetry(job *river.Job[deliveryArgs]) time.Time {
	return w.q.opts.Now().Add(w.q.opts.RetryDelay(job.Attempt))
}

// Timeout covers one attempt: every try's timeout plus the waits between.
func (w *deliveryWorker) Timeout(*river.Job[deliveryArgs]) time.Duration {
	return 5*DefaultTryTimeout + 10*time.Second
}

// attempt makes one delivery attempt (tries and waits per Sender), logs
// every try, and records the outcome: delivered, pending for another
// attempt, or dead when last. The job's _webhook follows the delivery.
func (q *Queue) attempt(ctx context.Context, d store.WebhookDelivery, last bool) (store.WebhookDelivery, error) {
	acct, err := q.store.AccountByID(ctx, d.AccountID)
	if err != nil {
		return d, err
	}
	attempt := d.Attempts + 1
	res := q.sender.Attempt(ctx, Delivery{URL: d.URL, EventID: d.EventID, Body: d.Payload, Secret: acct.WebhookSecret},
		func(t TryResult) {
			err := q.store.RecordTry(context.WithoutCancel(ctx), store.DeliveryTry{DeliveryID: d.ID, Attempt: attempt, Try: t.Try,
				StatusCode: t.StatusCode, Error: t.Error, LatencyMS: float64(t.Latency.Microseconds()) / 1000, At: t.At})
			if err != nil {
				q.opts.Logger.Error("jobs: log webhook try", "delivery", d.ID, "err", err)
			}
		})
	status := store.DeliveryPending
	switch {
	case res.Delivered:
		status = store.DeliveryDelivered
	case last:
		status = store.DeliveryDead
	}
	ctx = context.WithoutCancel(ctx)
	d, err = q.store.FinishAttempt(ctx, d.ID, status, attempt, res.LastStatusCode, res.LastError, q.opts.Now())
	if err != nil {
		return d, err
	}
	if d.JobID != "" {
		if err := q.store.SetJobWebhook(ctx, d.JobID, webhookOutcome(d)); err != nil {
			return d, err
		}
	}
	return d, nil
}
