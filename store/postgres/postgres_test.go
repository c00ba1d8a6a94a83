package postgres_test

import (
	"testing"

	"github.com/webinfra/webinfra/internal/pgtest"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/postgres"
	"github.com/webinfra/webinfra/store/storetest"
)

func openTemp(t testing.TB) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(t.Context(), pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t) })
}
