package server

import (
	"context"
	"strconv"
	"time"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/store"
)

// WebhookTestRequest names where to send a test event.
type WebhookTestRequest struct {
	WebhookURL string `json:"webhook_url" minLength:"1" maxLength:"2048" example:"https://example.com/hooks/webinfra"`
}

func (s *Server) webhookTest(ctx context.Context, in *WebhookTestRequest) (*jobs.DeliveryReport, error) {
	q, err := s.queue()
	if err != nil {
		return nil, err
	}
	p := callFrom(ctx).principal
	if err := s.allowTestSend(ctx, p, "webhook-test", "webhook tests"); err != nil {
		return nil, err
	}
	rep, err := q.SendTest(ctx, p.account.ID, in.WebhookURL)
	if err != nil {
		return nil, bodyField(err)
	}
	return &rep, nil
}

// allowTestSend spends one of the account's tests of the hour in bucket
// (Plan.WebhookTestCap each for webhook and forwarder tests): a free call
// that makes the server send requests must not be unlimited.
func (s *Server) allowTestSend(ctx context.Context, p *principal, bucket, what string) error {
	limit := p.plan.WebhookTestCap()
	d, err := s.opts.Limiter.AllowRate(ctx, bucket+":"+strconv.FormatInt(p.account.ID, 10), billing.Rate{Count: limit, Per: time.Hour})
	if err != nil {
		return errs.Wrap(errs.KindUnavailable, err, "rate limiter unavailable")
	}
	if !d.Allowed {
		return errs.RetryLater(errs.KindRateLimited, d.RetryAfter, "this account may send %d %s an hour (plan setting webhook_tests_per_hour); retry after %s", limit, what, d.RetryAfter)
	}
	return nil
}

func (s *Server) queue() (*jobs.Queue, error) {
	if s.opts.Queue == nil {
		return nil, errs.New(errs.KindUnavailable, "this server runs no job queue")
	}
	return s.opts.Queue, nil
}

// DeliveryView is a webhook delivery in listings.
type DeliveryView struct {
	DeliveryID     int64                `json:"delivery_id"`
	EventID        string               `json:"event_id"`
	JobID          string               `json:"job_id,omitempty"`
	URL            string               `json:"url"`
	Status         store.DeliveryStatus `json:"status" enum:"pending,delivered,dead"`
	Attempts       int                  `json:"attempts"`
	LastStatusCode int                  `json:"last_status_code,omitempty"`
	LastError      string               `json:"last_error,omitempty"`
	Payload        string               `json:"payload"`
	CreatedAt      time.Time            `json:"created_at"`
	UpdatedAt      time.Time            `json:"updated_at"`
}

func deliveryView(d store.WebhookDelivery) DeliveryView {
	return DeliveryView{DeliveryID: d.ID, EventID: d.EventID, JobID: d.JobID, URL: d.URL, Status: d.Status,
		Attempts: d.Attempts, LastStatusCode: d.LastStatusCode, LastError: d.LastError, Payload: string(d.Payload),
		CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()}
}

type deliveryQuery struct {
	Dead   bool `query:"dead" doc:"Only dead deliveries: the dead-letter list."`
	Limit  int  `query:"limit" default:"50" minimum:"1" maximum:"1000"`
	Offset int  `query:"offset" default:"0" minimum:"0"`
}

// DeliveryList is a page of the caller's webhook deliveries, newest first.
type DeliveryList struct {
	Deliveries []DeliveryView `json:"deliveries"`
	Limit      int            `json:"limit"`
	Offset     int            `json:"offset"`
}

func (s *Server) listDeliveries(ctx context.Context, in *deliveryQuery) (*bodyOutput[DeliveryList], error) {
	list, err := s.store.ListDeliveries(ctx, store.DeliveryQuery{AccountID: callFrom(ctx).principal.account.ID,
		DeadOnly: in.Dead, Limit: in.Limit, Offset: in.Offset})
	if err != nil {
		return nil, err
	}
	out := DeliveryList{Deliveries: make([]DeliveryView, 0, len(list)), Limit: in.Limit, Offset: in.Offset}
	for _, d := range list {
		out.Deliveries = append(out.Deliveries, deliveryView(d))
	}
	return reply(&out), nil
}

type deliveryIDPath struct {
	DeliveryID int64 `path:"delivery_id" minimum:"1"`
}

// DeliveryDetail is one delivery with its log of tries.
type DeliveryDetail struct {
	DeliveryView
	Tries []store.DeliveryTry `json:"tries"`
}

func (s *Server) getDelivery(ctx context.Context, in *deliveryIDPath) (*bodyOutput[DeliveryDetail], error) {
	acct := callFrom(ctx).principal.account.ID
	d, err := s.store.Delivery(ctx, acct, in.DeliveryID)
	if err != nil {
		return nil, deliveryNotFound(err, in.DeliveryID)
	}
	tries, err := s.store.DeliveryTries(ctx, acct, in.DeliveryID)
	if err != nil {
		return nil, err
	}
	return reply(&DeliveryDetail{DeliveryView: deliveryView(d), Tries: tries}), nil
}

func (s *Server) replayDelivery(ctx context.Context, in *deliveryIDPath) (*bodyOutput[jobs.DeliveryReport], error) {
	q, err := s.queue()
	if err != nil {
		return nil, err
	}
	rep, err := q.Replay(ctx, callFrom(ctx).principal.account.ID, in.DeliveryID)
	if err != nil {
		return nil, deliveryNotFound(err, in.DeliveryID)
	}
	return reply(&rep), nil
}

func deliveryNotFound(err error, id int64) error {
	if errs.Is(err, errs.KindNotFound) {
		return errs.NotFound("no webhook delivery %d in this account", id)
	}
	return err
}
