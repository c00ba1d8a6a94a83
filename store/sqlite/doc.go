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
//     (database/sql waits for the one connection) instead of meeting
//     SQLITE_BUSY, and every read-check-write transaction (Reserve,
//     BeginIdempotent, RotateKey) is serialized by construction;
//   - the readers, a few query_only connections for lookups and listings,
//     which WAL lets run beside the writer.
//
// The hot statements (Reserve, Settle, Release, InsertUsage, KeyByHash)
// are prepared once in Open. Reserve is two indexed statements, Settle at
// most five, and the tables they write are laid out so that one charged
// call dirties about seven pages in all.
//
// # Cancellation
//
// A write honours ctx while it waits for the writer and rolls back if ctx
// ends mid-transaction; single statements inside do not watch ctx (they
// take microseconds). Settle and Release ignore cancellation altogether:
// a call whose client has gone still gets its work booked or its hold
// freed. KeyByHash, one index lookup on every call, does not watch ctx.
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
// A hold counts against quota, daily cap and balance while the reserving
// call's now < created_at + TTL. Settle accepts a hold after its TTL too
// (the call did run). Holds that expired more than a day earlier are left
// by calls that never settled (a crash); every 1,024th Reserve deletes
// them, after which Settle reports them as not found.
//
// An unmetered Reservation writes nothing and always succeeds, so there is
// no hold to settle: callers must skip Settle for unmetered calls (it
// would be errs.KindNotFound); Release of them is a harmless no-op.
//
// Beyond the store contracts this driver rejects, as errs.KindInvalid and
// without writing: a Reservation with a negative cost, an empty request
// id or a TTL <= 0; a Settlement charging more than was held or a
// negative amount; keys without a hash or of an unknown kind.
//
// CreateKey has no clock argument: a non-zero Key.CreatedAt is used as the
// creation time and a zero one is replaced by the current time.
package sqlite
