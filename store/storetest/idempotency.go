package storetest

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/webinfra/webinfra/store"
)

var idempotencyTests = []test{
	{"Idempotency/BeginCompleteReplay", testIdempotencyLifecycle},
	{"Idempotency/Abandon", testIdempotencyAbandon},
	{"Idempotency/Expiry", testIdempotencyExpiry},
	{"Idempotency/ScopedToAccount", testIdempotencyScoping},
}

func (e *env) begin(accountID int64, key string, hash []byte, now, expires time.Time) (store.IdempotencyRecord, bool) {
	e.t.Helper()
	rec, started, err := e.s.BeginIdempotent(e.ctx, accountID, key, hash, now, expires)
	must(e.t, err)
	return rec, started
}

func testIdempotencyLifecycle(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	hash := []byte("hash-of-post-/v1/scrape-body")
	expires := t0.Add(24 * time.Hour)
	if _, started := e.begin(acct.ID, "k1", hash, t0, expires); !started {
		t.Fatal("first BeginIdempotent did not start")
	}
	rec, started := e.begin(acct.ID, "k1", []byte("another body"), t0.Add(time.Second), expires)
	if started || rec.Done || !bytes.Equal(rec.RequestHash, hash) || !rec.ExpiresAt.Equal(expires) {
		t.Errorf("BeginIdempotent while in flight = %+v, started %v; want the first claim, not done", rec, started)
	}

	resp := store.StoredResponse{
		Status: 201,
		Header: http.Header{"Content-Type": {"application/json"}, "X-Multi": {"a", "b"}},
		Body:   []byte(`{"ok":true}`),
	}
	must(t, e.s.CompleteIdempotent(e.ctx, acct.ID, "k1", resp))
	rec, started = e.begin(acct.ID, "k1", hash, t0.Add(time.Minute), expires)
	if started || !rec.Done || !bytes.Equal(rec.RequestHash, hash) || !rec.ExpiresAt.Equal(expires) {
		t.Fatalf("BeginIdempotent after Complete = %+v, started %v", rec, started)
	}
	got := rec.Response
	if got.Status != 201 || !bytes.Equal(got.Body, resp.Body) || got.Header.Get("Content-Type") != "application/json" ||
		len(got.Header.Values("X-Multi")) != 2 || got.Header.Values("X-Multi")[1] != "b" {
		t.Errorf("stored response = %+v, want %+v", got, resp)
	}
}

func testIdempotencyAbandon(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	expires := t0.Add(time.Hour)
	e.begin(acct.ID, "k", []byte("first"), t0, expires)
	must(t, e.s.AbandonIdempotent(e.ctx, acct.ID, "k"))
	rec, started := e.begin(acct.ID, "k", []byte("second"), t0, expires)
	if !started || !bytes.Equal(rec.RequestHash, []byte("second")) {
		t.Errorf("BeginIdempotent after Abandon = %+v, started %v; want a fresh claim", rec, started)
	}
	must(t, e.s.AbandonIdempotent(e.ctx, acct.ID, "never-used"))
}

func testIdempotencyExpiry(t *testing.T, e *env) {
	acct, _ := e.signup(1)
	expires := t0.Add(time.Hour)
	e.begin(acct.ID, "k", []byte("first"), t0, expires)
	must(t, e.s.CompleteIdempotent(e.ctx, acct.ID, "k", store.StoredResponse{Status: 200, Body: []byte("x")}))

	if _, started := e.begin(acct.ID, "k", []byte("second"), expires.Add(-time.Second), expires.Add(time.Hour)); started {
		t.Error("BeginIdempotent started a second before the record expired")
	}
	later := expires.Add(2 * time.Hour)
	rec, started := e.begin(acct.ID, "k", []byte("second"), expires, later)
	if !started || rec.Done || !bytes.Equal(rec.RequestHash, []byte("second")) {
		t.Errorf("BeginIdempotent at expiry = %+v, started %v; want a fresh claim", rec, started)
	}
	rec, started = e.begin(acct.ID, "k", []byte("third"), expires.Add(time.Minute), later)
	if started || !bytes.Equal(rec.RequestHash, []byte("second")) || !rec.ExpiresAt.Equal(later) {
		t.Errorf("BeginIdempotent on the new claim = %+v, started %v", rec, started)
	}
}

func testIdempotencyScoping(t *testing.T, e *env) {
	a, _ := e.signup(1)
	b, _ := e.signup(1)
	expires := t0.Add(time.Hour)
	e.begin(a.ID, "shared", []byte("a"), t0, expires)
	must(t, e.s.CompleteIdempotent(e.ctx, a.ID, "shared", store.StoredResponse{Status: 200, Body: []byte("a's")}))
	rec, started := e.begin(b.ID, "shared", []byte("b"), t0, expires)
	if !started || rec.Done {
		t.Errorf("another account's BeginIdempotent on the same key = %+v, started %v; want its own claim", rec, started)
	}
	must(t, e.s.AbandonIdempotent(e.ctx, b.ID, "shared"))
	rec, started = e.begin(a.ID, "shared", []byte("a"), t0, expires)
	if started || !rec.Done || string(rec.Response.Body) != "a's" {
		t.Errorf("account a's record after b's Abandon = %+v, started %v", rec, started)
	}
}
