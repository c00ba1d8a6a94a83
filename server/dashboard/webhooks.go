package dashboard

import (
	"net/http"
	"strconv"

	"github.com/webinfra/webinfra/jobs"
	"github.com/webinfra/webinfra/server"
)

func (d *Dashboard) webhookRoutes(m *http.ServeMux) {
	m.HandleFunc("GET "+Path+"/webhooks", d.page(d.webhooks))
	m.HandleFunc("GET "+Path+"/webhooks/dead", d.page(d.deadLetters))
	m.HandleFunc("POST "+Path+"/webhooks/secret", d.page(d.rotateSecret))
	m.HandleFunc("POST "+Path+"/webhooks/test", d.page(d.testWebhook))
	m.HandleFunc("GET "+Path+"/webhooks/deliveries/{id}", d.page(d.delivery))
	m.HandleFunc("POST "+Path+"/webhooks/deliveries/{id}/replay", d.page(d.replay))
}

// webhooksData is the webhooks page: the secret, a test's report, and a
// page of deliveries (all, or the dead letters).
type webhooksData struct {
	Secret string
	Dead   bool
	Report *jobs.DeliveryReport
	server.DeliveryList
	pager
}

func deliveryPath(id int64) string { return "/v1/me/webhooks/deliveries/" + strconv.FormatInt(id, 10) }

// webhooksPage renders the deliveries (GET /v1/me/webhooks/deliveries,
// dead=true for the dead letters) under the secret and the test form.
func (q *req) webhooksPage(v *view, dead bool, report *jobs.DeliveryReport) error {
	base := Path + "/webhooks?"
	if dead {
		base = Path + "/webhooks/dead?"
	}
	offset, links := q.pageOf(base, listRows)
	data := webhooksData{Secret: q.me.WebhookSecret, Dead: dead, Report: report}
	err := q.call(http.MethodGet, "/v1/me/webhooks/deliveries?dead="+strconv.FormatBool(dead)+"&limit="+strconv.Itoa(listRows)+"&offset="+strconv.Itoa(offset), nil, &data.DeliveryList)
	data.pager = links(len(data.Deliveries))
	v.Data = data
	return err
}

func (d *Dashboard) webhooks(q *req) error {
	v := q.view("Webhooks", "webhooks")
	if err := q.webhooksPage(v, false, nil); err != nil {
		return err
	}
	return q.render(v, "webhooks")
}

// deadLetters is the dead-letter view: deliveries that gave up.
func (d *Dashboard) deadLetters(q *req) error {
	v := q.view("Dead letters", "webhooks")
	if err := q.webhooksPage(v, true, nil); err != nil {
		return err
	}
	return q.render(v, "webhooks")
}

// rotateSecret replaces the webhook secret
// (POST /v1/me/webhook-secret/rotate).
func (d *Dashboard) rotateSecret(q *req) error {
	if err := q.call(http.MethodPost, "/v1/me/webhook-secret/rotate", nil, nil); err != nil {
		return err
	}
	return q.done(Path+"/webhooks", "Webhook secret rotated: the old one no longer verifies callbacks.")
}

// testWebhook sends one signed test event (POST /v1/me/webhooks/test)
// and shows each try.
func (d *Dashboard) testWebhook(q *req) error {
	var rep jobs.DeliveryReport
	err := q.call(http.MethodPost, "/v1/me/webhooks/test", server.WebhookTestRequest{WebhookURL: q.r.PostFormValue("webhook_url")}, &rep)
	v := q.view("Webhooks", "webhooks")
	if err != nil {
		if lerr := q.webhooksPage(v, false, nil); lerr != nil {
			return lerr
		}
		return q.formFailed(v, "webhooks", err)
	}
	if rep.Delivered {
		v.Flash = "Test event delivered."
	} else {
		v.Error = "The test event was not accepted: " + outcome(rep.LastStatusCode, rep.LastError) + "."
	}
	if err := q.webhooksPage(v, false, &rep); err != nil {
		return err
	}
	return q.render(v, "webhooks")
}

// outcome says how a delivery's last try ended.
func outcome(status int, msg string) string {
	if status != 0 {
		return "the receiver answered HTTP " + strconv.Itoa(status)
	}
	if msg != "" {
		return msg
	}
	return "no answer"
}

// delivery shows one delivery with its log of tries
// (GET /v1/me/webhooks/deliveries/{id}).
func (d *Dashboard) delivery(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	var del server.DeliveryDetail
	if err := q.call(http.MethodGet, deliveryPath(id), nil, &del); err != nil {
		return err
	}
	v := q.view("Delivery "+strconv.FormatInt(id, 10), "webhooks")
	v.Data = del
	return q.render(v, "delivery")
}

// replay re-sends a delivery, re-signed with the same event id
// (POST /v1/me/webhooks/deliveries/{id}/replay).
func (d *Dashboard) replay(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	var rep jobs.DeliveryReport
	if err := q.call(http.MethodPost, deliveryPath(id)+"/replay", nil, &rep); err != nil {
		return err
	}
	msg := "Replayed: delivered."
	if !rep.Delivered {
		msg = "Replayed, but not delivered: " + outcome(rep.LastStatusCode, rep.LastError) + "."
	}
	return q.done(Path+"/webhooks/deliveries/"+strconv.FormatInt(id, 10), msg)
}
