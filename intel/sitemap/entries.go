package sitemap

import (
	"hash/maphash"
	"math"
	"net/url"
	"strconv"
	"strings"
)

// fileState counts one file's entries and its problems.
type fileState struct {
	r       *reader
	item    *queued
	file    *File
	allowed map[string]bool // hosts its URLs may be on
	counts  map[string]int  // problem code → entries
	example map[string]string
}

func (r *reader) newFileState(item *queued, file *File, finalURL string) *fileState {
	fs := &fileState{r: r, item: item, file: file, allowed: map[string]bool{}, counts: map[string]int{}, example: map[string]string{}}
	for _, raw := range []string{item.url, finalURL} {
		if u, err := url.Parse(raw); err == nil {
			fs.allowed[strings.ToLower(u.Host)] = true
		}
	}
	if item.siteHost != "" && item.source != "given" {
		fs.allowed[item.siteHost] = true // a robots.txt Sitemap: line lets a sitemap list its site's URLs
	}
	return fs
}

// note counts an entry with a problem.
func (fs *fileState) note(code, example string) {
	if fs.counts[code] == 0 {
		fs.example[code] = cut(example, 200)
	}
	fs.counts[code]++
}

// visit handles one entry; it returns false when the total cap is spent.
func (fs *fileState) visit(it Item) bool {
	r := fs.r
	if r.entries >= r.o.MaxTotalURLs {
		if !r.rep.Truncated.Total {
			r.rep.Truncated.Total = true
			r.problem("total_cap", fs.file.URL, "reading stopped at %d entries in all", r.o.MaxTotalURLs)
		}
		return false
	}
	r.entries++
	loc, ok := checkLoc(it.Loc)
	if !ok {
		fs.note("invalid_url", it.Loc)
		return true
	}
	fs.file.URLCount++
	if it.Sitemap {
		fs.child(loc, it)
	} else {
		fs.page(loc, it)
	}
	return true
}

// checkLoc returns an entry's URL when it is an absolute http(s) URL of
// at most 2,048 bytes, without its fragment.
func checkLoc(loc string) (*url.URL, bool) {
	if loc == "" || len(loc) > maxLocBytes {
		return nil, false
	}
	u, err := url.Parse(loc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, false
	}
	u.Fragment, u.RawFragment = "", ""
	return u, true
}

// child queues a sitemap an index lists.
func (fs *fileState) child(u *url.URL, it Item) {
	r, loc := fs.r, u.String()
	if it.Lastmod != "" {
		if _, ok := ParseLastmod(it.Lastmod); !ok {
			fs.note("invalid_lastmod", it.Lastmod)
		}
	}
	switch {
	case fs.item.depth+1 > r.o.MaxDepth:
		r.rep.Truncated.Depth = true
		fs.note("too_deep", loc)
	case r.sitemaps[loc] && fs.isAncestor(loc):
		fs.note("sitemap_cycle", loc)
	case r.sitemaps[loc]:
		fs.note("repeated_sitemap", loc)
	case len(r.sitemaps) >= r.o.MaxSitemaps:
		r.capSitemaps(loc)
	default:
		r.sitemaps[loc] = true
		r.queue = append(r.queue, &queued{url: loc, source: "index", depth: fs.item.depth + 1, parent: fs.item,
			siteHost: fs.item.siteHost, lastmod: cut(it.Lastmod, 64)})
	}
}

// isAncestor reports whether loc is this file or an index above it.
func (fs *fileState) isAncestor(loc string) bool {
	for q := fs.item; q != nil; q = q.parent {
		if q.url == loc {
			return true
		}
	}
	return false
}

// page counts one page URL.
func (fs *fileState) page(u *url.URL, it Item) {
	r, loc := fs.r, u.String()
	h := maphash.String(r.seed, loc)
	if _, dup := r.urls[h]; dup {
		fs.note("duplicate_url", loc)
		return
	}
	r.urls[h] = struct{}{}
	r.rep.URLCount++
	host := strings.ToLower(u.Host)
	if _, ok := r.hosts[host]; ok || len(r.hosts) < maxHostsCounted {
		r.hosts[host]++
	}
	if !fs.allowed[host] {
		fs.note("off_host", loc)
	}
	switch r.dates.add(it.Lastmod, it.Feed) {
	case "invalid":
		fs.note("invalid_lastmod", it.Lastmod)
	case "future":
		fs.note("future_lastmod", it.Lastmod)
	}
	e := Entry{Loc: loc, Lastmod: cut(it.Lastmod, 64), Images: it.Images, News: it.News, Videos: it.Videos}
	if it.Priority != "" {
		p, err := strconv.ParseFloat(it.Priority, 64)
		if err != nil || math.IsNaN(p) || p < 0 || p > 1 {
			fs.note("invalid_priority", it.Priority)
		} else {
			e.Priority = &p
		}
	}
	if it.Changefreq != "" {
		if changefreqs[strings.ToLower(it.Changefreq)] {
			e.Changefreq = strings.ToLower(it.Changefreq)
		} else {
			fs.note("invalid_changefreq", it.Changefreq)
		}
	}
	if len(r.rep.URLs) < r.maxListed {
		r.rep.URLs = append(r.rep.URLs, e)
	} else {
		r.rep.Truncated.URLs = true
	}
}

var changefreqs = map[string]bool{"always": true, "hourly": true, "daily": true, "weekly": true, "monthly": true, "yearly": true, "never": true}

// problemTexts describe the entry problems, in the order reported; each
// takes the count and an example.
var problemTexts = []struct{ code, format string }{
	{"invalid_url", "%d entries are not absolute http(s) URLs of at most 2,048 characters (e.g. %q)"},
	{"duplicate_url", "%d URLs were listed before, here or in another sitemap (e.g. %q)"},
	{"off_host", "%d URLs are on another host than the sitemap's, which sitemaps.org allows only when that host's robots.txt lists the sitemap (e.g. %q)"},
	{"invalid_lastmod", "%d lastmod values are not W3C Datetime such as 2024-05-01 or 2024-05-01T10:00:00+00:00 (e.g. %q)"},
	{"future_lastmod", "%d lastmod values are in the future (e.g. %q)"},
	{"invalid_priority", "%d priority values are not a number from 0.0 to 1.0 (e.g. %q)"},
	{"invalid_changefreq", "%d changefreq values are not always, hourly, daily, weekly, monthly, yearly or never (e.g. %q)"},
	{"sitemap_cycle", "%d listed sitemaps lead back to this one, a cycle (e.g. %q); not read again"},
	{"repeated_sitemap", "%d listed sitemaps were already listed elsewhere (e.g. %q); read once"},
	{"too_deep", "%d listed sitemaps sit deeper than the nesting cap of indexes (e.g. %q); not read"},
}

// flush reports the file's entry problems, one per code.
func (fs *fileState) flush() {
	for _, p := range problemTexts {
		if n := fs.counts[p.code]; n > 0 {
			fs.r.problem(p.code, fs.file.URL, p.format, n, fs.example[p.code])
		}
	}
}
