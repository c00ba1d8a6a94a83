// Package otlptest runs a real OTLP/HTTP traces receiver on loopback for
// tests: an httptest server (TLS or plain) that accepts
// POST /v1/traces with an application/x-protobuf body (gzip or not),
// decodes the collector's ExportTraceServiceRequest, records every span
// with its resource attributes and every request's headers, and answers
// with an ExportTraceServiceResponse — or with the status a test set, to
// play a failing collector.
//
// A test starts one, points an exporter at it and waits for spans:
//
//	rcv := otlptest.NewTLS(t)          // closed by t.Cleanup
//	exp := newExporter(rcv.URL(), rcv.Client())
//	...
//	spans := rcv.Wait(t, 1, 5*time.Second) // fails the test on timeout
//	if spans[0].Attributes["http.route"] != "/v1/scrape" { ... }
//	rcv.Headers()[0].Get("Authorization")
//
// Every httptest TLS server presents the same built-in certificate for
// 127.0.0.1, so the client of one receiver also trusts the others.
// Wait blocks on a channel that is replaced at every arrival; it never
// polls with sleeps.
package otlptest
