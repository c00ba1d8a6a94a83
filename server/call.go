package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/store"
)

// call is the state of one request as it moves through the pipeline. It
// lives in the request context; handlers reach it with callFrom to report
// what the usage log and the response headers should say (target URL, tier,
// a charge lower than the sticker cost).
type call struct {
	requestID string
	client    string // the caller's limit key: IPv4 address or IPv6 /64
	start     time.Time
	span      trace.SpanContext
	op        *Operation
	principal *principal // nil until authenticated

	rate     *billing.Decision // set once the limiter answered
	cost     int64             // sticker cost of this call; -1 when the operation is free
	reserved bool              // a credit hold is waiting to be settled or released
	charged  int64
	balance  int64
	haveBal  bool

	pageBytes atomic.Int64 // what the call holds of the page gate (pagegate.go)

	url       string // the target URL, from the request body
	legacyURI string // the request's path and query when its Host is the legacy host; else ""

	// Reported by handlers.
	tierUsed    fetch.Tier
	cascadePath []fetch.Tier
	chargeUnits *int64 // when set (before the response is written), the charge instead of cost
	// onAccepted, when set, runs once the answer's status is final and its
	// charge settled: ok says whether the call succeeded. An error with ok
	// replaces the answer (a job submission whose job could not be queued).
	onAccepted func(ctx context.Context, ok bool) error

	failure error // why a handler's answer is a 5xx, for the log

	// erased is set when the call deleted its own account: nothing more
	// is written under it (usage row, idempotent answer, span).
	erased bool
	// console is set for the dashboard's in-process calls (Console): no
	// usage row, no span.
	console bool
}

type callKey struct{}

func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// reportFetch records how a page was fetched, for headers and the usage log.
func reportFetch(ctx context.Context, tier fetch.Tier, path []fetch.Tier) {
	if c := callFrom(ctx); c != nil {
		c.tierUsed, c.cascadePath = tier, path
	}
}

// chargeUnits sets what a successful call is charged when it is less than
// its sticker cost (a batch charges only the URLs that succeeded).
func chargeUnits(ctx context.Context, n int64) {
	if c := callFrom(ctx); c != nil {
		c.chargeUnits = &n
	}
}

func newRequestID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

var traceContext = propagation.TraceContext{}

// newSpan continues the caller's W3C trace when it sent a valid
// traceparent, and starts a new trace otherwise; either way this request
// gets its own span id.
func newSpan(r *http.Request) trace.SpanContext {
	parent := trace.SpanContextFromContext(traceContext.Extract(r.Context(), propagation.HeaderCarrier(r.Header)))
	cfg := trace.SpanContextConfig{TraceID: parent.TraceID(), TraceFlags: trace.FlagsSampled, TraceState: parent.TraceState()}
	if !parent.IsValid() {
		rand.Read(cfg.TraceID[:])
		cfg.TraceState = trace.TraceState{}
	} else {
		cfg.TraceFlags = parent.TraceFlags()
	}
	rand.Read(cfg.SpanID[:])
	return trace.NewSpanContext(cfg)
}

// recorder wraps the ResponseWriter: just before the status line goes out
// it lets the pipeline settle credits and stamp the headers every response
// carries, and it keeps a copy of the body when an idempotent replay needs
// one.
type recorder struct {
	http.ResponseWriter
	beforeHeader func(status int) int
	status       int
	wroteHeader  bool
	capture      *bytes.Buffer // non-nil: keep the body, up to captureLimit bytes
	captureLimit int64
	captured     int64  // body bytes written while capturing
	swallow      bool   // the handler's body was replaced by an error
	replacement  []byte // the body written instead
}

// overCapture reports whether the body outgrew captureLimit, in which case
// the capture was dropped (captured still counts the bytes).
func (rw *recorder) overCapture() bool { return rw.captured > rw.captureLimit }

