package freshness

import (
	"testing"
	"time"
)

func TestTextDate(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 6, 1, 12, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		in, want, raw string // want: RFC 3339, "" when no date
	}{
		{"March 3, 2024 by Ann", "2024-03-03T00:00:00Z", "March 3, 2024"},
		{": Mar. 3rd 2024", "2024-03-03T00:00:00Z", "Mar. 3rd 2024"},
		{"on Tuesday, March 3, 2024", "2024-03-03T00:00:00Z", "on Tuesday, March 3, 2024"},
		{"3 March 2024", "2024-03-03T00:00:00Z", "3 March 2024"},
		{"3rd of March, 2024", "2024-03-03T00:00:00Z", "3rd of March, 2024"},
		{"2024-03-03 14:05", "2024-03-03T14:05:00Z", "2024-03-03 14:05"},
		{"3/14/2024", "2024-03-14T00:00:00Z", "3/14/2024"},
		{"14/3/2024", "2024-03-14T00:00:00Z", "14/3/2024"},
		{"14.03.2024", "2024-03-14T00:00:00Z", "14.03.2024"},
		{"today", "2025-06-01T00:00:00Z", "today"},
		{"Yesterday at noon", "2025-05-31T00:00:00Z", "Yesterday"},
		{"3 days ago", "2025-05-29T00:00:00Z", "3 days ago"},
		{"an hour ago", "2025-06-01T11:30:00Z", "an hour ago"},
		{"2 weeks ago", "2025-05-18T00:00:00Z", "2 weeks ago"},
		{"5 years, 1 month ago", "2020-05-01T00:00:00Z", "5 years, 1 month ago"},
		{"1 day and 2 hours ago", "2025-05-31T10:30:00Z", "1 day and 2 hours ago"},
		{"31 April 2024", "", ""},
		{"March 2024", "", ""},
		{"1889-01-01", "", ""},
		{"in March", "", ""},
	} {
		got, raw, ok := textDate(c.in, now)
		s := ""
		if ok {
			s = got.Format(time.RFC3339)
		}
		if s != c.want || raw != c.raw {
			t.Errorf("textDate(%q) = %q %q, want %q %q", c.in, s, raw, c.want, c.raw)
		}
	}
}

func TestStatedDate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"2024-05-01T09:00:00+02:00":     "2024-05-01T07:00:00Z",
		"2024-05-01 09:00:00":           "2024-05-01T09:00:00Z",
		"Wed, 01 May 2024 09:00:00 GMT": "2024-05-01T09:00:00Z",
		"2024/05/01":                    "2024-05-01T00:00:00Z",
		"yesterday":                     "",
	} {
		got, ok := statedDate(in)
		s := ""
		if ok {
			s = got.UTC().Format(time.RFC3339)
		}
		if s != want {
			t.Errorf("statedDate(%q) = %q, want %q", in, s, want)
		}
	}
}

func TestAgeScore(t *testing.T) {
	t.Parallel()
	for days, want := range map[float64]int{0: 100, 30: 100, 60: 93, 90: 85, 180: 70, 365: 50, 547.5: 25, 730: 0, 5000: 0} {
		if got := ageScore(days); got != want {
			t.Errorf("ageScore(%v) = %d, want %d", days, got, want)
		}
	}
}
