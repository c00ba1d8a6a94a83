// Package server is Webinfra's reference /v1 HTTP server: it wires the
// capability packages (fetch, …) to the account system (keys, credits, rate
// limits, usage log) and serves the OpenAPI 3.1 document.
//
// # The operation catalog
//
// Every endpoint is declared once, in operations.go: method, path, tag,
// price, whether it needs a key, and its typed handler. Routes, the OpenAPI
// document (/openapi.json, /docs), the cost table and cost estimates all
// read that one list. Endpoints whose capability is not built yet are in
// the catalog too; they answer 501 and charge nothing.
//
// # The pipeline
//
// Server.ServeHTTP runs each request through one pipeline (pipeline.go):
// request id, W3C trace context and server timing on every response; the
// API key; the account's token bucket (the client IP's on public routes);
// the body limit; the page gate, which bounds the bytes of pages worked on
// at once over all calls (pagegate.go: a call's page body, and the pages
// calls fetch, through fetch.WithPageAdmission); Idempotency-Key; a credit
// hold checked against the balance, the monthly request quota and the
// key's daily cap; the handler; settlement of the hold on a 2xx answer or
// its release otherwise; and a usage row. A call refused at any step runs
// nothing and costs nothing.
//
// Handlers are plain typed functions (huma). They read the caller from
// the request context and report what the pipeline cannot know (the fetch
// tier used) with reportFetch.
//
// # Errors
//
// Capability packages return errors with an errs.Kind; errors.go is the only
// place kinds become HTTP statuses. Every error body has the shape
//
//	{"detail": "...", "kind": "invalid", "errors": [{"location": "body.url", "message": "..."}], "request_id": "..."}
//
// except the per-minute rate limit, which answers {"detail": "Rate limit
// exceeded"} as SPEC §7 fixes.
package server
