// Package postgres is the PostgreSQL implementation of store.Store, for
// running several `webinfra serve` processes against one database. It
// passes the same conformance suite as the embedded SQLite driver
// (store/storetest), and keeps nothing a second process would need in one
// process's memory:
//
//   - credit holds are rows (holds), and their sums are columns of the
//     rows they limit: the account's credits and number held, its
//     newest month's request count, the key's credits held and its newest
//     day's spend (older periods live in the counters table). Reserve is
//     one conditional UPDATE of each row, admitting only within the
//     limits; a refusal is decided under the account's row lock after
//     its expired holds are swept, so the checks are exact however many
//     processes reserve at once (migration 00003 says why: summing the
//     holds table under the lock slowed as the table churned). Settle
//     claims its hold with one DELETE … RETURNING, so a hold is charged
//     at most once, and Release of a hold being settled waits for that
//     row and then finds nothing;
//   - a debit is one UPDATE of the account's balance and ledger sequence
//     (RETURNING both), in the transaction that appends the ledger row;
//   - usage rows arrive in batches through COPY into a temporary table,
//     then one INSERT … ON CONFLICT DO NOTHING (duplicate request ids are
//     ignored, as the seam requires);
//   - Idempotency-Key records are rows, claimed with INSERT … ON CONFLICT,
//     so two processes cannot both start the same key.
//
// Open runs the embedded goose migrations under PostgreSQL's session
// advisory lock, so processes starting together migrate once. It uses pgx
// v5 and its pool; row scanning and validation are shared with the SQLite
// driver (store/internal/sqlrow).
package postgres
