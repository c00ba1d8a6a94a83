package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

var usageCopyColumns = []string{"request_id", "account_id", "key_id", "created_at", "endpoint", "method", "url",
	"status", "time_ms", "credits_charged", "tier_used"}

// InsertUsage appends the rows in one transaction: COPY into a temporary
// table, then one INSERT … ON CONFLICT DO NOTHING, so a batch costs two
// round trips however long it is and duplicate request ids are ignored.
func (db *DB) InsertUsage(ctx context.Context, rows []store.UsageRow) error {
	if len(rows) == 0 {
		return nil
	}
	return db.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `CREATE TEMPORARY TABLE IF NOT EXISTS usage_in (
			request_id TEXT, account_id BIGINT, key_id BIGINT, created_at BIGINT, endpoint TEXT, method TEXT, url TEXT,
			status INTEGER, time_ms DOUBLE PRECISION, credits_charged BIGINT, tier_used TEXT) ON COMMIT DELETE ROWS`); err != nil {
			return internal(err, "insert usage: staging table")
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"usage_in"}, usageCopyColumns, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			u := rows[i]
			return []any{u.RequestID, u.AccountID, u.KeyID, sqlrow.ToMS(u.CreatedAt), u.Endpoint, u.Method, u.URL,
				u.Status, u.TimeMS, u.CreditsCharged, u.TierUsed}, nil
		}))
		if err != nil {
			return internal(err, "insert usage: copy")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO usage (`+sqlrow.UsageColumns+`)
			SELECT DISTINCT ON (request_id) `+sqlrow.UsageColumns+` FROM usage_in u
			WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = u.account_id) -- not of accounts deleted meanwhile
			ON CONFLICT (request_id) DO NOTHING`); err != nil {
			return internal(err, "insert usage")
		}
		return nil
	})
}

// ListUsage pages the account's usage rows, newest first, optionally of
// one endpoint.
func (db *DB) ListUsage(ctx context.Context, q store.UsageQuery) ([]store.UsageRow, error) {
	limit, offset := sqlrow.PageBounds(q.Limit, q.Offset)
	query := `SELECT ` + sqlrow.UsageColumns + ` FROM usage WHERE account_id = $1`
	args := []any{q.AccountID}
	if q.Endpoint != "" {
		query += ` AND endpoint = $4`
		args = append(args, limit, offset, q.Endpoint)
	} else {
		args = append(args, limit, offset)
	}
	query += ` ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`
	return queryAll(ctx, db.pool, "list usage", sqlrow.ScanUsage, query, args...)
}

// UsageByRequestID finds one of the account's usage rows.
func (db *DB) UsageByRequestID(ctx context.Context, accountID int64, requestID string) (store.UsageRow, error) {
	row := db.pool.QueryRow(ctx, `SELECT `+sqlrow.UsageColumns+` FROM usage WHERE request_id = $1 AND account_id = $2`,
		requestID, accountID)
	return scanOne(row, sqlrow.ScanUsage, "usage by request id", func() error {
		return errs.NotFound("no usage row for request %q", requestID)
	})
}

// UsageDaily returns one bucket per UTC day from since's day to now's day
// inclusive, oldest first, zero-filled.
func (db *DB) UsageDaily(ctx context.Context, accountID int64, since, now time.Time) ([]store.UsageDay, error) {
	first, out, err := sqlrow.DayBuckets(since, now)
	if err != nil || len(out) == 0 {
		return out, err
	}
	days, msPerDay := len(out), int64(sqlrow.MsPerDay)
	rows, err := db.pool.Query(ctx, `
		SELECT (created_at - $1) / $2 AS i, count(*), count(*) FILTER (WHERE status >= 400),
			coalesce(sum(credits_charged), 0), avg(time_ms)
		FROM usage WHERE account_id = $3 AND created_at >= $1 AND created_at < $4
		GROUP BY i`, sqlrow.ToMS(first), msPerDay, accountID, sqlrow.ToMS(first.AddDate(0, 0, days)))
	if err != nil {
		return nil, internal(err, "usage daily")
	}
	defer rows.Close()
	for rows.Next() {
		var i int64
		var d store.UsageDay
		if err := rows.Scan(&i, &d.Requests, &d.Errors, &d.Credits, &d.AvgTimeMS); err != nil {
			return nil, internal(err, "usage daily: scan")
		}
		if i >= 0 && i < int64(days) {
			d.Day = out[i].Day
			out[i] = d
		}
	}
	if err := rows.Err(); err != nil {
		return nil, internal(err, "usage daily")
	}
	return out, nil
}

// UsageStats summarizes the account's usage in now's month and day.
func (db *DB) UsageStats(ctx context.Context, accountID int64, now time.Time) (store.UsageStats, error) {
	month := sqlrow.MonthStart(now)
	var s store.UsageStats
	var ok int64
	err := db.pool.QueryRow(ctx, `
		SELECT count(*), count(*) FILTER (WHERE created_at >= $1), coalesce(avg(time_ms), 0), count(*) FILTER (WHERE status < 400)
		FROM usage WHERE account_id = $2 AND created_at >= $3 AND created_at < $4`,
		sqlrow.ToMS(sqlrow.DayStart(now)), accountID, sqlrow.ToMS(month), sqlrow.ToMS(month.AddDate(0, 1, 0)),
	).Scan(&s.RequestsThisMonth, &s.RequestsToday, &s.AvgResponseMS, &ok)
	if err != nil {
		return store.UsageStats{}, internal(err, "usage stats")
	}
	s.SuccessRate = sqlrow.SuccessRate(ok, s.RequestsThisMonth)
	return s, nil
}

// CountUsage counts the account's usage rows.
func (db *DB) CountUsage(ctx context.Context, accountID int64) (int64, error) {
	var n int64
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM usage WHERE account_id = $1`, accountID).Scan(&n); err != nil {
		return 0, internal(err, "count usage")
	}
	return n, nil
}
