package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pressly/goose/v3"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/internal/pgtest"
	"github.com/webinfra/webinfra/store"
)

// A database written by migration 00002's functions (holds summed from
// the holds table, every period in the counters table) keeps its meaning
// after 00003 moves holds and the newest periods onto the rows, and after
// 00003 is rolled back.
func TestUpgradeToHoldCounters(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	url := pgtest.URL(t)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	to := func(v int64) {
		t.Helper()
		err := withMigrator(pool, func(p *goose.Provider) error {
			if cur, err := p.GetDBVersion(ctx); err == nil && cur > v {
				_, err = p.DownTo(ctx, v)
				return err
			}
			_, err := p.UpTo(ctx, v)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	to(2)
	// One account with 100 credits; its key spent 6 on 2026-01-31 and 4
	// on 2026-02-01; the account made 1 request in December and 2 in
	// January; a hold of 50 credits is in flight until 12:00 on 02-01.
	exec(t, pool, `INSERT INTO accounts (id, email, password_hash, plan, webhook_secret, balance, created_at)
		VALUES (1, 'a@example.com', 'x', 'free', 's', 100, 0)`)
	exec(t, pool, `INSERT INTO keys (id, account_id, hash, prefix, kind, created_at) VALUES (1, 1, '\x01', 'p', 'api', 0)`)
	exec(t, pool, `INSERT INTO counters VALUES (1, 0, 202512, 1), (1, 0, 202601, 2), (1, 1, 20260131, 6), (1, 1, 20260201, 4)`)
	noon := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	exec(t, pool, `INSERT INTO holds VALUES ('old', 1, 1, 50, $1)`, noon.UnixMilli())
	to(3)

	check := func(stage string) *DB {
		t.Helper()
		fresh, err := pgxpool.New(ctx, url) // no statements prepared against an older schema
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(fresh.Close)
		db := &DB{pool: fresh}
		for month, want := range map[time.Month]int64{time.January: 2, time.February: 0} {
			at := time.Date(2026, month, 15, 0, 0, 0, 0, time.UTC)
			if n, err := db.MonthlyRequests(ctx, 1, at); err != nil || n != want {
				t.Errorf("%s: MonthlyRequests(%s) = %d, %v; want %d", stage, month, n, err, want)
			}
		}
		morning := noon.Add(-time.Hour)
		r := store.Reservation{RequestID: "r", AccountID: 1, KeyID: 1, Credits: 51, Now: morning, TTL: time.Minute}
		if err := db.Reserve(ctx, r); errs.KindOf(err) != errs.KindPaymentRequired {
			t.Errorf("%s: reserving 51 of 100 credits with 50 held: %v, want payment required", stage, err)
		}
		r.Credits, r.DailyCap = 1, 54
		if err := db.Reserve(ctx, r); errs.KindOf(err) != errs.KindQuotaExceeded {
			t.Errorf("%s: 4 spent + 50 held against a daily cap of 54: %v, want quota exceeded", stage, err)
		}
		return db
	}
	check("after 00003")
	to(2)
	var jan, feb1, held int64
	err = pool.QueryRow(ctx, `SELECT (SELECT n FROM counters WHERE key_id = 0 AND period = 202601),
		(SELECT n FROM counters WHERE key_id = 1 AND period = 20260201),
		(SELECT held FROM webinfra_reserve('r', 1, 1, 51, 202602, 20260201, $1, $1, 0, 0, 0))`, noon.UnixMilli()-1).Scan(&jan, &feb1, &held)
	if err != nil || jan != 2 || feb1 != 4 || held != 50 {
		t.Errorf("after rolling 00003 back: January %d, key's February 1st %d, held %d, %v; want 2, 4, 50", jan, feb1, held, err)
	}
	to(3)
	db := check("after 00003 again")

	if bal, err := db.Settle(ctx, store.Settlement{RequestID: "old", Charged: 50, Now: noon}); err != nil || bal != 50 {
		t.Fatalf("settling the hold made before the upgrade: %d, %v", bal, err)
	}
	if err := db.Reserve(ctx, store.Reservation{RequestID: "r", AccountID: 1, KeyID: 1, Credits: 50, Now: noon, TTL: time.Minute}); err != nil {
		t.Fatalf("the settled hold still counts: %v", err)
	}
}

func exec(t *testing.T, pool *pgxpool.Pool, sql string, args ...any) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
