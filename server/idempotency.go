package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"net/http"
	"strconv"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/secretbox"
)

// idempotentCall is a call that claimed an Idempotency-Key.
type idempotentCall struct {
	s       *Server
	account int64
	key     string
}

const maxIdempotencyKey = 255

// beginIdempotent honours the Idempotency-Key header of unsafe methods.
// The first request with a key runs and its response is kept for
// IdempotencyTTL; a later request with the same key and the same method,
// path and body gets that response again with Idempotency-Replayed: true
// and no charge; a different request with the key is 422, and a duplicate
// while the first is still running is 409. done reports that the call was
// answered here.
func (s *Server) beginIdempotent(rw *recorder, r *http.Request, c *call, body []byte) (idem *idempotentCall, done bool) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return nil, false
	}
	if len(key) > maxIdempotencyKey || !printableASCII(key) {
		s.fail(rw, c, errs.Invalid("header.Idempotency-Key", "must be 1 to %d printable ASCII characters", maxIdempotencyKey))
		return nil, true
	}
	sum := sha256.New()
	sum.Write([]byte(r.Method + " " + r.URL.RequestURI() + "\n"))
	sum.Write(body)
	hash := sum.Sum(nil)

	ctx := r.Context()
	now := s.now()
	acct := c.principal.account.ID
	rec, started, err := s.store.BeginIdempotent(ctx, acct, key, hash, now, now.Add(s.opts.IdempotencyTTL))
	switch {
	case err != nil:
		s.fail(rw, c, err)
	case started:
		return &idempotentCall{s: s, account: acct, key: key}, false
	case !bytes.Equal(rec.RequestHash, hash):
		s.fail(rw, c, errs.Invalid("header.Idempotency-Key", "this key was already used with a different request"))
	case !rec.Done:
		s.fail(rw, c, errs.New(errs.KindConflict, "a request with this Idempotency-Key is still in progress"))
	case rec.Response.Header.Get(omittedHeader) != "":
		s.fail(rw, c, errs.New(errs.KindConflict, "the first request with this Idempotency-Key was answered (status %d) with %s bytes, over this server's %d-byte limit for replays (limits.idempotency_max_response_bytes), so the answer was not kept; send the request with a new Idempotency-Key to run it again",
			rec.Response.Status, rec.Response.Header.Get(omittedHeader), s.opts.Billing.Limits.IdempotencyMaxResponseBytes))
	default:
		resp, err := s.openStored(rec.Response)
		if err != nil {
			s.fail(rw, c, err)
			break
		}
		replay(rw, resp)
	}
	return nil, true
}

// openStored opens the sealed body of a stored answer (answers stored
// before bodies were sealed are replayed as they are).
func (s *Server) openStored(resp store.StoredResponse) (store.StoredResponse, error) {
	if !secretbox.IsSealed(resp.Body) {
		return resp, nil
	}
	body, err := s.opts.Secrets.Open(resp.Body)
	if err != nil {
		return resp, errs.New(errs.KindConflict, "the answer kept for this Idempotency-Key cannot be read (the server's secret key changed); send the request with a new Idempotency-Key")
	}
	resp.Body = body
	return resp, nil
}

// omittedHeader marks a stored answer whose body was too large to keep; its
// value is the body's size. It is never sent.
const omittedHeader = "X-Webinfra-Idempotency-Omitted-Bytes"

func replay(rw *recorder, resp store.StoredResponse) {
	h := rw.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	h.Set("Idempotency-Replayed", "true")
	rw.WriteHeader(resp.Status) // c.charged stays 0: a replay is free
	rw.Write(resp.Body)
}

// perCallHeaders are stamped afresh on every response, replays included,
// so they are not stored.
var perCallHeaders = []string{"X-Request-Id", "Traceparent", "Tracestate", "Server-Timing",
	"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", "Ratelimit-Limit",
	"Ratelimit-Remaining", "Ratelimit-Reset", "Retry-After", "Cache-Control",
	"X-Credits-Cost", "X-Credits-Charged", "X-Credits-Balance"}

// finish stores the response of a call that ran, or frees the key when the
// call was refused before running (402, quota) or failed on our side, so
// the caller can retry.
func (ic *idempotentCall) finish(ctx context.Context, rw *recorder) {
	if ic == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	if rw.status >= 500 || rw.status == 0 || rw.capture == nil && !rw.overCapture() {
		ic.abandon(ctx)
		return
	}
	h := rw.Header().Clone()
	for _, k := range perCallHeaders {
		h.Del(k)
	}
	var body []byte
	switch {
	case rw.replacement != nil:
		body = rw.replacement
	case rw.overCapture():
		// Too large to keep: a retry gets a 409 saying so, never a part.
		h = http.Header{omittedHeader: {strconv.FormatInt(rw.captured, 10)}}
	default:
		// Sealed: the answers of key creation, sign-up and login carry raw
		// keys, and nothing kept at rest may.
		body = ic.s.opts.Secrets.Seal(rw.capture.Bytes())
	}
	err := ic.s.store.CompleteIdempotent(ctx, ic.account, ic.key, store.StoredResponse{Status: rw.status, Header: h, Body: body})
	if err != nil {
		ic.s.log.Error("store idempotent response", "key", ic.key, "err", err)
	}
}

func (ic *idempotentCall) abandon(ctx context.Context) {
	if ic == nil {
		return
	}
	if err := ic.s.store.AbandonIdempotent(context.WithoutCancel(ctx), ic.account, ic.key); err != nil {
		ic.s.log.Error("abandon idempotency key", "key", ic.key, "err", err)
	}
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
