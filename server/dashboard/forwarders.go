package dashboard

import (
	"net/http"
	"strconv"

	"github.com/webinfra/webinfra/server"
)

func (d *Dashboard) forwarderRoutes(m *http.ServeMux) {
	m.HandleFunc("GET "+Path+"/forwarders", d.page(d.forwarders))
	m.HandleFunc("POST "+Path+"/forwarders", d.page(d.addForwarder))
	m.HandleFunc("POST "+Path+"/forwarders/{id}/test", d.page(d.testForwarder))
	m.HandleFunc("POST "+Path+"/forwarders/{id}/delete", d.page(d.deleteForwarder))
}

func forwarderPath(id int64) string { return "/v1/me/forwarders/" + strconv.FormatInt(id, 10) }

// forwardersData fills v with the account's forwarders
// (GET /v1/me/forwarders).
func (q *req) forwardersData(v *view) error {
	var list server.ForwarderList
	err := q.call(http.MethodGet, "/v1/me/forwarders", nil, &list)
	v.Data = list
	return err
}

func (d *Dashboard) forwarders(q *req) error {
	v := q.view("Telemetry forwarders", "forwarders")
	if err := q.forwardersData(v); err != nil {
		return err
	}
	return q.render(v, "forwarders")
}

// addForwarder adds an OTLP/HTTP destination (POST /v1/me/forwarders).
func (d *Dashboard) addForwarder(q *req) error {
	f := q.r.PostFormValue
	in := server.ForwarderCreateRequest{Name: f("name"), Endpoint: f("endpoint"), AuthHeader: f("auth_header"), AuthValue: f("auth_value")}
	var out server.ForwarderInfo
	if err := q.call(http.MethodPost, "/v1/me/forwarders", in, &out); err != nil {
		v := q.view("Telemetry forwarders", "forwarders")
		if lerr := q.forwardersData(v); lerr != nil {
			return lerr
		}
		return q.formFailed(v, "forwarders", err)
	}
	return q.done(Path+"/forwarders", "Forwarder "+strconv.FormatInt(out.ForwarderID, 10)+" added: spans of every call now go to "+out.Endpoint+".")
}

// testForwarder sends one test span (POST /v1/me/forwarders/{id}/test).
func (d *Dashboard) testForwarder(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	var res server.ForwarderTestResult
	if err := q.call(http.MethodPost, forwarderPath(id)+"/test", nil, &res); err != nil {
		return err
	}
	msg := "Forwarder " + strconv.FormatInt(id, 10) + " accepted the test span."
	if !res.Accepted {
		msg = "Forwarder " + strconv.FormatInt(id, 10) + " did not accept the test span: " + res.Detail
	}
	return q.done(Path+"/forwarders", msg)
}

// deleteForwarder removes a forwarder (DELETE /v1/me/forwarders/{id}).
func (d *Dashboard) deleteForwarder(q *req) error {
	id, err := q.pathID("id")
	if err != nil {
		return err
	}
	if err := q.call(http.MethodDelete, forwarderPath(id), nil, nil); err != nil {
		return err
	}
	return q.done(Path+"/forwarders", "Forwarder "+strconv.FormatInt(id, 10)+" deleted: no new span goes there.")
}
