package sqlite

import (
	"path/filepath"
	"testing"
)

// TestUpgradeFrom00001 checks that a database created by the first
// migration, with a hold left in its holds table, opens and upgrades: the
// table is gone and its account is intact.
func TestUpgradeFrom00001(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := migratedTo(t, 1,
		`INSERT INTO accounts (id, email, password_hash, plan, webhook_secret, balance, created_at)
		 VALUES (1, 'ann@example.com', 'x', 'free', 'whsec_0', 42, 0)`,
		`INSERT INTO holds (request_id, account_id, key_id, credits, created_at, expires_at)
		 VALUES ('r1', 1, 1, 5, 0, 60000)`)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if bal, err := db.Balance(ctx, 1); err != nil || bal != 42 {
		t.Errorf("Balance = %d, %v; want 42", bal, err)
	}
	var n int
	if err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name LIKE 'holds%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("holds table or index left: %d, %v", n, err)
	}
}

// TestUpgradeKeysKeepTheirPowers: keys made before scopes existed become
// scope full, so nothing a caller could do before the upgrade is refused.
func TestUpgradeKeysKeepTheirPowers(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := migratedTo(t, 3,
		`INSERT INTO accounts (id, email, password_hash, plan, webhook_secret, balance, created_at)
		 VALUES (1, 'ann@example.com', 'x', 'free', 'whsec_0', 42, 0)`,
		`INSERT INTO keys (id, account_id, hash, prefix, kind, created_at) VALUES (7, 1, x'01', 'osk_1', 'developer', 0)`)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k, err := db.KeyByHash(ctx, []byte{1})
	if err != nil || k.Scope != "full" || !k.LastUsedAt.IsZero() {
		t.Fatalf("upgraded key: scope %q, last used %s, %v", k.Scope, k.LastUsedAt, err)
	}
}

// migratedTo creates a database file migrated up to version, runs the
// statements in it, and returns its path.
func migratedTo(t *testing.T, version int64, statements ...string) string {
	t.Helper()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "webinfra.db")
	pool, err := openPool(path, false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := migrator(pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatal(err)
	}
	for _, q := range statements {
		if _, err := pool.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := pool.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
