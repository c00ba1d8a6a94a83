package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// These tests take real seconds: the bug they guard against was a socket
// read deadline (huma's 5 s body-read timeout, never lifted) that cancelled
// every call running longer than 5 s, which only a real connection and a
// real clock show.

// A scrape with timeout_ms 60000 of a page that answers after 6 s is
// answered, not cut at 5 s.
func TestLongScrapeOutlivesTheBodyDeadline(t *testing.T) {
	t.Parallel()
	slow := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(6 * time.Second)
		w.Write([]byte("<html><body><p>worth the wait</p></body></html>"))
	})
	e := newEnv(t)
	key := e.signup("patient@example.com")
	start := time.Now()
	r := e.call("POST", "/v1/scrape", key, map[string]any{"url": slow, "timeout_ms": 60000})
	if r.status != 200 || !strings.Contains(string(r.body), "worth the wait") {
		t.Fatalf("after %s: status %d, body %.300s", time.Since(start).Round(time.Millisecond), r.status, r.body)
	}
}

// A webhook test against a slow, failing receiver runs all four tries.
func TestWebhookTestRunsEveryTryPastFiveSeconds(t *testing.T) {
	t.Parallel()
	receiver := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(1600 * time.Millisecond)
		http.Error(w, "receiver down", http.StatusInternalServerError)
	}))
	t.Cleanup(receiver.Close)
	e := newEnv(t, withQueue(receiver.Certificate()))
	key := e.signup("slow-hook@example.com")
	var rep deliveryReport
	e.want(e.call("POST", "/v1/me/webhooks/test", key, map[string]any{"webhook_url": receiver.URL}), 200).json(t, &rep)
	if len(rep.Tries) != 4 || rep.LastStatusCode != 500 || rep.Status != "dead" {
		t.Fatalf("report %+v: want four tries, each answered 500", rep)
	}
}

// A page of nearly 10 MiB sent for extraction is read and extracted (its
// bulk is an inline script, so the test stays cheap under -race; the long
// calls above prove that no deadline cuts a call short).
func TestLargeExtractionIsAnswered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("big-page@example.com")
	para := "<p>" + strings.Repeat("Words of a long article that goes on. ", 40) + "</p>\n"
	script := "<script>var data = '" + strings.Repeat("x", 10<<20-256<<10) + "';</script>"
	html := "<html><head>" + script + "</head><body><article>" + strings.Repeat(para, 100) + "</article></body></html>"
	var body strings.Builder
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false) // the body stays the page's size, under the 10 MiB limit
	enc.Encode(map[string]any{"html": html})
	e.want(e.call("POST", "/v1/extract/clean", key, body.String()), 200)
}
