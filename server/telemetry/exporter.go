package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"golang.org/x/net/http/httpguts"

	"github.com/webinfra/webinfra/errs"
)

// Destination is one forwarder's target.
type Destination struct {
	// Endpoint is the full OTLP/HTTP traces URL, used as given:
	// https://collector.example/v1/traces (or http:// where the operator
	// allows it; that policy is the server's).
	Endpoint string
	// Headers (the auth header and any extra ones) are sent on every
	// export. Their values never appear in logs or in Test's detail.
	Headers map[string]string
}

// Validate reports what is wrong with d as an errs.KindInvalid error whose
// Field is "endpoint" or "headers"; it never echoes a header value.
func (d Destination) Validate() error {
	u, err := url.Parse(d.Endpoint)
	if err != nil {
		return errs.Invalid("endpoint", "not a URL")
	}
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return errs.Invalid("endpoint", "scheme must be https or http")
	case u.Host == "" || u.Hostname() == "":
		return errs.Invalid("endpoint", "host missing")
	case u.User != nil:
		return errs.Invalid("endpoint", "credentials in the URL are not allowed; use a header")
	case u.RawQuery != "" || u.Fragment != "":
		return errs.Invalid("endpoint", "query and fragment are not allowed")
	}
	for name, value := range d.Headers {
		if !httpguts.ValidHeaderFieldName(name) {
			return errs.Invalid("headers", "invalid header name %q", name)
		}
		if !httpguts.ValidHeaderFieldValue(value) {
			return errs.Invalid("headers", "invalid value for header %q", name)
		}
	}
	return nil
}

func (d Destination) equal(o Destination) bool {
	return d.Endpoint == o.Endpoint && maps.Equal(d.Headers, o.Headers)
}

// exporterConfig is what every exporter is built from.
type exporterConfig struct {
	client *http.Client
	opts   *Options // defaults applied
}

// newExporter builds an OTLP/HTTP exporter for d whose requests go through
// a copy of the configured client, wrapped to record the last answer.
// Retries are off: a failed batch is dropped and counted.
func (c exporterConfig) newExporter(ctx context.Context, d Destination) (sdktrace.SpanExporter, *answerRecorder, error) {
	if err := d.Validate(); err != nil {
		return nil, nil, err
	}
	rec := &answerRecorder{base: c.client.Transport}
	if rec.base == nil {
		rec.base = http.DefaultTransport
	}
	client := *c.client
	client.Transport = rec
	exp, err := otlptracehttp.New(ctx,
		otlptracehttp.WithEndpointURL(d.Endpoint),
		otlptracehttp.WithHeaders(maps.Clone(d.Headers)),
		otlptracehttp.WithHTTPClient(&client),
		otlptracehttp.WithTimeout(c.opts.ExportTimeout),
		otlptracehttp.WithCompression(otlptracehttp.GzipCompression),
		otlptracehttp.WithEncoding(otlptracehttp.EncodingProtobuf),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}),
	)
	if err != nil {
		return nil, nil, err
	}
	return exp, rec, nil
}

// answerRecorder is a RoundTripper that remembers the last status or
// transport error, so failures are described by what the endpoint said
// rather than by the exporter's message (which quotes response bodies).
type answerRecorder struct {
	base http.RoundTripper

	mu     sync.Mutex
	status int
	err    error
}

func (a *answerRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := a.base.RoundTrip(req)
	a.mu.Lock()
	a.status, a.err = 0, err
	if resp != nil {
		a.status = resp.StatusCode
	}
	a.mu.Unlock()
	return resp, err
}

func (a *answerRecorder) reset() {
	a.mu.Lock()
	a.status, a.err = 0, nil
	a.mu.Unlock()
}

func (a *answerRecorder) last() (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.status, a.err
}

// describe turns an export's outcome into an operator- and customer-safe
// sentence: the HTTP status, or the transport error without the URL. It
// never contains header values.
func describe(exportErr error, rec *answerRecorder) (ok bool, detail string) {
	status, transportErr := rec.last()
	switch {
	case exportErr == nil && status >= 200 && status <= 299:
		return true, fmt.Sprintf("accepted (HTTP %d)", status)
	case status >= 200 && status <= 299:
		return false, fmt.Sprintf("HTTP %d but the receiver rejected the span (partial success)", status)
	case status != 0:
		detail = fmt.Sprintf("rejected (HTTP %d %s)", status, http.StatusText(status))
		if status == http.StatusUnauthorized || status == http.StatusForbidden {
			detail += ": check the auth header"
		}
		return false, detail
	case transportErr != nil:
		return false, "request failed: " + transportMessage(transportErr)
	case exportErr != nil:
		return false, "export failed: " + transportMessage(exportErr)
	default:
		return false, "export failed: no answer"
	}
}

