package storetest

import (
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
)

var windowTests = []test{
	{"Windows/MonthIsCalendarMonthUTC", testMonthWindow},
	{"Windows/DayIsCalendarDayUTC", testDayWindow},
	{"Windows/SettledInAnEarlierPeriod", testEarlierPeriod},
}

var (
	janLast  = time.Date(2026, time.January, 31, 23, 59, 0, 0, time.UTC)
	febFirst = time.Date(2026, time.February, 1, 0, 0, 0, 0, time.UTC)
)

func testMonthWindow(t *testing.T, e *env) {
	acct, key := e.signup(100)
	r := e.reservation(key, 1, janLast)
	r.MonthlyQuota = 1
	e.reserve(r)
	e.settle(r.RequestID, 1, janLast)

	for _, tc := range []struct {
		at   time.Time
		want int64
	}{
		{time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC), 1},
		{janLast.Add(59 * time.Second), 1},
		{febFirst, 0},
		{time.Date(2025, time.January, 31, 12, 0, 0, 0, time.UTC), 0}, // a year earlier
		// The same instant seen from another zone is still January in UTC.
		{janLast.In(time.FixedZone("UTC+3", 3*3600)), 1},
	} {
		if got := e.monthlyRequests(acct.ID, tc.at); got != tc.want {
			t.Errorf("MonthlyRequests(%v) = %d, want %d", tc.at, got, tc.want)
		}
	}

	again := e.reservation(key, 1, janLast.Add(30*time.Second))
	again.MonthlyQuota = 1
	wantErr(t, e.s.Reserve(e.ctx, again), errs.KindQuotaExceeded, "monthly request quota of 1 requests is spent")
	next := e.reservation(key, 1, febFirst)
	next.MonthlyQuota = 1
	e.reserve(next)
}

func testDayWindow(t *testing.T, e *env) {
	_, key := e.signup(100)
	r := e.reservation(key, 5, janLast)
	r.DailyCap = 5
	e.reserve(r)
	e.settle(r.RequestID, 5, janLast)

	again := e.reservation(key, 1, janLast.Add(30*time.Second))
	again.DailyCap = 5
	wantErr(t, e.s.Reserve(e.ctx, again), errs.KindQuotaExceeded, "daily credit cap of 5 credits for this key is spent")
	next := e.reservation(key, 5, febFirst)
	next.DailyCap = 5
	e.reserve(next)
	e.settle(next.RequestID, 5, febFirst)
	later := e.reservation(key, 1, febFirst.Add(12*time.Hour))
	later.DailyCap = 5
	wantErr(t, e.s.Reserve(e.ctx, later), errs.KindQuotaExceeded, "daily credit cap")
}

// A call reserved in one month may settle after another call has already
// been counted in the next (a slow call, or two processes' clocks): each
// is counted in its own month and its own day, and both still limit.
func testEarlierPeriod(t *testing.T, e *env) {
	acct, key := e.signup(100)
	slow := e.reservation(key, 3, janLast)
	e.reserve(slow)
	e.charge(key, 2, febFirst)
	e.settle(slow.RequestID, 3, janLast)
	e.charge(key, 1, janLast)

	if got := e.monthlyRequests(acct.ID, janLast); got != 2 {
		t.Errorf("January requests = %d, want 2", got)
	}
	if got := e.monthlyRequests(acct.ID, febFirst); got != 1 {
		t.Errorf("February requests = %d, want 1", got)
	}
	jan := e.reservation(key, 1, janLast)
	jan.MonthlyQuota = 2
	wantErr(t, e.s.Reserve(e.ctx, jan), errs.KindQuotaExceeded, "monthly request quota of 2")
	capped := e.reservation(key, 1, janLast)
	capped.DailyCap = 4
	wantErr(t, e.s.Reserve(e.ctx, capped), errs.KindQuotaExceeded, "daily credit cap of 4")
	feb := e.reservation(key, 2, febFirst)
	feb.MonthlyQuota, feb.DailyCap = 2, 4
	e.reserve(feb)
}
