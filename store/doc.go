// Package store defines the storage seam of the account system: accounts,
// API keys, organizations, credits (holds, ledger, quotas, daily caps), the
// usage log and idempotency records.
//
// Store is the interface every driver implements. The embedded default is
// store/sqlite (pure Go, one file, no set-up); a PostgreSQL driver joins it
// for scale-out. store/storetest is the conformance suite each driver runs,
// so the server can rely on the same behaviour whichever is configured.
//
// # Contracts every driver keeps
//
//   - Time is passed in (Now fields and arguments); drivers never read the
//     clock, so windows and TTLs are testable.
//   - Errors carry an errs.Kind: a missing row is errs.KindNotFound, a
//     duplicate e-mail errs.KindConflict, too few credits
//     errs.KindPaymentRequired and a spent quota or daily cap
//     errs.KindQuotaExceeded with a message naming the limit.
//   - Every lookup that takes an account id is scoped to it: another
//     account's key, usage row or hold is "not found".
//   - Money-like state is transactional. Reserve checks the balance, the
//     monthly request quota and the key's daily cap, counting the holds of
//     calls still in flight, and records a hold atomically with those checks,
//     so concurrent callers can never overspend. Where holds live is the
//     driver's choice (the SQLite driver keeps them in its one process's
//     memory; a shared database keeps them in a table). Settle turns a hold
//     into a charge (ledger row, quota and daily counters) in one
//     transaction; Release drops it without a trace. A failed call therefore
//     leaves nothing behind.
//   - Month and day windows are calendar months and days in UTC.
package store