func (rw *recorder) WriteHeader(code int) {
	if rw.wroteHeader {
		return
	}
	rw.wroteHeader = true
	if rw.beforeHeader != nil {
		code = rw.beforeHeader(code)
	}
	rw.status = code
	rw.ResponseWriter.WriteHeader(code)
	if rw.replacement != nil {
		rw.ResponseWriter.Write(rw.replacement)
	}
}

// replaceBody discards whatever the handler writes and sends v instead.
func (rw *recorder) replaceBody(v any) {
	rw.replacement, _ = json.Marshal(v)
	rw.swallow = true
}

func (rw *recorder) Write(b []byte) (int, error) {
	if !rw.wroteHeader {
		rw.WriteHeader(http.StatusOK)
	}
	if rw.swallow {
		return len(b), nil
	}
	if rw.capture != nil || rw.captured > 0 {
		rw.captured += int64(len(b))
		if rw.overCapture() {
			rw.capture = nil // a replay of this answer will not be kept: stop holding it
		} else {
			rw.capture.Write(b)
		}
	}
	return rw.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush on the real writer, which
// the streaming CSV export uses.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

func (rw *recorder) Flush() {
	if !rw.wroteHeader {
		rw.WriteHeader(http.StatusOK)
	}
	if f, ok := rw.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// stampHeaders sets the headers of SPEC §5 and §8 that every response
// carries, from what the pipeline learned about the call.
func (c *call) stampHeaders(h http.Header, now time.Time) {
	h.Set("X-Request-Id", c.requestID)
	h.Set("X-Content-Type-Options", "nosniff")
	traceContext.Inject(trace.ContextWithSpanContext(context.Background(), c.span), propagation.HeaderCarrier(h))
	h.Set("Server-Timing", "total;dur="+strconv.FormatFloat(float64(now.Sub(c.start).Microseconds())/1000, 'f', 3, 64))
	if c.rate != nil {
		setRateHeaders(h, *c.rate, now)
	}
	if c.principal != nil || c.op != nil && !c.op.Unlimited {
		h.Set("Cache-Control", "no-store") // account data, or a raw key (sign-up, login)
	}
	if c.cost >= 0 {
		h.Set("X-Credits-Cost", strconv.FormatInt(c.cost, 10))
		h.Set("X-Credits-Charged", strconv.FormatInt(c.charged, 10))
		if c.haveBal {
			h.Set("X-Credits-Balance", strconv.FormatInt(c.balance, 10))
		}
	}
	if c.tierUsed != "" {
		path := make([]string, len(c.cascadePath))
		for i, t := range c.cascadePath {
			path[i] = string(t)
		}
		h.Set("X-Tier-Used", string(c.tierUsed))
		h.Set("X-Cascade-Path", strings.Join(path, ","))
	}
}

// setRateHeaders writes both spellings: x-ratelimit-reset is a unix time
// (SPEC §8); RateLimit-Reset follows the IETF draft, in seconds from now.
func setRateHeaders(h http.Header, d billing.Decision, now time.Time) {
	limit, remaining := strconv.Itoa(d.Limit), strconv.Itoa(d.Remaining)
	h.Set("X-Ratelimit-Limit", limit)
	h.Set("X-Ratelimit-Remaining", remaining)
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(d.Reset.Unix(), 10))
	h.Set("RateLimit-Limit", limit)
	h.Set("RateLimit-Remaining", remaining)
	h.Set("RateLimit-Reset", strconv.FormatInt(int64(max(0, d.Reset.Sub(now).Round(time.Second).Seconds())), 10))
	if !d.Allowed {
		h.Set("Retry-After", strconv.FormatInt(int64((d.RetryAfter+time.Second-1)/time.Second), 10))
	}
}

// principal is the authenticated caller.
type principal struct {
	account store.Account
	key     store.Key
	plan    billing.Plan
	// payer is the account the call is charged to and logged under: the
	// caller's own, or for an org key the org's wallet.
	payer int64
}
