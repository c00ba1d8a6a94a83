package otlptest

import (
	"compress/gzip"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// TracesPath is the path the receiver accepts exports on.
const TracesPath = "/v1/traces"

// maxBody bounds a request body, compressed or not.
const maxBody = 16 << 20

// Span is one received span, flattened for assertions.
type Span struct {
	Name          string
	TraceID       string // 32 lowercase hex digits
	SpanID        string // 16 lowercase hex digits
	ParentSpanID  string // "" for a root span
	Kind          trace.SpanKind
	StatusCode    codes.Code
	StatusMessage string
	Scope         string // instrumentation scope name
	// Attributes and ResourceAttributes hold string, int64, float64, bool,
	// []byte, []any (arrays) and map[string]any (key-value lists).
	Attributes         map[string]any
	ResourceAttributes map[string]any
	Start, End         time.Time
}

// Receiver is an OTLP/HTTP traces receiver on loopback. It is safe for
// concurrent use.
type Receiver struct {
	srv *httptest.Server

	mu      sync.Mutex
	status  int // answer status; 0 → 200
	spans   []Span
	headers []http.Header
	arrived chan struct{} // closed and replaced whenever spans arrive
}

// NewTLS starts a receiver behind HTTPS (httptest.NewTLSServer); it is
// closed when the test ends.
func NewTLS(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{arrived: make(chan struct{})}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

// New starts a receiver behind plain HTTP; it is closed when the test
// ends.
func New(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{arrived: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

// URL is the full traces URL, e.g. https://127.0.0.1:41234/v1/traces.
func (r *Receiver) URL() string { return r.srv.URL + TracesPath }

// Client is an HTTP client that trusts the receiver's certificate.
func (r *Receiver) Client() *http.Client { return r.srv.Client() }

// Certificate is the TLS receiver's certificate, for a client's roots
// (nil for a plain receiver).
func (r *Receiver) Certificate() *x509.Certificate { return r.srv.Certificate() }

// Close stops the receiver; its port then refuses connections. Calling it
// again does nothing.
func (r *Receiver) Close() { r.srv.Close() }

// SetStatus makes the receiver answer every later export with status
// (e.g. 503) and drop its spans; 200 (or 0) restores success.
func (r *Receiver) SetStatus(status int) {
	r.mu.Lock()
	r.status = status
	r.mu.Unlock()
}

// Spans returns a copy of the spans received so far, in arrival order.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Headers returns a copy of the headers of every export request received
// so far (also the ones answered with a failure status), in arrival order.
func (r *Receiver) Headers() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]http.Header, len(r.headers))
	for i, h := range r.headers {
		out[i] = h.Clone()
	}
	return out
}

// Wait blocks until at least n spans have arrived and returns them all; it
// fails the test when timeout passes first. Call it from the test's
// goroutine.
func (r *Receiver) Wait(t testing.TB, n int, timeout time.Duration) []Span {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		if len(r.spans) >= n {
			out := append([]Span(nil), r.spans...)
			r.mu.Unlock()
			return out
		}
		arrived, got := r.arrived, len(r.spans)
		r.mu.Unlock()
		select {
		case <-arrived:
		case <-deadline.C:
			t.Fatalf("otlptest: %d of %d spans arrived within %v", got, n, timeout)
			return nil
		}
	}
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != TracesPath {
		http.NotFound(w, req)
		return
	}
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	r.mu.Lock()
	r.headers = append(r.headers, req.Header.Clone())
	status := r.status
	r.mu.Unlock()

	if ct := req.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		http.Error(w, "unsupported content type "+ct, http.StatusUnsupportedMediaType)
		return
	}
	msg, err := decode(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if status != 0 && status != http.StatusOK {
		http.Error(w, http.StatusText(status), status)
		return
	}
	r.record(flatten(msg))

	body, err := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(body)
}

func (r *Receiver) record(spans []Span) {
	if len(spans) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans = append(r.spans, spans...)
	close(r.arrived)
	r.arrived = make(chan struct{})
}

// decode reads and unmarshals an export request, gunzipping it when its
// Content-Encoding says gzip.
func decode(req *http.Request) (*collectortrace.ExportTraceServiceRequest, error) {
	var body io.Reader = io.LimitReader(req.Body, maxBody)
	switch enc := req.Header.Get("Content-Encoding"); enc {
	case "", "identity":
	case "gzip":
		gz, err := gzip.NewReader(body)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer gz.Close()
		body = io.LimitReader(gz, maxBody)
	default:
		return nil, fmt.Errorf("unsupported content encoding %q", enc)
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	msg := &collectortrace.ExportTraceServiceRequest{}
	if err := proto.Unmarshal(raw, msg); err != nil {
		return nil, fmt.Errorf("decode ExportTraceServiceRequest: %w", err)
	}
	return msg, nil
}

func flatten(msg *collectortrace.ExportTraceServiceRequest) []Span {
	var out []Span
	for _, rs := range msg.GetResourceSpans() {
		res := attributes(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				out = append(out, Span{
					Name:               s.GetName(),
					TraceID:            hex.EncodeToString(s.GetTraceId()),
					SpanID:             hex.EncodeToString(s.GetSpanId()),
					ParentSpanID:       hex.EncodeToString(s.GetParentSpanId()),
					Kind:               trace.SpanKind(s.GetKind()), // same numbering
					StatusCode:         statusCode(s.GetStatus().GetCode()),
					StatusMessage:      s.GetStatus().GetMessage(),
					Scope:              ss.GetScope().GetName(),
					Attributes:         attributes(s.GetAttributes()),
					ResourceAttributes: maps.Clone(res),
					Start:              time.Unix(0, int64(s.GetStartTimeUnixNano())),
					End:                time.Unix(0, int64(s.GetEndTimeUnixNano())),
				})
			}
		}
	}
	return out
}

// statusCode maps OTLP's numbering (unset 0, ok 1, error 2) to the API's
// (unset 0, error 1, ok 2).
func statusCode(c tracepb.Status_StatusCode) codes.Code {
	switch c {
	case tracepb.Status_STATUS_CODE_OK:
		return codes.Ok
	case tracepb.Status_STATUS_CODE_ERROR:
		return codes.Error
	default:
		return codes.Unset
	}
}

func attributes(kvs []*commonpb.KeyValue) map[string]any {
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		out[kv.GetKey()] = value(kv.GetValue())
	}
	return out
}

func value(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_BytesValue:
		return x.BytesValue
	case *commonpb.AnyValue_ArrayValue:
		vals := x.ArrayValue.GetValues()
		out := make([]any, len(vals))
		for i, e := range vals {
			out[i] = value(e)
		}
		return out
	case *commonpb.AnyValue_KvlistValue:
		return attributes(x.KvlistValue.GetValues())
	default:
		return nil
	}
}
