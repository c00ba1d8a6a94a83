// Package jobs runs long work as durable asynchronous jobs and delivers
// their results to signed HTTPS webhooks.
//
// The queue is River (github.com/riverqueue/river). The embedded default
// keeps River's tables in their own SQLite file (OpenSQLite); a PostgreSQL
// deployment passes River's riverpgxv5 driver to New instead, so the driver
// is the seam. Job records and the webhook delivery log live in the store
// (store.Jobs, store.Webhooks); River only carries "run job X" and "deliver
// delivery Y".
//
// # Job states
//
//	queued ──start──▶ running ──▶ completed
//	                     │  ▲
//	                     │  └── restart (a crash or SIGKILL mid-run)
//	                     └─────▶ failed
//
// A job is queued when accepted. A worker moves it to running (counting an
// attempt) and then to completed, with a result in the shape of the matching
// synchronous endpoint, or to failed, with an error. completed and failed are
// final: a worker that finds a final job does nothing, so running a job
// twice (after a crash) finishes it, refunds it and notifies once.
//
// # Credits
//
// Submitting a job is a charged call: the sticker cost (one credit per URL)
// is charged when the job is accepted, and the job is enqueued only after
// that charge is settled (Create, then Enqueue), so a refund never comes
// before its charge and an uncharged job never runs. When the job finishes, the credits of
// the URLs that failed are refunded in the same transaction that makes the
// job final, so a refund happens at most once.
//
// # Durability
//
// A job record is written before its River job, and a job's webhook
// delivery is stored in the transaction that finishes the job. On start,
// the queue re-enqueues every unfinished job and every pending delivery, so
// a job accepted is never lost and its webhook never forgotten, whatever
// moment the process was killed at. The first attempt of a delivery is made
// by the worker that finished the job, at once; River carries the retries.
//
// # Webhooks
//
// A job submitted with a webhook_url (HTTPS only, checked against the SSRF
// guard when the job is created) ends with a POST of {job_id, result} to it,
// signed with the account's webhook secret (see Sign and VerifySignature).
// SPEC's two retry statements are reconciled like this: one delivery attempt
// is an immediate try plus up to three retries 1 s, 2 s and 4 s apart, each
// try with a 15 s timeout; a failed attempt is rescheduled (AttemptDelay), up
// to MaxAttempts attempts within 24 hours. Every try is logged (status code,
// error, latency, time). After the last failed attempt the delivery is dead
// (the dead-letter list) and the job's result carries a _webhook field with
// the outcome. Replay re-sends a delivery, re-signed with a fresh timestamp
// and the same event id.
package jobs
