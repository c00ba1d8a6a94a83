// Package sqlite is the embedded storage driver: store.Store on one SQLite
// file through modernc.org/sqlite (pure Go, no cgo), the default when no
// PostgreSQL URL is configured.
//
//	db, err := sqlite.Open(ctx, filepath.Join(dataDir, "webinfra.db"))
//	if err != nil { ... }
//	defer db.Close()
//
// # Connections
//
// The file runs in WAL mode with synchronous=NORMAL, foreign keys on and a
// busy timeout. Open builds two pools over it:
//
//   - the writer, a single connection whose transactions start with
//     BEGIN IMMEDIATE. Every write goes through it, so writers queue in Go
//     instead of meeting SQLITE_BUSY, and every read-check-write
//     transaction (BeginIdempotent, RotateKey) is serialized by
//     construction;
//   - the readers, a few query_only connections for lookups and listings,
//     which WAL lets run beside the writer.
//
// # Group commit
//
// Writes are small transactions whose cost is mostly their commit (the
// pages they changed go to the WAL, and the next commit writes the same
// hot pages again), so concurrent writes share one (write.go). A write
// that finds the writer idle runs at once, in a transaction of its own;
// writes that arrive while a transaction runs queue up, and the next
// transaction takes up to 64 of them: each runs inside its own SAVEPOINT,
// in the order they queued and seeing the writes of those before it, and
// the transaction commits once. A write that fails is rolled back to its
// savepoint, leaves no trace and returns its own error while the others
// commit; a failed commit fails them all. Nothing waits on a timer for
// company: a batch is what queued while the previous transaction ran.
// Settle's removal of its hold, like any write's follow-up under the
// holds mutex, happens together with the commit of its batch. Group
// commit is standard practice for single-writer databases; neither
// database/sql nor modernc.org/sqlite offers it.
//
// The hot statements (Reserve's check, Settle, InsertUsage, KeyByHash,
// AccountByID) are prepared once in Open. A charged call costs three
// indexed reads (KeyByHash, AccountByID, Reserve) and one write
// transaction (Settle, at most four statements). The statements every
// asynchronous job runs (CreateJob, StartJob, FinishJob, GetJob, JobByID,
// DeliveryByID, FinishAttempt) are prepared in Open too. A job with a
// webhook delivered at the first attempt costs four write transactions:
// CreateJob, StartJob, FinishJob (with its delivery) and FinishAttempt
// (with its tries).
//
// # One process per file
//
// Open takes an exclusive advisory lock (flock) on a file beside the
// database, its path with "-lock" appended, and Close releases it; opening
// a file that is already open, in this process or another, is
// errs.KindConflict. (Platforms without flock skip the check.)
//
// # Cancellation
//
// A write honours ctx while it waits for the writer (it leaves the queue
// when ctx ends, and does not start if ctx has ended by its turn); once
// started it runs to the end, single statements inside not watching ctx
// (they take microseconds), and its work is rolled back if ctx has ended
// by then. Settle, Release and FinishJob ignore cancellation altogether: a
// call whose client has gone, or a job whose worker is stopping, still
// gets its work booked or its hold freed. Reserve fails if ctx has ended
// when it starts and does not watch it afterwards; neither do KeyByHash,
// AccountByID, GetJob, JobByID and DeliveryByID, one index lookup each.
//
// # Schema
//
// Open runs the goose migrations embedded from migrations/*.sql. Times are
// unix milliseconds (UTC) in INTEGER columns, so values read back are
// truncated to the millisecond. One counters table holds both the monthly
// request counts (account, YYYYMM) and the keys' daily credits (account,
// key, YYYYMMDD), in UTC. The balance lives on the account row and every
// change to it has a ledger row carrying the balance after it; the ledger
// is clustered by account and LedgerEntry.ID is a sequence per account
// (1, 2, 3, ...), unique within the account, not across accounts.
//
// # Holds
//
// Holds live in memory, in the DB, not in the file. An SQLite file is
// served by one process, so the holds of the calls in flight live in that
// process; they vanish with it, which is right, since a process that has
// crashed or stopped has no calls in flight. Reserve therefore writes
// nothing: under a mutex it reads the balance and the month's and day's
// counters (one prepared statement on a reader connection), adds the
// account's live holds, checks, and records the hold. Settle claims the
// hold, writes the charge in one transaction, and commits and drops the
// hold together under the same mutex, so every Reserve sees a settled
// charge either in the hold or in the balance and counters, never in both
// and never in neither. Release only forgets the hold (and is ignored for a
// hold a Settle is writing). Concurrent callers can never overspend, as
// before; the one-process rule is enforced by the lock above. Databases
// created before this design lose their holds table in migration 00002.
//
// Holds are kept per account, so Reserve looks only at its own account's
// holds. A hold counts against quota, daily cap and balance while the
// reserving call's now < created + TTL. Settle accepts a hold after its
// TTL too (the call did run). A hold that expired more than a day earlier
// was left by a call never settled nor released (a bug); the next Reserve
// of its account forgets it, after which Settle reports it as not found.
//
// An unmetered Reservation writes nothing and always succeeds, so there is
// no hold to settle: callers must skip Settle for unmetered calls (it
// would be errs.KindNotFound); Release of them is a harmless no-op.
//
// # Jobs and webhook deliveries
//
// Jobs, webhook deliveries and their try log live in tables of their own
// (migration 00003). FinishJob writes, in one write transaction that first
// re-reads the job, the job's final state, its refund (a ledger row of
// reason "refund", request id the job id, endpoint "job:" + kind, key the
// job's key) and, when the outcome carries one, its webhook delivery,
// stored pending and named by the job's DeliveryID. Of any number of
// concurrent FinishJobs one wins and the rest are errs.KindConflict and
// write nothing: a job is refunded at most once, never more than its
// Credits, has at most one delivery, and never finishes without the
// delivery its outcome carried, so nothing is left to hand to delivery
// after a crash. A refund only raises the balance and involves no hold, so
// Reserve may see it or not yet, never wrongly. StartJob and FinishJob
// return a final job unchanged alongside errs.KindConflict. A delivery
// passed to FinishJob belongs to the job: a zero AccountID or empty JobID
// is filled in from the job, a zero CreatedAt is the outcome's Now.
//
// FinishAttempt updates the delivery (status, attempt count, last answer)
// and appends the attempt's tries to the log in one write transaction;
// a try's DeliveryID may be 0 and is stored as the record's. It accepts
// any status after any other.
//
// CreateJob and CreateDelivery store only the caller's identifying fields,
// cost, URL and times: a job starts queued with no attempts, result or
// delivery, a delivery pending with no attempts (UpdatedAt is CreatedAt).
// Listings for users (ListJobs, ListDeliveries) page like the ledger:
// newest first, a limit of 0 or less means 100, at most 1,000 rows. The
// recovery listings (UnfinishedJobs, PendingDeliveries) take any positive
// limit as given and return every row for 0 or less. Ties of CreatedAt are
// broken by insertion order. Every listing reads one index and sorts
// nothing; the partial indexes only hold unfinished jobs, pending and dead
// deliveries. The try log is append-only and read oldest first (by At,
// then insertion).
//
// Beyond the store contracts this driver rejects, as errs.KindInvalid and
// without writing: a Reservation with a negative cost, an empty request
// id or a TTL <= 0; a Settlement charging more than was held or a
// negative amount; keys without a hash or of an unknown kind; a job
// missing one of ID, AccountID, KeyID, Kind, Input or CreatedAt, with
// negative Credits, or whose Input or Result is not valid JSON; a
// JobOutcome whose Status is not completed or failed, with a negative
// Refund, or whose Delivery names another account or job than the job's;
// a delivery without an event id or URL; in FinishAttempt, an unknown
// delivery status, a negative attempt count, or a try whose attempt or try
// number is below 1 or whose DeliveryID is another delivery's. Jobs and
// deliveries of an unknown account, and attempts of an unknown delivery,
// are errs.KindNotFound.
//
// # Organizations, deletion and forwarders
//
// A team org's credits live on its wallet, an accounts row of kind 'org'
// (migration 00005): Reserve, Settle, the ledger and the usage log work on
// it unchanged, so an org key's calls are charged and logged there.
// MoveCredits takes a hold on its source like a call in flight, so it can
// never spend credits other calls hold. DeleteAccount is one write
// transaction running the statements of sqlrow/erase.go (shared with
// PostgreSQL), and forgets the erased accounts' holds with its commit.
// Forwarders store their sealed credentials as given.
//
// CreateKey has no clock argument: a non-zero Key.CreatedAt is used as the
// creation time and a zero one is replaced by the current time.
package sqlite
