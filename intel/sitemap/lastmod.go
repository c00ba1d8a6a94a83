package sitemap

import (
	"slices"
	"time"
)

// LastmodStats describe the <lastmod> dates of the URLs counted
// (duplicates left out).
type LastmodStats struct {
	WithLastmod int    `json:"with_lastmod" doc:"URLs with a valid lastmod."`
	Without     int    `json:"without" doc:"URLs without a lastmod."`
	Invalid     int    `json:"invalid" doc:"URLs whose lastmod is not a W3C Datetime (2024-05-01, 2024-05-01T10:00:00+00:00 and the like); feeds' RFC 822 dates are accepted in feeds."`
	Future      int    `json:"future" doc:"Valid lastmods more than a day after now."`
	Oldest      string `json:"oldest,omitempty" example:"2019-03-02T00:00:00Z" doc:"The oldest valid lastmod, RFC 3339 in UTC."`
	Newest      string `json:"newest,omitempty" example:"2024-05-01T10:00:00Z"`
	Median      string `json:"median,omitempty" example:"2023-11-20T00:00:00Z"`
	Last7Days   int    `json:"last_7_days" doc:"Valid lastmods in the 7 days before now."`
	Last30Days  int    `json:"last_30_days"`
	Last365Days int    `json:"last_365_days"`
}

// W3C Datetime (www.w3.org/TR/NOTE-datetime), the format sitemaps.org
// asks for: a year, a month, a day, or a day with a time that then needs
// a time zone.
var w3cLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02",
	"2006-01",
	"2006",
}

// Dates feeds write: RSS's RFC 822 (and its common variants), then W3C.
var feedLayouts = append([]string{
	time.RFC1123Z, time.RFC1123, time.RFC822Z, time.RFC822,
	"Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04:05 MST",
}, w3cLayouts...)

// ParseLastmod reads a sitemap <lastmod>, a W3C Datetime: "2024", "2024-05",
// "2024-05-01", "2024-05-01T10:00+02:00", "2024-05-01T10:00:00Z" or with a
// decimal fraction of a second. A time without a zone is not valid.
func ParseLastmod(s string) (time.Time, bool) { return parseWith(s, w3cLayouts) }

// parseFeedDate reads a feed's date: RFC 822 (RSS) or W3C (Atom).
func parseFeedDate(s string) (time.Time, bool) { return parseWith(s, feedLayouts) }

func parseWith(s string, layouts []string) (time.Time, bool) {
	if len(s) > 64 {
		return time.Time{}, false
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// maxDates bounds the dates kept for the median (one per URL counted).
const maxDates = 500_000

// lastmods gathers LastmodStats.
type lastmods struct {
	stats LastmodStats
	now   time.Time
	dates []int64 // Unix seconds
}

// add counts one URL's lastmod; it returns "" when the value is fine,
// else "invalid" or "future".
func (l *lastmods) add(value string, feed bool) string {
	if value == "" {
		l.stats.Without++
		return ""
	}
	parse := ParseLastmod
	if feed {
		parse = parseFeedDate
	}
	t, ok := parse(value)
	if !ok {
		l.stats.Invalid++
		return "invalid"
	}
	l.stats.WithLastmod++
	if len(l.dates) < maxDates {
		l.dates = append(l.dates, t.Unix())
	}
	age := l.now.Sub(t)
	switch {
	case age < -24*time.Hour:
		l.stats.Future++
		return "future"
	case age <= 7*24*time.Hour:
		l.stats.Last7Days++
		fallthrough
	case age <= 30*24*time.Hour:
		l.stats.Last30Days++
		fallthrough
	case age <= 365*24*time.Hour:
		l.stats.Last365Days++
	}
	return ""
}

// result is the stats with the oldest, newest and median dates.
func (l *lastmods) result() LastmodStats {
	out := l.stats
	if len(l.dates) == 0 {
		return out
	}
	slices.Sort(l.dates)
	format := func(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }
	out.Oldest, out.Newest = format(l.dates[0]), format(l.dates[len(l.dates)-1])
	out.Median = format(l.dates[len(l.dates)/2])
	return out
}
