// Package storetest is the conformance suite of the storage seam: every
// store.Store driver runs it, so the server can rely on the same behaviour
// whichever driver is configured (the model is go-cloud's
// blob/drivertest).
//
// A driver's test hands Run a function that opens a fresh, empty store:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store {
//			db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "test.db"))
//			if err != nil {
//				t.Fatal(err)
//			}
//			return db
//		})
//	}
//
// Each case runs as a parallel subtest on its own store, which Run closes
// when the subtest ends. The cases cover the contracts of package store:
// atomic sign-up, e-mail and key-hash uniqueness, account scoping of keys,
// usage rows and idempotency records, key update, revocation and rotation,
// org membership, Reserve/Settle/Release with each limit's error kind and
// message, hold expiry, calendar month and day windows in UTC, ledger and
// usage paging, the usage chart and statistics, and the concurrency
// guarantees: 1,000 concurrent one-credit calls against 500 credits charge
// exactly 500, quotas and caps hold under contention, a hold settles once
// and one Idempotency-Key is claimed once. For asynchronous jobs they cover
// creation, id conflicts, account scoping, paging newest first, attempts
// counted by StartJob, FinishJob's one refund (a ledger row of reason
// "refund", capped at the job's credits) and one pending webhook delivery
// named by the job's DeliveryID, once even when 20 workers finish the job
// at the same moment and never for a refused FinishJob, and recovery of
// unfinished jobs; for webhook deliveries, creation, scoping, attempts
// recorded with their tries all or nothing (also when they race), the try
// log and the dead-letter list.
//
// All times the suite passes are whole seconds in UTC, so drivers storing
// milliseconds or microseconds compare equal.
package storetest
