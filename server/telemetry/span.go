package telemetry

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of every exported span.
const ScopeName = "github.com/webinfra/webinfra/server/telemetry"

// Attribute keys of an exported span. The http.* ones and error.type are
// OpenTelemetry semantic conventions; webinfra.* are this product's.
const (
	AttrHTTPMethod     = "http.request.method"
	AttrHTTPRoute      = "http.route"
	AttrHTTPStatusCode = "http.response.status_code"
	AttrErrorType      = "error.type"
	AttrOperation      = "webinfra.operation"
	AttrRequestID      = "webinfra.request_id"
	AttrAccountID      = "webinfra.account_id"
	AttrCreditsCharged = "webinfra.credits_charged"
	AttrTier           = "webinfra.tier"
)

// Span is one API call: what is exported. It holds no API key and no
// request or response body, and nothing here adds any.
type Span struct {
	AccountID      int64
	RequestID      string
	Operation      string // catalog operation id, e.g. "scrape"
	Method         string // "POST"
	Route          string // "/v1/scrape"
	Status         int    // the HTTP status answered
	Start          time.Time
	Duration       time.Duration
	CreditsCharged int64
	Tier           string // fetch tier; "" when nothing was fetched
	// Trace is the call's span context: the trace and span ids the server
	// put in its traceparent response header. When valid, the exported
	// span carries exactly these ids; when zero, the SDK makes new ones.
	Trace trace.SpanContext
}

// name is "<Method> <Route>", falling back to the operation.
func (s Span) name() string {
	name := strings.TrimSpace(s.Method + " " + s.Route)
	if name == "" {
		name = s.Operation
	}
	if name == "" {
		name = "request"
	}
	return name
}

func (s Span) attributes() []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 10)
	if s.Method != "" {
		attrs = append(attrs, attribute.String(AttrHTTPMethod, s.Method))
	}
	if s.Route != "" {
		attrs = append(attrs, attribute.String(AttrHTTPRoute, s.Route))
	}
	if s.Status != 0 {
		attrs = append(attrs, attribute.Int(AttrHTTPStatusCode, s.Status))
	}
	if s.Status >= 500 {
		attrs = append(attrs, attribute.String(AttrErrorType, strconv.Itoa(s.Status)))
	}
	if s.Operation != "" {
		attrs = append(attrs, attribute.String(AttrOperation, s.Operation))
	}
	if s.RequestID != "" {
		attrs = append(attrs, attribute.String(AttrRequestID, s.RequestID))
	}
	attrs = append(attrs,
		attribute.Int64(AttrAccountID, s.AccountID),
		attribute.Int64(AttrCreditsCharged, s.CreditsCharged))
	if s.Tier != "" {
		attrs = append(attrs, attribute.String(AttrTier, s.Tier))
	}
	return attrs
}

// spanBuilder turns a Span into an ended SDK span, built once per call and
// handed to every forwarder of the account.
type spanBuilder struct {
	tp     *sdktrace.TracerProvider
	tracer trace.Tracer
	now    func() time.Time
}

func newSpanBuilder(serviceName, serviceVersion string, now func() time.Time) *spanBuilder {
	res := resource.NewSchemaless(
		attribute.String("service.name", serviceName),
		attribute.String("service.version", serviceVersion),
		attribute.String("telemetry.sdk.name", "opentelemetry"),
		attribute.String("telemetry.sdk.language", "go"),
	)
	// No span processor: the builder only makes spans; the forwarders'
	// batch processors receive them from Record.
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithIDGenerator(callIDs{}),
	)
	return &spanBuilder{tp: tp, tracer: tp.Tracer(ScopeName), now: now}
}

// build returns s as an ended, read-only span, or nil if the SDK did not
// record it.
func (b *spanBuilder) build(s Span) sdktrace.ReadOnlySpan {
	start, end := s.Start, time.Time{}
	dur := max(s.Duration, 0)
	if start.IsZero() {
		end = b.now()
		start = end.Add(-dur)
	} else {
		end = start.Add(dur)
	}
	ctx := context.WithValue(context.Background(), callIDsKey{}, s.Trace)
	_, sp := b.tracer.Start(ctx, s.name(),
		trace.WithNewRoot(), // never a child of whatever span the caller's context holds
		trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(start),
		trace.WithAttributes(s.attributes()...))
	if s.Status >= 500 {
		sp.SetStatus(codes.Error, "HTTP "+strconv.Itoa(s.Status))
	}
	sp.End(trace.WithTimestamp(end))
	ro, ok := sp.(sdktrace.ReadOnlySpan)
	if !ok {
		return nil
	}
	return ro
}

// callIDsKey keys the call's span context in the context handed to the
// tracer, where callIDs finds it.
type callIDsKey struct{}

// callIDs is an IDGenerator that gives a span the call's own trace and
// span ids when the context carries valid ones, and random ids otherwise,
// so an exported span matches the call's traceparent response header.
type callIDs struct{}

func (callIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	sc, _ := ctx.Value(callIDsKey{}).(trace.SpanContext)
	tid, sid := sc.TraceID(), sc.SpanID()
	if !tid.IsValid() {
		tid = randomTraceID()
	}
	if !sid.IsValid() {
		sid = randomSpanID()
	}
	return tid, sid
}

func (callIDs) NewSpanID(ctx context.Context, traceID trace.TraceID) trace.SpanID {
	if sc, _ := ctx.Value(callIDsKey{}).(trace.SpanContext); sc.SpanID().IsValid() && sc.TraceID() == traceID {
		return sc.SpanID()
	}
	return randomSpanID()
}

func randomTraceID() trace.TraceID {
	var tid trace.TraceID
	for !tid.IsValid() {
		binary.BigEndian.PutUint64(tid[:8], rand.Uint64())
		binary.BigEndian.PutUint64(tid[8:], rand.Uint64())
	}
	return tid
}

func randomSpanID() trace.SpanID {
	var sid trace.SpanID
	for !sid.IsValid() {
		binary.BigEndian.PutUint64(sid[:], rand.Uint64())
	}
	return sid
}
