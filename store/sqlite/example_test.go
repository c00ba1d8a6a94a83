package sqlite_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/sqlite"
)

// A charged call: reserve its sticker cost, run it, settle what it cost.
func Example() {
	dir, err := os.MkdirTemp("", "webinfra")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "data", "webinfra.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	now := time.Date(2026, time.March, 10, 12, 0, 0, 0, time.UTC)
	hash := sha256.Sum256([]byte("osk_example"))
	acct, key, err := db.CreateAccount(ctx, store.NewAccount{
		Email: "ann@example.com", PasswordHash: "$argon2id$...", Plan: "free",
		WebhookSecret: "whsec_00", InitialCredits: 1000, Now: now,
	}, store.Key{Hash: hash[:], Prefix: "osk_exam", Kind: store.KeyDeveloper})
	if err != nil {
		log.Fatal(err)
	}

	err = db.Reserve(ctx, store.Reservation{
		RequestID: "req_1", AccountID: acct.ID, KeyID: key.ID, Credits: 5,
		MonthlyQuota: 1000, Now: now, TTL: 5 * time.Minute,
	})
	if err != nil {
		log.Fatal(err)
	}
	balance, err := db.Settle(ctx, store.Settlement{RequestID: "req_1", Charged: 5, Endpoint: "/v1/scrape", Now: now})
	if err != nil {
		log.Fatal(err)
	}
	requests, err := db.MonthlyRequests(ctx, acct.ID, now)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("balance:", balance, "requests this month:", requests)
	// Output: balance: 995 requests this month: 1
}
