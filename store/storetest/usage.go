package storetest

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/store"
)

var usageTests = []test{
	{"Usage/InsertAndList", testUsageList},
	{"Usage/DuplicateRequestIDIgnored", testUsageDuplicate},
	{"Usage/FilterAndPaging", testUsagePaging},
	{"Usage/ByRequestIDIsScoped", testUsageByRequestID},
	{"Usage/Daily", testUsageDaily},
	{"Usage/Stats", testUsageStats},
}

// usageRow is a successful call of the key at the time.
func usageRow(id string, key store.Key, at time.Time) store.UsageRow {
	return store.UsageRow{
		RequestID: id, AccountID: key.AccountID, KeyID: key.ID, CreatedAt: at,
		Endpoint: "/v1/scrape", Method: "POST", URL: "https://example.com/", Status: 200,
		TimeMS: 12.5, CreditsCharged: 1, TierUsed: "direct",
	}
}

func sameUsage(a, b store.UsageRow) bool {
	return a.RequestID == b.RequestID && a.AccountID == b.AccountID && a.KeyID == b.KeyID &&
		a.CreatedAt.Equal(b.CreatedAt) && a.Endpoint == b.Endpoint && a.Method == b.Method && a.URL == b.URL &&
		a.Status == b.Status && a.TimeMS == b.TimeMS && a.CreditsCharged == b.CreditsCharged && a.TierUsed == b.TierUsed
}

func (e *env) insertUsage(rows ...store.UsageRow) {
	e.t.Helper()
	must(e.t, e.s.InsertUsage(e.ctx, rows))
}

func (e *env) listUsage(q store.UsageQuery) []store.UsageRow {
	e.t.Helper()
	rows, err := e.s.ListUsage(e.ctx, q)
	must(e.t, err)
	return rows
}

func requestIDs(rows []store.UsageRow) []string {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.RequestID
	}
	return ids
}

func testUsageList(t *testing.T, e *env) {
	_, key := e.signup(1)
	_, otherKey := e.signup(1)
	first := usageRow("u1", key, t0)
	second := usageRow("u2", key, t0.Add(time.Second))
	second.Endpoint, second.Method, second.URL, second.Status = "/v1/extract", "GET", "", 502
	second.TimeMS, second.CreditsCharged, second.TierUsed = 1234.25, 0, "render"
	e.insertUsage(first, second, usageRow("o1", otherKey, t0.Add(2*time.Second)))
	must(t, e.s.InsertUsage(e.ctx, nil))

	got := e.listUsage(store.UsageQuery{AccountID: key.AccountID, Limit: 10})
	if len(got) != 2 || !sameUsage(got[0], second) || !sameUsage(got[1], first) {
		t.Errorf("ListUsage = %+v, want [%+v %+v]", got, second, first)
	}
}

func testUsageDuplicate(t *testing.T, e *env) {
	_, key := e.signup(1)
	row := usageRow("dup", key, t0)
	e.insertUsage(row)
	changed := row
	changed.Status = 500
	e.insertUsage(changed, usageRow("fresh", key, t0.Add(time.Second)))
	got := e.listUsage(store.UsageQuery{AccountID: key.AccountID, Limit: 10})
	if len(got) != 2 || got[0].RequestID != "fresh" || !sameUsage(got[1], row) {
		t.Errorf("ListUsage = %+v, want fresh then the first dup row unchanged", got)
	}
}

