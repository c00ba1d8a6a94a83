package schema

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// kind is what a property's value must look like.
type kind int

const (
	kindDate     kind = iota + 1 // ISO 8601 date or date-time (see ParseDate)
	kindDuration                 // ISO 8601 duration (PT1H30M)
	kindURL                      // absolute http(s) URL (or an object with one)
	kindNumber                   // a decimal number, "." as the separator, no currency sign
	kindInteger                  // a whole number
	kindCurrency                 // ISO 4217 shape: three capital letters
)

func (k kind) String() string {
	switch k {
	case kindDate:
		return "an ISO 8601 date or date-time (2024-05-01 or 2024-05-01T09:30:00+02:00)"
	case kindDuration:
		return "an ISO 8601 duration (PT1H30M)"
	case kindURL:
		return "an absolute http(s) URL"
	case kindNumber:
		return "a number with '.' as the decimal separator and no currency sign or thousands separator"
	case kindInteger:
		return "a whole number"
	case kindCurrency:
		return "an ISO 4217 currency code (three capital letters, such as USD)"
	}
	return "?"
}

// dateLayouts are the ISO 8601 forms ParseDate reads, longest first.
// time.Parse also accepts a fractional second after the seconds.
var dateLayouts = []string{
	time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05Z0700", "2006-01-02T15:04Z0700",
	"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02", "2006-01",
}

// spaced are the same date-times with a space for the T, as RFC 3339
// allows and many pages write them.
var spaced = func() []string {
	var out []string
	for _, l := range dateLayouts[:6] {
		out = append(out, strings.Replace(l, "T", " ", 1))
	}
	return out
}()

// ParseDate reads an ISO 8601 date or date-time as schema.org and
// Google's structured-data guidelines write them: 2024-05-01,
// 2024-05-01T09:30, 2024-05-01T09:30:00Z, 2024-05-01T09:30:00.123+02:00
// (or +0200), the reduced form 2024-05, and a space for the T as RFC 3339
// allows (2024-05-01 09:30:00). A value without a zone is read as UTC.
// Anything else (a month name, a slashed date, an RFC 1123 date) reports
// false.
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 7 || len(s) > 40 {
		return time.Time{}, false
	}
	layouts := dateLayouts
	if len(s) > 10 && s[10] == ' ' {
		layouts = spaced
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// validDuration reports whether s is an ISO 8601 duration: P, then
// number-unit pairs in order (Y M W D, then after T: H M S), at least one,
// the last of them possibly fractional.
func validDuration(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) < 3 || s[0] != 'P' {
		return false
	}
	units, inTime, parts := "YMWD", false, 0
	for i := 1; i < len(s); {
		if s[i] == 'T' {
			if inTime || i == len(s)-1 {
				return false
			}
			inTime, units = true, "HMS"
			i++
			continue
		}
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == ',') {
			j++
		}
		if j == i || j == len(s) {
			return false
		}
		k := strings.IndexByte(units, s[j])
		if k < 0 {
			return false
		}
		units = units[k+1:] // units come in order, each once
		parts++
		i = j + 1
	}
	return parts > 0
}

// absoluteURL reports whether s is an absolute http(s) URL with a host.
func absoluteURL(s string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// number reads a JSON-LD number: a JSON number, or a string holding a
// plain decimal number ("19.99", "-3", "1e3" is refused as Google does).
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case float64:
		return v, true
	case string:
		s := strings.TrimSpace(v)
		if s == "" || strings.ContainsAny(s, "eE_") {
			return 0, false
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	return 0, false
}

// validCurrency reports whether s has the shape of an ISO 4217 code.
func validCurrency(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := range 3 {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// valid reports whether one scalar or object value v has kind k.
func (k kind) valid(v any) bool {
	switch k {
	case kindURL:
		switch v := v.(type) {
		case string:
			return absoluteURL(v)
		case map[string]any: // an ImageObject or a reference: its url, contentUrl or @id
			for _, key := range []string{"url", "contentUrl", "@id"} {
				if s, ok := v[key].(string); ok {
					return absoluteURL(s)
				}
			}
			return true // an object with no URL at all is another property's problem
		}
		return false
	case kindNumber:
		_, ok := number(v)
		return ok
	case kindInteger:
		f, ok := number(v)
		return ok && f == float64(int64(f))
	}
	s, ok := v.(string)
	if !ok {
		return false
	}
	switch k {
	case kindDate:
		_, ok := ParseDate(s)
		return ok
	case kindDuration:
		return validDuration(s)
	case kindCurrency:
		return validCurrency(strings.TrimSpace(s))
	}
	return false
}
