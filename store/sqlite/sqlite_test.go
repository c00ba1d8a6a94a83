package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/sqlite"
	"github.com/webinfra/webinfra/store/storetest"
)

func openTemp(t testing.TB) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "data", "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t) })
}

// TestReopen checks that Open creates the parent directory, and that
// opening an existing file keeps its data and re-runs no migration.
func TestReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "a", "b", "webinfra.db")
	db, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	acct, _, err := db.CreateAccount(t.Context(), store.NewAccount{
		Email: "ann@example.com", PasswordHash: "x", Plan: "free", WebhookSecret: "whsec_0", InitialCredits: 1000,
	}, store.Key{Hash: []byte("0123456789abcdef0123456789abcdef"), Prefix: "osk_0123", Kind: store.KeyDeveloper})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	db, err = sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bal, err := db.Balance(t.Context(), acct.ID)
	if err != nil || bal != 1000 {
		t.Errorf("Balance after reopening = %d, %v; want 1000", bal, err)
	}
}

// TestOpenTwice checks that a file open in one DB cannot be opened again
// until that DB is closed: its holds live in that DB's memory.
func TestOpenTwice(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "webinfra.db")
	db, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := sqlite.Open(t.Context(), path); errs.KindOf(err) != errs.KindConflict {
		if err == nil {
			second.Close()
		}
		t.Errorf("second Open = %v, want a conflict", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	db.Close()
}
