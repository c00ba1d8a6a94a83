package otlptest_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/webinfra/webinfra/internal/otlptest"
)

var start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func exportBody(t *testing.T, name string) []byte {
	t.Helper()
	str := func(k, v string) *commonpb.KeyValue {
		return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
	}
	msg := &collectortrace.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
		Resource: &resourcepb.Resource{Attributes: []*commonpb.KeyValue{str("service.name", "svc")}},
		ScopeSpans: []*tracepb.ScopeSpans{{
			Scope: &commonpb.InstrumentationScope{Name: "scope"},
			Spans: []*tracepb.Span{{
				Name:              name,
				TraceId:           bytes.Repeat([]byte{0xab}, 16),
				SpanId:            bytes.Repeat([]byte{0xcd}, 8),
				Kind:              tracepb.Span_SPAN_KIND_SERVER,
				StartTimeUnixNano: uint64(start.UnixNano()),
				EndTimeUnixNano:   uint64(start.Add(time.Second).UnixNano()),
				Status:            &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "boom"},
				Attributes: []*commonpb.KeyValue{
					str("s", "v"),
					{Key: "i", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: 42}}},
					{Key: "f", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: 1.5}}},
					{Key: "b", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: true}}},
				},
			}},
		}},
	}}}
	body, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func post(t *testing.T, r *otlptest.Receiver, body []byte, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.URL(), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	resp, err := r.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReceiverDecodesExports(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		new  func(testing.TB) *otlptest.Receiver
		gzip bool
	}{
		{"tls", otlptest.NewTLS, false},
		{"tls gzip", otlptest.NewTLS, true},
		{"plain", otlptest.New, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.new(t)
			body := exportBody(t, "GET /x")
			h := http.Header{"Content-Type": {"application/x-protobuf"}, "Authorization": {"Bearer k"}}
			if tc.gzip {
				body = gzipped(t, body)
				h.Set("Content-Encoding", "gzip")
			}
			resp := post(t, r, body, h)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-protobuf" {
				t.Fatalf("answer %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			got := r.Wait(t, 1, 5*time.Second)[0]
			if got.Name != "GET /x" || got.Kind != trace.SpanKindServer || got.StatusCode != codes.Error || got.StatusMessage != "boom" {
				t.Errorf("span = %+v", got)
			}
			if got.TraceID != "abababababababababababababababab" || got.SpanID != "cdcdcdcdcdcdcdcd" || got.ParentSpanID != "" {
				t.Errorf("ids = %s %s %q", got.TraceID, got.SpanID, got.ParentSpanID)
			}
			if got.Attributes["s"] != "v" || got.Attributes["i"] != int64(42) || got.Attributes["f"] != 1.5 || got.Attributes["b"] != true {
				t.Errorf("attributes = %v", got.Attributes)
			}
			if got.ResourceAttributes["service.name"] != "svc" || got.Scope != "scope" {
				t.Errorf("resource = %v scope %q", got.ResourceAttributes, got.Scope)
			}
			if !got.Start.Equal(start) || !got.End.Equal(start.Add(time.Second)) {
				t.Errorf("times = %v %v", got.Start, got.End)
			}
			if hs := r.Headers(); len(hs) != 1 || hs[0].Get("Authorization") != "Bearer k" {
				t.Errorf("headers = %v", hs)
			}
		})
	}
}

func TestReceiverFailures(t *testing.T) {
	t.Parallel()
	r := otlptest.NewTLS(t)
	protobuf := http.Header{"Content-Type": {"application/x-protobuf"}}

	r.SetStatus(http.StatusServiceUnavailable)
	if resp := post(t, r, exportBody(t, "a"), protobuf); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", resp.StatusCode)
	}
	r.SetStatus(0)
	if resp := post(t, r, exportBody(t, "b"), http.Header{"Content-Type": {"application/json"}}); resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("json: status %d, want 415", resp.StatusCode)
	}
	if resp := post(t, r, []byte("not protobuf \xff\xff"), protobuf); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("garbage: status %d, want 400", resp.StatusCode)
	}
	if resp := post(t, r, exportBody(t, "c"), protobuf); resp.StatusCode != http.StatusOK {
		t.Errorf("status %d after reset, want 200", resp.StatusCode)
	}
	if got := r.Spans(); len(got) != 1 || got[0].Name != "c" {
		t.Errorf("spans = %+v, want only the accepted one", got)
	}
	if n := len(r.Headers()); n != 4 {
		t.Errorf("%d requests recorded, want 4", n)
	}
}

// fakeTB records a failure instead of stopping the goroutine.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true }

func TestWaitTimesOut(t *testing.T) {
	t.Parallel()
	r := otlptest.NewTLS(t)
	tb := &fakeTB{TB: t}
	if got := r.Wait(tb, 1, time.Millisecond); got != nil || !tb.failed {
		t.Errorf("Wait = %v, failed %v; want nil and a failure", got, tb.failed)
	}
}
