package jobs

import (
	"context"
	"encoding/json"

	"github.com/webinfra/webinfra/store"
)

// TestEvent is the body POST /v1/me/webhooks/test sends.
type TestEvent struct {
	EventID string `json:"event_id"`
	Type    string `json:"type"` // "webhook.test"
	Message string `json:"message"`
}

// DeliveryReport is the outcome of a delivery attempt made on request
// (a test or a replay).
type DeliveryReport struct {
	DeliveryID     int64                `json:"delivery_id"`
	EventID        string               `json:"event_id"`
	URL            string               `json:"url"`
	Delivered      bool                 `json:"delivered"`
	Status         store.DeliveryStatus `json:"status"`
	LastStatusCode int                  `json:"last_status_code,omitempty"`
	LastError      string               `json:"last_error,omitempty"`
	Tries          []store.DeliveryTry  `json:"tries"`
}

// SendTest sends one signed test event to url with the production signing,
// retry and timeout policy (one attempt: a try and up to three retries),
// logs it as a delivery, and reports the outcome.
func (q *Queue) SendTest(ctx context.Context, accountID int64, url string) (DeliveryReport, error) {
	if err := q.checkWebhookURL(ctx, url); err != nil {
		return DeliveryReport{}, err
	}
	eventID := "test_" + randomHex(12)
	body, err := json.Marshal(TestEvent{EventID: eventID, Type: "webhook.test",
		Message: "A test event from Webinfra: verify its X-Webinfra-Signature with your webhook_secret."})
	if err != nil {
		return DeliveryReport{}, err
	}
	now := q.opts.Now()
	d, err := q.store.CreateDelivery(ctx, store.WebhookDelivery{AccountID: accountID, EventID: eventID, URL: url,
		Payload: body, Status: store.DeliveryPending, CreatedAt: now, UpdatedAt: now})
	if err != nil {
		return DeliveryReport{}, err
	}
	return q.attemptAndReport(ctx, d, true)
}

// Replay re-sends one of the account's deliveries now (one attempt),
// re-signed with a fresh timestamp and the same event id. A delivery that
// is dead stays dead unless the replay gets through.
func (q *Queue) Replay(ctx context.Context, accountID, deliveryID int64) (DeliveryReport, error) {
	d, err := q.store.Delivery(ctx, accountID, deliveryID)
	if err != nil {
		return DeliveryReport{}, err
	}
	return q.attemptAndReport(ctx, d, d.Status != store.DeliveryPending || d.Attempts+1 >= MaxAttempts)
}

// attemptAndReport makes one attempt now; last says a failure makes the
// delivery dead rather than leaving it for River's next attempt.
func (q *Queue) attemptAndReport(ctx context.Context, d store.WebhookDelivery, last bool) (DeliveryReport, error) {
	before := d.Attempts
	d, err := q.attempt(ctx, d, last)
	if err != nil {
		return DeliveryReport{}, err
	}
	tries, err := q.store.DeliveryTries(ctx, d.AccountID, d.ID)
	if err != nil {
		return DeliveryReport{}, err
	}
	var mine []store.DeliveryTry
	for _, t := range tries {
		if t.Attempt > before {
			mine = append(mine, t)
		}
	}
	return DeliveryReport{DeliveryID: d.ID, EventID: d.EventID, URL: d.URL, Delivered: d.Status == store.DeliveryDelivered,
		Status: d.Status, LastStatusCode: d.LastStatusCode, LastError: d.LastError, Tries: mine}, nil
}
