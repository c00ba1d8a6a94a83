package freshness

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/webinfra/webinfra/seo/schema"
)

// months maps English month names and abbreviations, lower case, to
// month numbers.
var months = map[string]time.Month{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
	"september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

const monthRx = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`

// The date shapes of visible text, tried in this order at the start of
// the text after an update label.
var (
	mdyRx   = regexp.MustCompile(`(?i)^(?:[a-z]+,?\s+){0,2}` + monthRx + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	dmyRx   = regexp.MustCompile(`(?i)^(?:[a-z]+,?\s+){0,2}(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRx + `,?\s+(\d{4})\b`)
	isoRx   = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{2}):(\d{2}))?`)
	slashRx = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{4})\b`)
	dotRx   = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})\.(\d{4})\b`)
	agoRx   = regexp.MustCompile(`(?i)^(?:(?:an?|\d{1,3})\s+(?:minute|hour|day|week|month|year)s?,?\s+(?:and\s+)?)+ago\b`)
	partRx  = regexp.MustCompile(`(?i)(an?|\d{1,3})\s+(minute|hour|day|week|month|year)`)
	dayRx   = regexp.MustCompile(`(?i)^(today|yesterday)\b`)
)

// textDate reads a date at the start of s (leading spaces and
// punctuation skipped): "March 3, 2024", "Tue, 3 March 2024",
// "2024-03-03", "3/14/2024" (month first unless that cannot be),
// "14.03.2024" (day first), "today", "yesterday", "3 days ago" (against
// now; to the day, or to the minute for minutes and hours ago). It
// returns the date (UTC midnight, or the time when the text gives one),
// the text it read, and whether it found one.
func textDate(s string, now time.Time) (time.Time, string, bool) {
	s = strings.TrimLeft(s, " \t:–—-,(")
	if m := mdyRx.FindStringSubmatch(s); m != nil {
		return day(m[3], months[strings.ToLower(m[1])], m[2], m[0])
	}
	if m := dmyRx.FindStringSubmatch(s); m != nil {
		return day(m[3], months[strings.ToLower(m[2])], m[1], m[0])
	}
	if m := isoRx.FindStringSubmatch(s); m != nil {
		mo, _ := strconv.Atoi(m[2])
		t, raw, ok := day(m[1], time.Month(mo), m[3], m[0])
		if ok && m[4] != "" {
			h, _ := strconv.Atoi(m[4])
			mi, _ := strconv.Atoi(m[5])
			t = t.Add(time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute)
		}
		return t, raw, ok
	}
	if m := slashRx.FindStringSubmatch(s); m != nil {
		a, _ := strconv.Atoi(m[1])
		if t, raw, ok := day(m[3], time.Month(a), m[2], m[0]); ok {
			return t, raw, ok
		}
		b, _ := strconv.Atoi(m[2])
		return day(m[3], time.Month(b), m[1], m[0])
	}
	if m := dotRx.FindStringSubmatch(s); m != nil {
		mo, _ := strconv.Atoi(m[2])
		return day(m[3], time.Month(mo), m[1], m[0])
	}
	if m := dayRx.FindStringSubmatch(s); m != nil {
		d := midnight(now)
		if strings.EqualFold(m[1], "yesterday") {
			d = d.AddDate(0, 0, -1)
		}
		return d, m[0], true
	}
	if m := agoRx.FindString(s); m != "" {
		// "3 days ago", "an hour ago", "5 years, 1 month ago": the
		// largest unit sets the precision
		t, exact := now, false
		for _, p := range partRx.FindAllStringSubmatch(m, -1) {
			n, err := strconv.Atoi(p[1])
			if err != nil {
				n = 1 // "a day", "an hour"
			}
			unit := strings.ToLower(p[2])
			t = ago(t, n, unit)
			exact = exact || unit == "minute" || unit == "hour"
		}
		if !exact {
			t = midnight(t)
		}
		return t, m, true
	}
	return time.Time{}, "", false
}

// ago is t less n units.
func ago(t time.Time, n int, unit string) time.Time {
	switch unit {
	case "minute":
		return t.Add(-time.Duration(n) * time.Minute)
	case "hour":
		return t.Add(-time.Duration(n) * time.Hour)
	case "day":
		return t.AddDate(0, 0, -n)
	case "week":
		return t.AddDate(0, 0, -7*n)
	case "month":
		return t.AddDate(0, -n, 0)
	}
	return t.AddDate(-n, 0, 0)
}

func midnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// day builds a date from a year, month and day when they make a real
// date between 1990 and 2099.
func day(year string, month time.Month, dayOfMonth, raw string) (time.Time, string, bool) {
	y, err1 := strconv.Atoi(year)
	d, err2 := strconv.Atoi(dayOfMonth)
	if err1 != nil || err2 != nil || y < 1990 || y > 2099 || month < 1 || month > 12 || d < 1 || d > 31 {
		return time.Time{}, "", false
	}
	t := time.Date(y, month, d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d { // 31 April
		return time.Time{}, "", false
	}
	return t, strings.TrimSpace(raw), true
}

// statedLayouts are the non-ISO forms metadata dates take on real pages.
var statedLayouts = []string{"2006-01-02 15:04:05 -0700", time.RFC1123Z, time.RFC1123, time.RFC850, time.ANSIC, "Mon, 2 Jan 2006 15:04:05 -0700",
	"2006/01/02", "20060102"}

// statedDate reads a date as metadata states it: ISO 8601 first (see
// schema.ParseDate), then the other forms pages use, then an HTTP date.
func statedDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, ok := schema.ParseDate(s); ok {
		return t, true
	}
	for _, l := range statedLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	if t, err := http.ParseTime(s); err == nil {
		return t, true
	}
	return time.Time{}, false
}
