package sqlite_test

import (
	"crypto/sha256"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/sqlite"
)

// benchAccount signs up an account with plenty of credits and returns its key.
func benchAccount(b *testing.B, db *sqlite.DB) store.Key {
	b.Helper()
	sum := sha256.Sum256([]byte("osk_bench"))
	_, key, err := db.CreateAccount(b.Context(), store.NewAccount{
		Email: "bench@example.com", PasswordHash: "x", Plan: "pro", WebhookSecret: "whsec_0",
		InitialCredits: 1 << 40, Now: time.Now(),
	}, store.Key{Hash: sum[:], Prefix: "osk_bench", Kind: store.KeyDeveloper})
	if err != nil {
		b.Fatal(err)
	}
	return key
}

// BenchmarkReserveSettle measures the credit work of every charged call:
// Reserve (a read and an in-memory hold) and Settle (a write transaction),
// with a monthly quota and a daily cap to check.
func BenchmarkReserveSettle(b *testing.B) {
	run := func(b *testing.B, parallel bool) {
		db := openTemp(b)
		defer db.Close()
		key := benchAccount(b, db)
		ctx := b.Context()
		var seq atomic.Int64
		call := func() {
			now := time.Now()
			id := fmt.Sprintf("req_%d", seq.Add(1))
			err := db.Reserve(ctx, store.Reservation{
				RequestID: id, AccountID: key.AccountID, KeyID: key.ID, Credits: 5,
				MonthlyQuota: 1 << 40, DailyCap: 1 << 40, Now: now, TTL: 5 * time.Minute,
			})
			if err != nil {
				b.Error(err)
				return
			}
			if _, err := db.Settle(ctx, store.Settlement{RequestID: id, Charged: 5, Endpoint: "/v1/scrape", Now: now}); err != nil {
				b.Error(err)
			}
		}
		b.ResetTimer()
		if !parallel {
			for b.Loop() {
				call()
			}
			return
		}
		b.SetParallelism(16) // many in-flight requests per core, like a server
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				call()
			}
		})
	}
	b.Run("serial", func(b *testing.B) { run(b, false) })
	b.Run("parallel", func(b *testing.B) { run(b, true) })
}

// BenchmarkCall measures the store's share of one authenticated, charged,
// logged call: KeyByHash, Reserve, Settle and a usage row inserted in
// batches of 100, from many goroutines.
func BenchmarkCall(b *testing.B) {
	db := openTemp(b)
	defer db.Close()
	key := benchAccount(b, db)
	ctx := b.Context()
	var seq atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		batch := make([]store.UsageRow, 0, 100)
		for pb.Next() {
			now := time.Now()
			id := fmt.Sprintf("req_%d", seq.Add(1))
			k, err := db.KeyByHash(ctx, key.Hash)
			if err != nil {
				b.Error(err)
				return
			}
			if err := db.Reserve(ctx, store.Reservation{RequestID: id, AccountID: k.AccountID, KeyID: k.ID,
				Credits: 1, MonthlyQuota: 1 << 40, Now: now, TTL: 5 * time.Minute}); err != nil {
				b.Error(err)
				return
			}
			if _, err := db.Settle(ctx, store.Settlement{RequestID: id, Charged: 1, Endpoint: "/v1/scrape", Now: now}); err != nil {
				b.Error(err)
				return
			}
			batch = append(batch, store.UsageRow{RequestID: id, AccountID: k.AccountID, KeyID: k.ID, CreatedAt: now,
				Endpoint: "/v1/scrape", Method: "POST", URL: "https://example.com/", Status: 200, TimeMS: 3, CreditsCharged: 1})
			if len(batch) == cap(batch) {
				if err := db.InsertUsage(ctx, batch); err != nil {
					b.Error(err)
					return
				}
				batch = batch[:0]
			}
		}
		if err := db.InsertUsage(ctx, batch); err != nil {
			b.Error(err)
		}
	})
}

