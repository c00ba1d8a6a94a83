package dashboard

import (
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/store"
)

// After logging in, the browser goes back to a dashboard page, never to
// another site.
func TestSafeNext(t *testing.T) {
	t.Parallel()
	for next, want := range map[string]string{
		"/dashboard/keys":          "/dashboard/keys",
		"/dashboard/usage?x=1":     "/dashboard/usage?x=1",
		"":                         "/dashboard/",
		"https://evil.example/":    "/dashboard/",
		"//evil.example/":          "/dashboard/",
		"/dashboard//evil.example": "/dashboard/",
		"/dashboard/\\evil":        "/dashboard/",
		"/docs":                    "/dashboard/",
	} {
		if got := safeNext(next); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", next, got, want)
		}
	}
}

// The chart has a bar per day, zeros filled in, scaled to the busiest
// day, and a summary a screen reader can say.
func TestChart(t *testing.T) {
	t.Parallel()
	until := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	days := fillDays([]store.UsageDay{{Day: "2026-11-19", Requests: 4}, {Day: "2026-11-21", Requests: 1200}}, until.AddDate(0, 0, -4), until)
	if len(days) != 5 || days[0].Day != "2026-11-17" || days[2].Requests != 4 || days[3].Requests != 0 {
		t.Fatalf("days %+v", days)
	}
	c := newChart("Calls per day", "calls", "#0b57d0", days, func(d store.UsageDay) int64 { return d.Requests })
	if len(c.Bars) != 5 || c.Max != 1200 || c.Bars[4].H != c.Plot.H || c.Bars[3].H != 0 || c.Bars[2].H < 2 {
		t.Fatalf("chart %+v", c)
	}
	if !strings.Contains(c.Summary, "1,204 in all") || !strings.Contains(c.Summary, "1,200, on 2026-11-21") {
		t.Fatalf("summary %q", c.Summary)
	}
	if c.Bars[2].Label != "2026-11-19: 4 calls" {
		t.Fatalf("label %q", c.Bars[2].Label)
	}
}

func TestGroupDigits(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}
