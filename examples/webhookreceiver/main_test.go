package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/webinfra/webinfra/jobs"
)

func TestHandlerVerifiesAndDeduplicates(t *testing.T) {
	t.Parallel()
	var got []jobs.Event
	h := Handler("whsec_test", func(ev jobs.Event) { got = append(got, ev) })
	body := []byte(`{"job_id":"job_1","status":"completed","result":{"markdown":"# Hi"}}`)
	send := func(secret string) int {
		r := httptest.NewRequest("POST", "/hooks/webinfra", bytes.NewReader(body))
		r.Header.Set(jobs.SignatureHeader, jobs.Sign(body, secret, time.Now()))
		r.Header.Set(jobs.EventIDHeader, "job_1")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	if c := send("whsec_wrong"); c != http.StatusUnauthorized {
		t.Fatalf("wrong secret: %d", c)
	}
	first := send("whsec_test")
	again := send("whsec_test") // the same event twice: the receiver acknowledges and ignores it
	if first != http.StatusNoContent || again != http.StatusNoContent {
		t.Fatal("a signed delivery was refused")
	}
	if len(got) != 1 || got[0].JobID != "job_1" {
		t.Fatalf("handled %+v, want job_1 once", got)
	}
}
