package content

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"
)

// Where pages state their dates: <meta> names and properties, itemprop
// values (on <meta> or <time>), and JSON-LD keys.
var (
	publishedKeys = []string{"article:published_time", "og:published_time", "datepublished",
		"dc.date.issued", "dcterms.created", "pubdate", "publishdate", "parsely-pub-date",
		"sailthru.date", "date"}
	modifiedKeys = []string{"article:modified_time", "og:updated_time", "datemodified",
		"dc.date.modified", "dcterms.modified", "last-modified", "lastmod"}
)

// pageDates reads the published and modified dates a page states in its
// metadata (<meta>, itemprop and JSON-LD, as readClues gathered them),
// formatted as formatStated does; "" for a date the page does not state.
func pageDates(c *pageClues) (published, modified string) {
	pick := func(keys []string, ldKey string) string {
		for _, k := range keys {
			if s := formatStated(c.meta[k]); s != "" {
				return s
			}
		}
		for _, v := range c.ld {
			if s := formatStated(findKey(v, ldKey, 0)); s != "" {
				return s
			}
		}
		return ""
	}
	return pick(publishedKeys, "datePublished"), pick(modifiedKeys, "dateModified")
}

// decodeJSONLD decodes the JSON-LD blocks srcs, leaving out those that are
// not valid JSON; the result is non-nil.
func decodeJSONLD(srcs []string) []any {
	out := make([]any, 0, len(srcs))
	for _, src := range srcs {
		var v any
		if json.Unmarshal([]byte(src), &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// findKey returns the first string value of key in a decoded JSON value
// (objects, arrays and @graph lists searched depth first).
func findKey(v any, key string, depth int) string {
	if depth > 6 {
		return ""
	}
	switch v := v.(type) {
	case map[string]any:
		if s, ok := v[key].(string); ok && s != "" {
			return s
		}
		for _, k := range slices.Sorted(maps.Keys(v)) { // in a fixed order: maps have none
			if s := findKey(v[k], key, depth+1); s != "" {
				return s
			}
		}
	case []any:
		for _, c := range v {
			if s := findKey(c, key, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

// statedLayouts are the date formats pages use in metadata, with a zone
// first.
var (
	zonedLayouts = []string{time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04Z07:00",
		"2006-01-02T15:04:05.999999999Z0700", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700",
		time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700"}
	dateLayouts = []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05",
		"2006-01-02", "20060102", "2006/01/02"}
)

// formatStated parses a date as stated in metadata and formats it as RFC
// 3339: a date-time when it has a time of day and a zone, else a
// full-date. It returns "" for a value it cannot read.
func formatStated(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	for _, l := range zonedLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format(time.RFC3339)
		}
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format(time.DateOnly)
		}
	}
	return ""
}
