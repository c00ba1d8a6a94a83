// Package telemetry forwards one OpenTelemetry span per API call to the
// account's forwarders: the OTLP/HTTP traces endpoints customers register.
//
// # Pipeline
//
// Record builds the call's span once with the OpenTelemetry Go SDK (name
// "<Method> <Route>", kind Server, semantic-convention http.* attributes
// plus webinfra.operation, webinfra.request_id, webinfra.account_id,
// webinfra.credits_charged and webinfra.tier; status Error from HTTP 500)
// and hands the same ended span to every forwarder of the account. A
// span carries no API key and no request or response body. When the call's
// span context is valid, the exported span has exactly its trace and span
// ids (a custom IDGenerator supplies them), so a customer can find the
// span named by the traceparent response header.
//
// Each forwarder is one otlptracehttp exporter behind one SDK
// BatchSpanProcessor. Exports go through the client in Options.HTTPClient
// (the server's SSRF-guarded one), gzip-compressed, without the exporter's
// own retries: a failed batch is dropped, counted (Stats.Failed) and
// logged once per failing streak with a description that never contains
// header values or response bodies. Failures never reach the global OTel
// error handler.
//
// # Bounds
//
// Record never waits on an export. A forwarder buffers at most MaxQueue
// spans (queued and in flight); beyond that spans are dropped and counted
// (Stats.Dropped). At most MaxAccounts forwarder sets are cached; the
// least recently used account is evicted and its exporters are shut down
// in the background, flushing what they hold. Each export and each Load
// is bounded by ExportTimeout.
//
// # Freshness
//
// An account's set comes from Load the first time it is needed and again
// once it is older than Refresh (other server processes may have changed
// it); concurrent Records share one Load per account. Add and Remove
// change the set at once in this process: Remove flushes the forwarder's
// buffered spans in the background and never blocks its caller. A Load
// that was in flight during an Add or Remove does not undo it. If Load
// fails, the last known set stays in use until the next Refresh.
//
// Test sends one span synchronously to a destination through a throwaway
// exporter and says, in one storable sentence, what the endpoint answered.
//
// Time is injected (Options.Now) so Refresh is tested without sleeping.
package telemetry
