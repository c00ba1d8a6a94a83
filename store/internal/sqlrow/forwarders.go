package sqlrow

import (
	"database/sql"
	"strings"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

// ForwarderColumns are the columns ScanForwarder reads, in its order.
const ForwarderColumns = `id, account_id, name, endpoint, auth_header, auth_sealed, headers_sealed,
created_at, last_test_at, last_test_status, last_test_detail`

// ScanForwarder scans a row of ForwarderColumns. NULL and empty sealed
// values are nil; a never tested forwarder has a zero LastTest.At.
func ScanForwarder(row Scanner) (store.Forwarder, error) {
	var f store.Forwarder
	var created int64
	var tested sql.NullInt64
	err := row.Scan(&f.ID, &f.AccountID, &f.Name, &f.Endpoint, &f.AuthHeader, &f.AuthSealed, &f.HeadersSealed,
		&created, &tested, &f.LastTest.Status, &f.LastTest.Detail)
	if err != nil {
		return store.Forwarder{}, err
	}
	f.AuthSealed, f.HeadersSealed = nilIfEmpty(f.AuthSealed), nilIfEmpty(f.HeadersSealed)
	f.CreatedAt = FromMS(created)
	f.LastTest.At = FromNullableMS(tested)
	return f, nil
}

func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// NullBytes is the stored form of a sealed value: NULL when there is none.
// An empty slice counts as none, so that both drivers read it back as nil
// (database/sql and pgx disagree on what an empty BLOB/BYTEA scans to).
func NullBytes(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// ValidNewForwarder checks what CreateForwarder needs of a forwarder.
func ValidNewForwarder(f store.Forwarder) error {
	if strings.TrimSpace(f.Endpoint) == "" {
		return errs.New(errs.KindInvalid, "store: create forwarder: empty endpoint")
	}
	return nil
}

// ForwarderLimitReached is CreateForwarder's error for an account that
// already has limit forwarders.
func ForwarderLimitReached(limit int) error {
	return errs.New(errs.KindConflict, "store: forwarder limit reached: an account may have at most %d forwarders", limit)
}