// BenchmarkJob measures the store's share of one asynchronous job with a
// webhook delivered at the first attempt, from many goroutines: CreateJob,
// StartJob, FinishJob with its delivery, DeliveryByID and FinishAttempt
// with one try (four write transactions).
func BenchmarkJob(b *testing.B) {
	db := openTemp(b)
	defer db.Close()
	key := benchAccount(b, db)
	ctx := b.Context()
	input := []byte(`{"url":"https://example.com/"}`)
	var seq atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			now := time.Now()
			j, err := db.CreateJob(ctx, store.Job{ID: fmt.Sprintf("job_%d", seq.Add(1)), AccountID: key.AccountID,
				KeyID: key.ID, Kind: "scrape", Input: input, WebhookURL: "https://hooks.example.com/", Credits: 1, CreatedAt: now})
			if err == nil {
				_, err = db.StartJob(ctx, j.ID, now)
			}
			if err == nil {
				j, err = db.FinishJob(ctx, store.JobOutcome{JobID: j.ID, Status: store.JobCompleted, Result: input, Now: now,
					Delivery: &store.WebhookDelivery{AccountID: j.AccountID, EventID: j.ID, JobID: j.ID, URL: j.WebhookURL,
						Payload: input, CreatedAt: now}})
			}
			var d store.WebhookDelivery
			if err == nil {
				d, err = db.DeliveryByID(ctx, j.DeliveryID)
			}
			if err == nil {
				_, err = db.FinishAttempt(ctx, store.AttemptRecord{DeliveryID: d.ID, Status: store.DeliveryDelivered,
					Attempts: 1, LastStatusCode: 200, Now: now,
					Tries: []store.DeliveryTry{{Attempt: 1, Try: 1, StatusCode: 200, LatencyMS: 1, At: now}}})
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// seedAccount signs up email and gives it the volume of a busy account:
// usageRows usage rows (inserted in batches of 500), jobs jobs of which
// one in ten is still queued and the rest completed with a webhook
// delivery, three more keys, and ledger rows (a grant and a settled
// charge for every ten jobs). It returns the account's id.
func seedAccount(b *testing.B, db *sqlite.DB, email string, usageRows, jobs int) int64 {
	b.Helper()
	ctx := b.Context()
	now := time.Now()
	hash := func(s string) []byte { sum := sha256.Sum256([]byte(s)); return sum[:] }
	acct, key, err := db.CreateAccount(ctx, store.NewAccount{
		Email: email, PasswordHash: "x", Plan: "pro", WebhookSecret: "whsec_0",
		InitialCredits: 1 << 40, Now: now,
	}, store.Key{Hash: hash("osk_" + email), Prefix: "osk_seed", Kind: store.KeyDeveloper})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 3 {
		if _, err := db.CreateKey(ctx, store.Key{AccountID: acct.ID, Hash: hash(fmt.Sprintf("osk_%s_%d", email, i)),
			Prefix: "osk_more", Kind: store.KeyDeveloper, CreatedAt: now}); err != nil {
			b.Fatal(err)
		}
	}
	batch := make([]store.UsageRow, 0, 500)
	for i := range usageRows {
		batch = append(batch, store.UsageRow{RequestID: fmt.Sprintf("req_%s_%d", email, i), AccountID: acct.ID,
			KeyID: key.ID, CreatedAt: now.Add(-time.Duration(i) * time.Second), Endpoint: "/v1/scrape", Method: "POST",
			URL: "https://example.com/", Status: 200, TimeMS: 3, CreditsCharged: 1})
		if len(batch) == cap(batch) || i == usageRows-1 {
			if err := db.InsertUsage(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	input := []byte(`{"url":"https://example.com/"}`)
	for i := range jobs {
		j, err := db.CreateJob(ctx, store.Job{ID: fmt.Sprintf("job_%s_%d", email, i), AccountID: acct.ID, KeyID: key.ID,
			Kind: "scrape", Input: input, WebhookURL: "https://hooks.example.com/", Credits: 1, CreatedAt: now})
		if err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 { // still queued
			if _, err := db.Grant(ctx, acct.ID, 10, "bench_grant", now); err != nil {
				b.Fatal(err)
			}
			id := fmt.Sprintf("req_%s_charge_%d", email, i)
			if err := db.Reserve(ctx, store.Reservation{RequestID: id, AccountID: acct.ID, KeyID: key.ID, Credits: 5,
				MonthlyQuota: 1 << 40, Now: now, TTL: 5 * time.Minute}); err != nil {
				b.Fatal(err)
			}
			if _, err := db.Settle(ctx, store.Settlement{RequestID: id, Charged: 5, Endpoint: "/v1/scrape", Now: now}); err != nil {
				b.Fatal(err)
			}
			continue
		}
		if _, err := db.FinishJob(ctx, store.JobOutcome{JobID: j.ID, Status: store.JobCompleted, Result: input, Now: now,
			Delivery: &store.WebhookDelivery{EventID: j.ID, URL: j.WebhookURL, Payload: input, CreatedAt: now}}); err != nil {
			b.Fatal(err)
		}
	}
	return acct.ID
}

// BenchmarkDeleteAccount measures DeleteAccount of an account with 10,000
// usage rows and 1,000 jobs (900 completed with a webhook delivery, 100
// still queued), four keys and about 200 ledger rows, in a file that also
// holds another account of the same size. Only the deletion is timed; the
// target is under a second.
func BenchmarkDeleteAccount(b *testing.B) {
	const usageRows, jobs = 10_000, 1_000
	db := openTemp(b)
	defer db.Close()
	ctx := b.Context()
	other := seedAccount(b, db, "other@example.com", usageRows, jobs)
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		id := seedAccount(b, db, fmt.Sprintf("gone%d@example.com", n), usageRows, jobs)
		b.StartTimer()
		d, err := db.DeleteAccount(ctx, id)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if len(d.CancelledJobs) != jobs/10 {
			b.Fatalf("cancelled %d jobs, want %d", len(d.CancelledJobs), jobs/10)
		}
		if c, err := db.CountUsage(ctx, id); err != nil || c != 0 {
			b.Fatalf("CountUsage after deletion = %d, %v; want 0", c, err)
		}
		if c, err := db.CountUsage(ctx, other); err != nil || c != usageRows {
			b.Fatalf("CountUsage of the other account = %d, %v; want %d", c, err, usageRows)
		}
		b.StartTimer()
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(n), "ms/deletion")
}
