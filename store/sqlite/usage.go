package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
	"github.com/webinfra/webinfra/store/internal/sqlrow"
)

// InsertUsage appends the rows in one transaction; duplicate request ids
// are ignored.
func (db *DB) InsertUsage(ctx context.Context, rows []store.UsageRow) error {
	if len(rows) == 0 {
		return nil
	}
	return db.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		stmt := tx.StmtContext(ctx, db.ws.insertUsageRow)
		for _, u := range rows {
			if _, err := stmt.ExecContext(ctx, u.RequestID, u.AccountID, u.KeyID, sqlrow.ToMS(u.CreatedAt),
				u.Endpoint, u.Method, u.URL, u.Status, u.TimeMS, u.CreditsCharged, u.TierUsed); err != nil {
				return internal(err, "insert usage")
			}
		}
		return nil
	})
}

// ListUsage pages the account's usage rows, newest first, optionally of
// one endpoint. A limit of 0 or less means 100; pages stop at 1,000 rows.
func (db *DB) ListUsage(ctx context.Context, q store.UsageQuery) ([]store.UsageRow, error) {
	limit, offset := sqlrow.PageBounds(q.Limit, q.Offset)
	query := `SELECT ` + sqlrow.UsageColumns + ` FROM usage WHERE account_id = ?`
	args := []any{q.AccountID}
	if q.Endpoint != "" {
		query += ` AND endpoint = ?`
		args = append(args, q.Endpoint)
	}
	query += ` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`
	args = append(args, limit, offset)
	return queryAll(ctx, db.r, "list usage", sqlrow.ScanUsage, query, args...)
}

// UsageByRequestID finds one of the account's usage rows.
func (db *DB) UsageByRequestID(ctx context.Context, accountID int64, requestID string) (store.UsageRow, error) {
	row := db.r.QueryRowContext(ctx, `SELECT `+sqlrow.UsageColumns+` FROM usage WHERE request_id = ? AND account_id = ?`,
		requestID, accountID)
	u, err := sqlrow.ScanUsage(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.UsageRow{}, errs.NotFound("no usage row for request %q", requestID)
	}
	if err != nil {
		return store.UsageRow{}, internal(err, "usage by request id")
	}
	return u, nil
}

// UsageDaily returns one bucket per UTC day from since's day to now's day
// inclusive, oldest first, zero-filled. since after now gives no buckets.
func (db *DB) UsageDaily(ctx context.Context, accountID int64, since, now time.Time) ([]store.UsageDay, error) {
	first, out, err := sqlrow.DayBuckets(since, now)
	if err != nil || len(out) == 0 {
		return out, err
	}
	days, msPerDay := len(out), int64(sqlrow.MsPerDay)
	rows, err := db.r.QueryContext(ctx, `
		SELECT (created_at - ?1) / ?2 AS i, count(*), sum(status >= 400), sum(credits_charged), avg(time_ms)
		FROM usage WHERE account_id = ?3 AND created_at >= ?1 AND created_at < ?4
		GROUP BY i`, sqlrow.ToMS(first), msPerDay, accountID, sqlrow.ToMS(first.AddDate(0, 0, days)))
	if err != nil {
		return nil, internal(err, "usage daily")
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var d store.UsageDay
		if err := rows.Scan(&i, &d.Requests, &d.Errors, &d.Credits, &d.AvgTimeMS); err != nil {
			return nil, internal(err, "usage daily: scan")
		}
		if i >= 0 && i < days {
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
	err := db.r.QueryRowContext(ctx, `
		SELECT count(*), coalesce(sum(created_at >= ?1), 0), coalesce(avg(time_ms), 0), coalesce(sum(status < 400), 0)
		FROM usage WHERE account_id = ?2 AND created_at >= ?3 AND created_at < ?4`,
		sqlrow.ToMS(sqlrow.DayStart(now)), accountID, sqlrow.ToMS(month), sqlrow.ToMS(month.AddDate(0, 1, 0)),
	).Scan(&s.RequestsThisMonth, &s.RequestsToday, &s.AvgResponseMS, &ok)
	if err != nil {
		return store.UsageStats{}, internal(err, "usage stats")
	}
	s.SuccessRate = sqlrow.SuccessRate(ok, s.RequestsThisMonth)
	return s, nil
}

// CountUsage counts the account's usage rows (one index range).
func (db *DB) CountUsage(ctx context.Context, accountID int64) (int64, error) {
	var n int64
	if err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM usage WHERE account_id = ?`, accountID).Scan(&n); err != nil {
		return 0, internal(err, "count usage")
	}
	return n, nil
}
