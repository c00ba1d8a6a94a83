package telemetry_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/otlptest"
	"github.com/webinfra/webinfra/server/telemetry"
)

func TestTestExport(t *testing.T) {
	t.Parallel()
	ok := otlptest.NewTLS(t)
	failing := otlptest.NewTLS(t)
	failing.SetStatus(http.StatusServiceUnavailable)
	unauthorized := otlptest.NewTLS(t)
	unauthorized.SetStatus(http.StatusUnauthorized)
	closed := otlptest.NewTLS(t)
	closed.Close()

	cases := []struct {
		name       string
		dest       telemetry.Destination
		wantOK     bool
		wantDetail string
	}{
		{"accepted", dest(ok), true, "accepted (HTTP 200)"},
		{"503", dest(failing), false, "rejected (HTTP 503 Service Unavailable)"},
		{"401", dest(unauthorized), false, "rejected (HTTP 401 Unauthorized): check the auth header"},
		{"closed port", dest(closed), false, "connection refused"},
		{"not a traces URL", telemetry.Destination{Endpoint: "ftp://collector.example/v1/traces"}, false,
			"invalid destination: endpoint: scheme must be https or http"},
		{"bad header value", telemetry.Destination{Endpoint: ok.URL(), Headers: map[string]string{"Authorization": "a\nb"}}, false,
			`invalid destination: headers: invalid value for header "Authorization"`},
	}
	f := newForwarding(t, ok, nil, telemetry.Options{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := call(1, "test_"+tc.name)
			s.Trace = callContext(t, 9)
			gotOK, detail := f.Test(context.Background(), tc.dest, s)
			if gotOK != tc.wantOK || !strings.Contains(detail, tc.wantDetail) {
				t.Errorf("Test = %v %q, want %v containing %q", gotOK, detail, tc.wantOK, tc.wantDetail)
			}
			if strings.Contains(detail, "fwd-secret") || strings.Contains(detail, "tenant-1") {
				t.Errorf("detail echoes a header value: %q", detail)
			}
		})
	}
	t.Run("span and headers arrive", func(t *testing.T) {
		t.Parallel()
		rcv := otlptest.NewTLS(t)
		s := call(1, "test_arrives")
		s.Trace = callContext(t, 10)
		if ok, detail := f.Test(context.Background(), dest(rcv), s); !ok {
			t.Fatalf("Test: %s", detail)
		}
		got := rcv.Spans() // synchronous: already there
		if len(got) != 1 || got[0].TraceID != s.Trace.TraceID().String() {
			t.Fatalf("received %+v", got)
		}
		if rcv.Headers()[0].Get("Authorization") != secretAuth {
			t.Errorf("auth header not received")
		}
	})
}

// blockingCollector accepts exports only when released, so a forwarder's
// queue fills deterministically.
func blockingCollector(t *testing.T) (url string, client *http.Client, release func()) {
	t.Helper()
	gate := make(chan struct{})
	var once sync.Once
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-gate:
		case <-r.Context().Done():
		}
	}))
	release = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(srv.Close)
	t.Cleanup(release) // runs first: unblock before closing
	return srv.URL + "/v1/traces", srv.Client(), release
}

func TestQueueBoundDropsAndCounts(t *testing.T) {
	t.Parallel()
	url, client, release := blockingCollector(t)
	f := telemetry.New(nil, &telemetry.Options{HTTPClient: client, MaxQueue: 2, BatchDelay: 3600e9, ExportTimeout: wait})
	t.Cleanup(func() { _ = f.Close(context.Background()) })
	if err := f.Add(1, 1, telemetry.Destination{Endpoint: url}); err != nil {
		t.Fatal(err)
	}
	// The first two fill the queue (and a batch of two starts exporting,
	// held by the collector); the rest are dropped at once, without blocking.
	for i := range 5 {
		f.Record(context.Background(), call(1, fmt.Sprint(i)))
	}
	if st := f.Stats(); st.Queued != 2 || st.Dropped != 3 {
		t.Errorf("stats = %+v, want 2 queued, 3 dropped", st)
	}
	release()
	closeNow(t, f)
	if st := f.Stats(); st.Exported != 2 {
		t.Errorf("stats = %+v, want 2 exported", st)
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	rcv := otlptest.NewTLS(t)
	load := func(_ context.Context, id int64) (map[int64]telemetry.Destination, error) {
		return map[int64]telemetry.Destination{id * 10: dest(rcv)}, nil
	}
	f := newForwarding(t, rcv, load, telemetry.Options{MaxAccounts: 3, Refresh: 1})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				acct := int64(i%5 + 1)
				switch (g + i) % 4 {
				case 0:
					_ = f.Add(acct, int64(g), dest(rcv))
				case 1:
					f.Remove(acct, int64(g))
				default:
					f.Record(context.Background(), call(acct, fmt.Sprintf("g%d-%d", g, i)))
				}
			}
		})
	}
	wg.Wait()
	closeNow(t, f)
	st := f.Stats()
	if st.Queued == 0 || st.Exported+st.Failed > st.Queued {
		t.Errorf("stats = %+v", st)
	}
	if int64(len(rcv.Spans())) != st.Exported {
		t.Errorf("received %d spans, stats say %d exported", len(rcv.Spans()), st.Exported)
	}
}

func TestDestinationValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		endpoint string
		headers  map[string]string
		want     string // "" valid
	}{
		{"https://otlp.example.com/v1/traces", map[string]string{"Authorization": "Bearer x"}, ""},
		{"http://10.0.0.5:4318/v1/traces", nil, ""},
		{"", nil, "scheme"},
		{"otlp.example.com/v1/traces", nil, "scheme"},
		{"https:///v1/traces", nil, "host missing"},
		{"https://user:pw@otlp.example.com/v1/traces", nil, "credentials"},
		{"https://otlp.example.com/v1/traces?token=x", nil, "query"},
		{"https://otlp.example.com/v1/traces", map[string]string{"Bad Name": "x"}, "invalid header name"},
		{"https://otlp.example.com/v1/traces", map[string]string{"X-Key": "v\r\nInjected: 1"}, `invalid value for header "X-Key"`},
		{"%zz", nil, "not a URL"},
	}
	for _, tc := range cases {
		err := telemetry.Destination{Endpoint: tc.endpoint, Headers: tc.headers}.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.endpoint, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q %v: error %v, want %q", tc.endpoint, tc.headers, err, tc.want)
		case err != nil && strings.Contains(err.Error(), "Injected"):
			t.Errorf("error echoes a header value: %v", err)
		case err != nil && (errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) == ""):
			t.Errorf("%q: kind %s field %q, want invalid with a field", tc.endpoint, errs.KindOf(err), errs.FieldOf(err))
		}
	}
}

// The operator's OTEL_EXPORTER_OTLP_* settings (meant for the server's own
// tracing) must never reach a customer's endpoint. Not parallel: Setenv.
func TestOperatorEnvironmentIgnored(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "X-Operator-Key=op-secret")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "X-Operator-Key=op-secret")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://127.0.0.1:1/v1/traces")
	rcv := otlptest.NewTLS(t)
	f := newForwarding(t, rcv, nil, telemetry.Options{})
	if ok, detail := f.Test(context.Background(), telemetry.Destination{Endpoint: rcv.URL()}, call(1, "env")); !ok {
		t.Fatalf("Test: %s", detail)
	}
	if h := rcv.Headers()[0]; h.Get("X-Operator-Key") != "" {
		t.Errorf("operator header sent to a forwarder: %v", h)
	}
}