// transportMessage is err without the url.Error wrapper (which repeats the
// endpoint) and without the server's resolver address, with timeouts said
// plainly.
func transportMessage(err error) string {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return "timed out"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return "lookup " + dnsErr.Name + ": " + dnsErr.Err // without our resolver's address
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return msg
}

// forwarder is one destination's live pipeline: an exporter behind a
// batch span processor, with a queue bound enforced before the processor
// so drops are counted here.
type forwarder struct {
	accountID, id int64
	dest          Destination
	bsp           sdktrace.SpanProcessor
	rec           *answerRecorder
	maxQueue      int64
	pending       atomic.Int64 // spans handed to bsp and not yet through an export
	failing       atomic.Bool  // the last export failed (for log-on-change)
	stats         *counters
	log           *slog.Logger
}

// counters are Forwarding-wide and atomic.
type counters struct {
	queued, exported, failed, dropped atomic.Int64
}

func (c exporterConfig) newForwarder(accountID, id int64, d Destination, stats *counters, log *slog.Logger) (*forwarder, error) {
	exp, rec, err := c.newExporter(context.Background(), d)
	if err != nil {
		return nil, err
	}
	fw := &forwarder{
		accountID: accountID, id: id, rec: rec, stats: stats,
		dest:     Destination{Endpoint: d.Endpoint, Headers: maps.Clone(d.Headers)},
		maxQueue: int64(c.opts.MaxQueue),
		log:      log.With("account_id", accountID, "forwarder_id", id),
	}
	fw.bsp = sdktrace.NewBatchSpanProcessor(&countingExporter{SpanExporter: exp, fw: fw},
		sdktrace.WithBatchTimeout(c.opts.BatchDelay),
		sdktrace.WithExportTimeout(c.opts.ExportTimeout),
		sdktrace.WithMaxQueueSize(c.opts.MaxQueue),
		sdktrace.WithMaxExportBatchSize(min(sdktrace.DefaultMaxExportBatchSize, c.opts.MaxQueue)))
	return fw, nil
}

// enqueue hands an ended span to the batch processor unless MaxQueue spans
// are already waiting; it never blocks.
func (fw *forwarder) enqueue(s sdktrace.ReadOnlySpan) {
	if fw.pending.Add(1) > fw.maxQueue {
		fw.pending.Add(-1)
		fw.stats.dropped.Add(1)
		return
	}
	fw.stats.queued.Add(1)
	fw.bsp.OnEnd(s)
}

// shutdown flushes what is buffered and stops the exporter.
func (fw *forwarder) shutdown(ctx context.Context) error {
	if err := fw.bsp.Shutdown(ctx); err != nil {
		return fmt.Errorf("forwarder %d: shutdown: %s", fw.id, transportMessage(err))
	}
	return nil
}

// countingExporter counts and logs each batch's outcome and returns nil,
// so failures of customers' collectors do not reach the global OTel error
// handler (the SDK would log each one).
type countingExporter struct {
	sdktrace.SpanExporter
	fw *forwarder
}

func (e *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	fw := e.fw
	defer fw.pending.Add(-int64(len(spans)))
	fw.rec.reset() // the processor exports one batch at a time
	err := e.SpanExporter.ExportSpans(ctx, spans)
	ok, detail := describe(err, fw.rec)
	if ok {
		fw.stats.exported.Add(int64(len(spans)))
		if fw.failing.Swap(false) {
			fw.log.Info("telemetry forwarder recovered", "detail", detail)
		}
		return nil
	}
	fw.stats.failed.Add(int64(len(spans)))
	if !fw.failing.Swap(true) {
		fw.log.Warn("telemetry forwarder export failed; spans dropped", "spans", len(spans), "detail", detail)
	} else {
		fw.log.Debug("telemetry forwarder export failed; spans dropped", "spans", len(spans), "detail", detail)
	}
	return nil
}

// Test exports s to d synchronously through a throwaway exporter (no
// batching, no retry, bounded by ExportTimeout and ctx). ok is true when
// the endpoint answered 2xx and accepted the span. detail is one sentence
// safe to show the customer and to store: "accepted (HTTP 200)",
// "rejected (HTTP 503 Service Unavailable)", "request failed: dial tcp
// 127.0.0.1:9: connect: connection refused", "invalid destination:
// endpoint: …". It never echoes header values.
func (f *Forwarding) Test(ctx context.Context, d Destination, s Span) (ok bool, detail string) {
	exp, rec, err := f.exporters.newExporter(ctx, d)
	if err != nil {
		return false, "invalid destination: " + err.Error()
	}
	defer func() {
		shutCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.opts.ExportTimeout)
		defer cancel()
		_ = exp.Shutdown(shutCtx)
	}()
	ro := f.builder.build(s)
	if ro == nil {
		return false, "export failed: span not recorded"
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.ExportTimeout)
	defer cancel()
	return describe(exp.ExportSpans(ctx, []sdktrace.ReadOnlySpan{ro}), rec)
}