func testUsagePaging(t *testing.T, e *env) {
	_, key := e.signup(1)
	var rows []store.UsageRow
	for i := range 10 {
		r := usageRow(fmt.Sprintf("r%d", i), key, t0.Add(time.Duration(i)*time.Minute))
		if i%2 == 1 {
			r.Endpoint = "/v1/crawl"
		}
		rows = append(rows, r)
	}
	e.insertUsage(rows[:5]...)
	e.insertUsage(rows[5:]...)

	for _, tc := range []struct {
		q    store.UsageQuery
		want []string
	}{
		{store.UsageQuery{Limit: 3}, []string{"r9", "r8", "r7"}},
		{store.UsageQuery{Limit: 3, Offset: 3}, []string{"r6", "r5", "r4"}},
		{store.UsageQuery{Limit: 3, Offset: 9}, []string{"r0"}},
		{store.UsageQuery{Limit: 3, Offset: 10}, []string{}},
		{store.UsageQuery{Endpoint: "/v1/crawl", Limit: 10}, []string{"r9", "r7", "r5", "r3", "r1"}},
		{store.UsageQuery{Endpoint: "/v1/crawl", Limit: 2, Offset: 2}, []string{"r5", "r3"}},
		{store.UsageQuery{Endpoint: "/v1/none", Limit: 10}, []string{}},
	} {
		tc.q.AccountID = key.AccountID
		got := requestIDs(e.listUsage(tc.q))
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("ListUsage(%+v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func testUsageByRequestID(t *testing.T, e *env) {
	_, key := e.signup(1)
	other, _ := e.signup(1)
	row := usageRow("mine", key, t0)
	e.insertUsage(row)
	got, err := e.s.UsageByRequestID(e.ctx, key.AccountID, "mine")
	must(t, err)
	if !sameUsage(got, row) {
		t.Errorf("UsageByRequestID = %+v, want %+v", got, row)
	}
	_, err = e.s.UsageByRequestID(e.ctx, other.ID, "mine")
	wantErr(t, err, errs.KindNotFound)
	_, err = e.s.UsageByRequestID(e.ctx, key.AccountID, "unknown")
	wantErr(t, err, errs.KindNotFound)
}

func testUsageDaily(t *testing.T, e *env) {
	_, key := e.signup(1)
	_, otherKey := e.signup(1)
	day := func(d, h int) time.Time { return time.Date(2026, time.February, d, h, 0, 0, 0, time.UTC) }
	failed := usageRow("d2", key, day(27, 23))
	failed.Status, failed.TimeMS, failed.CreditsCharged = 429, 30, 0
	e.insertUsage(
		usageRow("old", key, day(20, 12)), // before since
		usageRow("d1", key, day(27, 0)),
		failed,
		usageRow("d3", key, day(28, 5)),
		usageRow("other", otherKey, day(27, 1)),
	)
	march2 := time.Date(2026, time.March, 2, 0, 30, 0, 0, time.UTC)
	e.insertUsage(usageRow("d4", key, march2))

	got, err := e.s.UsageDaily(e.ctx, key.AccountID, day(26, 18), march2.Add(time.Hour))
	must(t, err)
	want := []store.UsageDay{
		{Day: "2026-02-26"},
		{Day: "2026-02-27", Requests: 2, Errors: 1, Credits: 1, AvgTimeMS: (12.5 + 30) / 2},
		{Day: "2026-02-28", Requests: 1, Credits: 1, AvgTimeMS: 12.5},
		{Day: "2026-03-01"},
		{Day: "2026-03-02", Requests: 1, Credits: 1, AvgTimeMS: 12.5},
	}
	if len(got) != len(want) {
		t.Fatalf("UsageDaily = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Day != w.Day || g.Requests != w.Requests || g.Errors != w.Errors || g.Credits != w.Credits ||
			math.Abs(g.AvgTimeMS-w.AvgTimeMS) > 1e-9 {
			t.Errorf("day %d = %+v, want %+v", i, g, w)
		}
	}

	one, err := e.s.UsageDaily(e.ctx, key.AccountID, march2, march2)
	must(t, err)
	if len(one) != 1 || one[0].Day != "2026-03-02" || one[0].Requests != 1 {
		t.Errorf("UsageDaily(one day) = %+v", one)
	}
}

func testUsageStats(t *testing.T, e *env) {
	_, key := e.signup(1)
	now := time.Date(2026, time.March, 10, 15, 0, 0, 0, time.UTC)

	empty, err := e.s.UsageStats(e.ctx, key.AccountID, now)
	must(t, err)
	if empty.RequestsThisMonth != 0 || empty.RequestsToday != 0 || empty.AvgResponseMS != 0 || empty.SuccessRate != 100 {
		t.Errorf("UsageStats(no calls) = %+v, want zeros and a 100%% success rate", empty)
	}

	lastMonth := usageRow("feb", key, time.Date(2026, time.February, 28, 23, 0, 0, 0, time.UTC))
	earlier := usageRow("mar1", key, time.Date(2026, time.March, 1, 0, 0, 0, 0, time.UTC))
	earlier.TimeMS = 100
	failed := usageRow("today-failed", key, time.Date(2026, time.March, 10, 1, 0, 0, 0, time.UTC))
	failed.Status, failed.TimeMS = 500, 40
	today := usageRow("today", key, time.Date(2026, time.March, 10, 14, 0, 0, 0, time.UTC))
	today.TimeMS = 60
	_, otherKey := e.signup(1)
	e.insertUsage(lastMonth, earlier, failed, today, usageRow("other", otherKey, now))

	got, err := e.s.UsageStats(e.ctx, key.AccountID, now)
	must(t, err)
	if got.RequestsThisMonth != 3 || got.RequestsToday != 2 ||
		math.Abs(got.AvgResponseMS-(100+40+60)/3.0) > 1e-9 || math.Abs(got.SuccessRate-200/3.0) > 1e-9 {
		t.Errorf("UsageStats = %+v, want 3 this month, 2 today, avg 66.67 ms, 66.67%% success", got)
	}
}
