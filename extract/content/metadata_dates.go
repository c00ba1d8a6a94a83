package content

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// monthNames maps English month names and their abbreviations, lower
// case, to month numbers.
var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
	"september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

// The date shapes findTextDate reads.
const monthRx = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`

var (
	mdyRx = regexp.MustCompile(`(?i)\b` + monthRx + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	dmyRx = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRx + `,?\s+(\d{4})\b`)
	ymdRx = regexp.MustCompile(`\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b`)
	// Numeric day-month-year: "/" is read month first (American), "." day
	// first (European).
	slashRx = regexp.MustCompile(`\b(\d{1,2})/(\d{1,2})/(\d{4})\b`)
	dotRx   = regexp.MustCompile(`\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b`)
)

// findTextDate finds a date in a short text (a byline or a date line, at
// most maxClueText long) and returns it as YYYY-MM-DD, with whether the
// text words it as an update ("Updated", "modified", "reviewed").
func findTextDate(text string) (date string, updated, ok bool) {
	text = strings.TrimSpace(text)
	if len(text) < 6 || len(text) > maxClueText || !hasYear(text) {
		return "", false, false
	}
	lower := strings.ToLower(text)
	updated = strings.Contains(lower, "updated") || strings.Contains(lower, "modified") || strings.Contains(lower, "reviewed")
	if m := mdyRx.FindStringSubmatch(text); m != nil {
		date, ok = ymd(m[3], monthNames[strings.ToLower(m[1])], m[2])
	} else if m := dmyRx.FindStringSubmatch(text); m != nil {
		date, ok = ymd(m[3], monthNames[strings.ToLower(m[2])], m[1])
	} else if m := ymdRx.FindStringSubmatch(text); m != nil {
		mo, _ := strconv.Atoi(m[2])
		date, ok = ymd(m[1], mo, m[3])
	} else if m := slashRx.FindStringSubmatch(text); m != nil {
		a, _ := strconv.Atoi(m[1])
		if date, ok = ymd(m[3], a, m[2]); !ok {
			b, _ := strconv.Atoi(m[2])
			date, ok = ymd(m[3], b, m[1])
		}
	} else if m := dotRx.FindStringSubmatch(text); m != nil {
		mo, _ := strconv.Atoi(m[2])
		date, ok = ymd(m[3], mo, m[1])
	}
	return date, updated, ok
}

// hasYear reports whether text has four ASCII digits in a row, as every
// shape findTextDate reads does: most short texts with a digit have
// none, and the patterns are not tried on them.
func hasYear(text string) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		if text[i] >= '0' && text[i] <= '9' {
			if run++; run == 4 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// ymd formats a year, month and day as YYYY-MM-DD when they make a real
// date between 1990 and 2099.
func ymd(year string, month int, day string) (string, bool) {
	y, err1 := strconv.Atoi(year)
	d, err2 := strconv.Atoi(day)
	if err1 != nil || err2 != nil || y < 1990 || y > 2099 || month < 1 || month > 12 || d < 1 || d > 31 {
		return "", false
	}
	t := time.Date(y, time.Month(month), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return "", false // 31 April
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, month, d), true
}
