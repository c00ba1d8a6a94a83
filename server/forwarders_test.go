package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/internal/otlptest"
	"github.com/webinfra/webinfra/server"
)

type forwarderView struct {
	ForwarderID    int64             `json:"forwarder_id"`
	Endpoint       string            `json:"endpoint"`
	AuthHeader     string            `json:"auth_header"`
	AuthValue      string            `json:"auth_value"`
	Headers        map[string]string `json:"headers"`
	LastTestStatus string            `json:"last_test_status"`
	LastTestDetail string            `json:"last_test_detail"`
}

// spansOf keeps the spans of one operation.
func spansOf(spans []otlptest.Span, operation string) []otlptest.Span {
	var out []otlptest.Span
	for _, s := range spans {
		if s.Attributes["webinfra.operation"] == operation {
			out = append(out, s)
		}
	}
	return out
}

// A forwarder receives a span per call of its account, at once, over a
// real OTLP/HTTP exchange (the receiver decodes the protobuf): operation,
// status, credits, tier and account, the auth header as configured, never
// the key. Another account's calls never reach it; after deletion no new
// span does, while spans already buffered still arrive.
func TestForwarders(t *testing.T) {
	t.Parallel()
	forEachDriver(t, func(t *testing.T, driver envOption) {
		recv, other := otlptest.NewTLS(t), otlptest.NewTLS(t)
		e := newEnv(t, driver, trusting(recv.Certificate(), other.Certificate()),
			withServer(func(o *server.Options) { o.Telemetry.BatchDelay = 10 * time.Millisecond }))
		key := e.signup("otel@example.com")
		stranger := e.signup("stranger@example.com")

		// Refusals name the field and store nothing.
		for _, bad := range []map[string]any{
			{"endpoint": "http://collector.example.com/v1/traces"},
			{"endpoint": "ftp://collector.example.com/v1/traces"},
			{"endpoint": recv.URL(), "auth_header": "Authorization"},
			{"endpoint": recv.URL(), "headers": map[string]string{"Content-Type": "text/plain"}},
			{"endpoint": recv.URL(), "headers": map[string]string{"X-Bad": "a\nb"}},
			{"endpoint": "https://user:pw@collector.example.com/v1/traces"},
		} {
			e.want(e.call("POST", "/v1/me/forwarders", key, bad), 422)
		}

		var f forwarderView
		e.want(e.call("POST", "/v1/me/forwarders", key, map[string]any{"endpoint": recv.URL(), "name": "main",
			"auth_header": "authorization", "auth_value": "Bearer collector-token-4321", "headers": map[string]string{"X-Tenant": "acme-tenant"}}), 200).json(t, &f)
		if f.AuthHeader != "Authorization" || f.AuthValue != strings.Repeat("*", 23)+"4321" || f.Headers["X-Tenant"] != "*******nant" {
			t.Errorf("created forwarder shows %+v", f)
		}
		var list struct {
			Forwarders []forwarderView `json:"forwarders"`
		}
		e.want(e.call("GET", "/v1/me/forwarders", key, nil), 200).json(t, &list)
		if len(list.Forwarders) != 1 || strings.Contains(string(e.call("GET", "/v1/me/forwarders", key, nil).body), "collector-token") {
			t.Errorf("list = %+v", list)
		}
		e.want(e.call("GET", "/v1/me/forwarders", stranger, nil), 200).json(t, &list)
		if len(list.Forwarders) != 0 {
			t.Errorf("another account sees %+v", list)
		}
		e.want(e.call("DELETE", "/v1/me/forwarders/"+itoa(f.ForwarderID), stranger, nil), 404)
		e.want(e.call("POST", "/v1/me/forwarders/"+itoa(f.ForwarderID)+"/test", stranger, nil), 404)

		// The stranger's forwarder on the other receiver is the control.
		e.want(e.call("POST", "/v1/me/forwarders", stranger, map[string]any{"endpoint": other.URL()}), 200)

		r := e.want(e.call("POST", "/v1/extract/contacts", key, map[string]string{"text": "sales@example.com"}), 200)
		e.want(e.call("POST", "/v1/extract/contacts", stranger, map[string]string{"text": "sales@example.com"}), 200)
		span := spansOf(waitFor(t, recv, "extract-contacts", 1), "extract-contacts")[0]
		if span.Name != "POST /v1/extract/contacts" || span.Attributes["http.response.status_code"] != int64(200) ||
			span.Attributes["webinfra.credits_charged"] != int64(1) || span.Attributes["webinfra.request_id"] != r.header.Get("X-Request-Id") {
			t.Errorf("span = %+v", span)
		}
		if !strings.Contains(r.header.Get("Traceparent"), span.TraceID) {
			t.Errorf("span trace id %s is not the call's traceparent %s", span.TraceID, r.header.Get("Traceparent"))
		}
		waitFor(t, other, "extract-contacts", 1)
		for _, s := range recv.Spans() {
			if s.Attributes["webinfra.account_id"] != span.Attributes["webinfra.account_id"] {
				t.Errorf("a span of another account arrived: %+v", s.Attributes)
			}
		}
		for _, h := range recv.Headers() {
			if h.Get("Authorization") != "Bearer collector-token-4321" || h.Get("X-Tenant") != "acme-tenant" {
				t.Errorf("export headers = %v", h)
			}
		}
		for _, s := range recv.Spans() {
			for k, v := range s.Attributes {
				if str, ok := v.(string); ok && strings.Contains(str, key[4:20]) {
					t.Errorf("span attribute %s carries the API key", k)
				}
			}
		}

		// test: one span now, outcome recorded.
		var res struct {
			Accepted bool   `json:"accepted"`
			Status   string `json:"status"`
			Detail   string `json:"detail"`
		}
		e.want(e.call("POST", "/v1/me/forwarders/"+itoa(f.ForwarderID)+"/test", key, nil), 200).json(t, &res)
		if !res.Accepted || res.Status != "ok" || !strings.Contains(res.Detail, "200") {
			t.Errorf("test = %+v", res)
		}
		recv.SetStatus(http.StatusServiceUnavailable)
		e.want(e.call("POST", "/v1/me/forwarders/"+itoa(f.ForwarderID)+"/test", key, nil), 200).json(t, &res)
		if res.Accepted || res.Status != "failed" || !strings.Contains(res.Detail, "503") {
			t.Errorf("test against a failing receiver = %+v", res)
		}
		recv.SetStatus(http.StatusOK)
		e.want(e.call("GET", "/v1/me/forwarders", key, nil), 200).json(t, &list)
		if list.Forwarders[0].LastTestStatus != "failed" || !strings.Contains(list.Forwarders[0].LastTestDetail, "503") {
			t.Errorf("recorded test = %+v", list.Forwarders[0])
		}

		// Deleted: calls after it never arrive.
		e.want(e.call("DELETE", "/v1/me/forwarders/"+itoa(f.ForwarderID), key, nil), 200)
		e.want(e.call("POST", "/v1/extract/tables", key, map[string]string{"html": "<table><tr><td>1</td></tr></table>"}), 200)
		e.want(e.call("POST", "/v1/extract/tables", stranger, map[string]string{"html": "<table><tr><td>1</td></tr></table>"}), 200)
		waitFor(t, other, "extract-tables", 1)
		if err := e.srv.Close(context.Background()); err != nil { // flushes every buffered span
			t.Fatal(err)
		}
		if got := spansOf(recv.Spans(), "extract-tables"); len(got) != 0 {
			t.Errorf("%d spans arrived after the forwarder was deleted", len(got))
		}
	})
}

// waitFor waits until the receiver holds n spans of the operation.
func waitFor(t *testing.T, r *otlptest.Receiver, operation string, n int) []otlptest.Span {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for have := 1; ; have++ {
		spans := r.Wait(t, have, time.Until(deadline))
		if len(spansOf(spans, operation)) >= n {
			return spans
		}
		have = len(spans)
	}
}
