package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel/sitemap"
)

// route is one file a test site serves; bodies may use {origin}.
type route struct {
	status   int
	ctype    string
	encoding string // "gzip": sent gzipped with Content-Encoding
	gzip     bool   // sent gzipped without Content-Encoding (a .xml.gz)
	body     string
	hang     bool // answer nothing until the client gives up
}

// testSite is a loopback web site serving routes; anything else is 404.
type testSite struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func serve(t *testing.T, routes map[string]route) *testSite {
	t.Helper()
	s := &testSite{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		rt, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if rt.hang {
			<-r.Context().Done()
			return
		}
		body := []byte(strings.ReplaceAll(rt.body, "{origin}", "http://"+r.Host))
		if rt.gzip || rt.encoding == "gzip" {
			body = gzipped(t, body)
		}
		if rt.encoding != "" {
			w.Header().Set("Content-Encoding", rt.encoding)
		}
		w.Header().Set("Content-Type", cmpOr(rt.ctype, "application/xml"))
		w.WriteHeader(cmpOr(rt.status, http.StatusOK))
		w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *testSite) hitsOf(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func gzipped(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Error(err)
	}
	return out.Bytes()
}

// loopbackFetcher may fetch the test sites.
func loopbackFetcher(t *testing.T) *fetch.Fetcher {
	t.Helper()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var now = time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)

func urlset(entries ...string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
		strings.Join(entries, "\n") + `</urlset>`
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc><lastmod>2024-05-01</lastmod></sitemap>", l)
	}
	return b.String() + `</sitemapindex>`
}

func u(loc, more string) string { return "<url><loc>" + loc + "</loc>" + more + "</url>" }

func codes(rep *sitemap.Report) []string {
	var out []string
	for _, p := range rep.Problems {
		out = append(out, p.Code)
	}
	return out
}

func TestReadSiteFromRobots(t *testing.T) {
	t.Parallel()
	site := serve(t, map[string]route{
		"/robots.txt": {ctype: "text/plain", body: "User-agent: *\nDisallow: /private/\nSitemap: {origin}/sitemap_index.xml\n"},
		"/sitemap_index.xml": {body: index("{origin}/s1.xml.gz", "{origin}/s2.xml", "{origin}/feed.rss", "{origin}/missing.xml",
			"{origin}/garbage.xml", "{origin}/page.html", "{origin}/sitemap_index.xml", "{origin}/s2.xml", "relative.xml")},
		"/s1.xml.gz": {gzip: true, ctype: "application/x-gzip", body: urlset(
			u("{origin}/a", "<lastmod>2024-05-30</lastmod><priority>0.8</priority><image:image><image:loc>{origin}/a.jpg</image:loc></image:image>"),
			u("{origin}/b", "<lastmod>2024-05-10T10:00:00+00:00</lastmod><changefreq>Weekly</changefreq>"),
			u("{origin}/c", "<lastmod>2023-09-01</lastmod>"),
		)},
		"/s2.xml": {encoding: "gzip", body: urlset(
			u("{origin}/a", ""), // listed in s1
			u("{origin}/d", "<lastmod>2020-01-01</lastmod>"),      // oldest
			u("{origin}/e", "<lastmod>yesterday</lastmod>"),       // invalid
			u("{origin}/f", "<lastmod>2030-01-01</lastmod>"),      // future
			u("{origin}/g", "<priority>1.5</priority>"),           // bad priority
			u("{origin}/h", "<changefreq>sometimes</changefreq>"), // bad changefreq
			u("https://other.example/x", ""),                      // off host
			u("/relative", ""),                                    // not absolute
		)},
		"/feed.rss":    {ctype: "application/rss+xml", body: `<rss version="2.0"><channel><item><link>{origin}/post</link><pubDate>Fri, 31 May 2024 12:00:00 GMT</pubDate></item></channel></rss>`},
		"/garbage.xml": {body: `<urlset><url><loc>{origin}/i</loc></url><url><loc>broken`},
		"/page.html":   {ctype: "text/html", body: `<!doctype html><html><body>Not a sitemap</body></html>`},
	})
	rep, err := sitemap.Read(context.Background(), loopbackFetcher(t), sitemap.Input{URL: site.URL + "/some/page"}, &sitemap.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range rep.Sitemaps {
		files = append(files, fmt.Sprintf("%s %s %d %s gz=%v n=%d err=%v", strings.TrimPrefix(f.URL, site.URL), f.Source, f.Depth, f.Kind, f.Gzipped, f.URLCount, f.Error != ""))
	}
	wantFiles := []string{
		"/sitemap_index.xml robots.txt 0 index gz=false n=8 err=false",
		"/s1.xml.gz index 1 urlset gz=true n=3 err=false",
		"/s2.xml index 1 urlset gz=false n=7 err=false", // Content-Encoding was undone by the fetcher
		"/feed.rss index 1 rss gz=false n=1 err=false",
		"/missing.xml index 1  gz=false n=0 err=true",
		"/garbage.xml index 1 urlset gz=false n=1 err=true",
		"/page.html index 1  gz=false n=0 err=true",
	}
	if !slices.Equal(files, wantFiles) {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(files, "\n"), strings.Join(wantFiles, "\n"))
	}
	// a b c (s1), d e f g h other.example/x (s2), post (feed), i (garbage)
	if rep.URLCount != 11 || len(rep.URLs) != 11 || rep.Truncated != (sitemap.Truncation{}) {
		t.Errorf("url_count %d, %d listed, truncated %+v", rep.URLCount, len(rep.URLs), rep.Truncated)
	}
	first := rep.URLs[0]
	if first.Loc != site.URL+"/a" || first.Lastmod != "2024-05-30" || first.Priority == nil || *first.Priority != 0.8 || first.Images != 1 {
		t.Errorf("first URL %+v", first)
	}
	if rep.URLs[1].Changefreq != "weekly" {
		t.Errorf("second URL %+v", rep.URLs[1])
	}
	wantLastmod := sitemap.LastmodStats{WithLastmod: 6, Without: 4, Invalid: 1, Future: 1,
		Oldest: "2020-01-01T00:00:00Z", Newest: "2030-01-01T00:00:00Z", Median: "2024-05-30T00:00:00Z",
		Last7Days: 2, Last30Days: 3, Last365Days: 4} // a, post | b | c; f is in the future
	if rep.Lastmod != wantLastmod {
		t.Errorf("lastmod\n got %+v\nwant %+v", rep.Lastmod, wantLastmod)
	}
	wantCodes := []string{"sitemap_cycle", "repeated_sitemap", "invalid_url", // the index
		"duplicate_url", "off_host", "invalid_lastmod", "future_lastmod", "invalid_priority", "invalid_changefreq", "invalid_url", // s2
		"unreachable", "not_xml", "not_sitemap"}
	if got := codes(rep); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(wantCodes))) {
		t.Errorf("problems %q, want %q", got, wantCodes)
	}
	host := strings.TrimPrefix(site.URL, "http://")
	if len(rep.Hosts) != 2 || rep.Hosts[0] != (sitemap.HostCount{Host: host, URLs: 10}) || rep.Hosts[1].Host != "other.example" {
		t.Errorf("hosts %+v", rep.Hosts)
	}
	if site.hitsOf("/sitemap_index.xml") != 1 || site.hitsOf("/s2.xml") != 1 || site.hitsOf("/sitemap.xml") != 0 {
		t.Errorf("hits %v", site.hits)
	}
}

func TestReadGivenSitemaps(t *testing.T) {
	t.Parallel()
	site := serve(t, map[string]route{
		"/urls.txt":         {ctype: "text/plain", body: "{origin}/1\n{origin}/2\n\n{origin}/1\nhttps://elsewhere.example/3\n"},
		"/feed":             {ctype: "application/atom+xml", body: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="{origin}/e"/><updated>2024-05-31T00:00:00Z</updated></entry></feed>`},
		"/sitemap.xml.gz":   {gzip: true, ctype: "application/octet-stream", body: urlset(u("{origin}/z", ""))},
		"/nested":           {body: ""},
		"/idx-sitemap.xml":  {body: index("{origin}/idx2-sitemap.xml")},
		"/idx2-sitemap.xml": {body: index("{origin}/leaf.xml")},
		"/leaf.xml":         {body: urlset(u("{origin}/leaf", ""))},
	})
	for _, c := range []struct {
		path  string
		kind  string
		count int
		codes []string
	}{
		{"/urls.txt", sitemap.KindText, 3, []string{"duplicate_url", "off_host"}},
		{"/feed", sitemap.KindAtom, 1, nil},
		{"/sitemap.xml.gz", sitemap.KindURLSet, 1, nil},
		{"/idx-sitemap.xml", sitemap.KindIndex, 1, []string{"nested_index"}},
	} {
		rep, err := sitemap.Read(context.Background(), loopbackFetcher(t), sitemap.Input{URL: site.URL + c.path}, nil)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if rep.Sitemaps[0].Kind != c.kind || rep.Sitemaps[0].Source != "given" || rep.URLCount != c.count || !slices.Equal(codes(rep), c.codes) {
			t.Errorf("%s: kind %s source %s, %d URLs, problems %v; want %s, %d, %v", c.path, rep.Sitemaps[0].Kind, rep.Sitemaps[0].Source, rep.URLCount, rep.Problems, c.kind, c.count, c.codes)
		}
	}
}

func TestReadDefaultLocations(t *testing.T) {
	t.Parallel()
	site := serve(t, map[string]route{
		"/sitemap_index.xml": {body: index("{origin}/posts.xml")},
		"/posts.xml":         {body: urlset(u("{origin}/p1", ""), u("{origin}/p2", ""))},
	})
	rep, err := sitemap.Read(context.Background(), loopbackFetcher(t), sitemap.Input{URL: site.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sitemaps) != 2 || rep.Sitemaps[0].Source != "default" || rep.URLCount != 2 || len(rep.Problems) != 0 {
		t.Errorf("sitemaps %+v, %d URLs, problems %v", rep.Sitemaps, rep.URLCount, rep.Problems)
	}
	if site.hitsOf("/robots.txt") != 1 || site.hitsOf("/sitemap.xml") != 1 {
		t.Errorf("hits %v", site.hits)
	}
}

func TestReadCaps(t *testing.T) {
	t.Parallel()
	many := make([]string, 6)
	for i := range many {
		many[i] = fmt.Sprintf("{origin}/leaf%d.xml", i)
	}
	routes := map[string]route{
		"/many-sitemap.xml":  {body: index(many...)},
		"/deep0-sitemap.xml": {body: index("{origin}/deep1.xml")},
		"/deep1.xml":         {body: index("{origin}/deep2.xml")},
		"/deep2.xml":         {body: index("{origin}/leaf0.xml")},
		"/big-sitemap.xml":   {body: urlset(u("{origin}/1", ""), u("{origin}/2", ""), u("{origin}/3", ""), u("{origin}/4", ""), u("{origin}/5", ""))},
	}
	for i := range many {
		routes[fmt.Sprintf("/leaf%d.xml", i)] = route{body: urlset(u(fmt.Sprintf("{origin}/p%d-a", i), ""), u(fmt.Sprintf("{origin}/p%d-b", i), ""))}
	}
	site := serve(t, routes)
	for _, c := range []struct {
		name    string
		path    string
		maxURLs int
		opts    sitemap.Options
		want    sitemap.Truncation
		count   int
		files   int
		problem string
	}{
		{"file cap", "/many-sitemap.xml", 0, sitemap.Options{MaxSitemaps: 3}, sitemap.Truncation{Sitemaps: true}, 4, 3, "too_many_sitemaps"},
		{"depth cap", "/deep0-sitemap.xml", 0, sitemap.Options{MaxDepth: 1}, sitemap.Truncation{Depth: true}, 0, 2, "too_deep"},
		{"depth 3 reached", "/deep0-sitemap.xml", 0, sitemap.Options{}, sitemap.Truncation{}, 2, 4, "nested_index"},
		{"entries per file", "/big-sitemap.xml", 0, sitemap.Options{MaxURLsPerFile: 3}, sitemap.Truncation{File: true}, 3, 1, "too_many_urls"},
		{"bytes per file", "/big-sitemap.xml", 0, sitemap.Options{MaxFileBytes: 300}, sitemap.Truncation{File: true}, -1, 1, "too_large"}, // -1: some, not all
		{"entries in all", "/many-sitemap.xml", 0, sitemap.Options{MaxTotalURLs: 9}, sitemap.Truncation{Total: true}, 3, 7, "total_cap"},
		{"listed", "/big-sitemap.xml", 2, sitemap.Options{}, sitemap.Truncation{URLs: true}, 5, 1, ""},
	} {
		rep, err := sitemap.Read(context.Background(), loopbackFetcher(t), sitemap.Input{URL: site.URL + c.path, MaxURLs: c.maxURLs}, &c.opts)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		count := rep.URLCount
		if c.count == -1 && count > 0 && count < 5 {
			count = -1
		}
		if rep.Truncated != c.want || count != c.count || len(rep.Sitemaps) != c.files || (c.problem != "" && !slices.Contains(codes(rep), c.problem)) {
			t.Errorf("%s: truncated %+v, %d URLs, %d files, problems %v; want %+v, %d, %d, %s", c.name, rep.Truncated, rep.URLCount, len(rep.Sitemaps), codes(rep), c.want, c.count, c.files, c.problem)
		}
		if c.maxURLs > 0 && len(rep.URLs) != c.maxURLs {
			t.Errorf("%s: %d URLs listed", c.name, len(rep.URLs))
		}
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	empty := serve(t, map[string]route{
		"/robots.txt":  {ctype: "text/plain", body: "User-agent: *\nAllow: /\n"},
		"/sitemap.xml": {ctype: "text/html", body: "<html><body>Home</body></html>"}, // a soft 404
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	strict, err := fetch.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name     string
		ctx      context.Context
		f        *fetch.Fetcher
		in       sitemap.Input
		kind     errs.Kind
		field    string
		contains []string
	}{
		{name: "ftp", in: sitemap.Input{URL: "ftp://example.com/sitemap.xml"}, kind: errs.KindInvalid, field: "url"},
		{name: "relative", in: sitemap.Input{URL: "/sitemap.xml"}, kind: errs.KindInvalid, field: "url"},
		{name: "credentials", in: sitemap.Input{URL: "https://u:p@example.com/"}, kind: errs.KindInvalid, field: "url"},
		{name: "max_urls", in: sitemap.Input{URL: "https://example.com/", MaxURLs: 50_001}, kind: errs.KindInvalid, field: "max_urls"},
		{name: "negative max_urls", in: sitemap.Input{URL: "https://example.com/", MaxURLs: -1}, kind: errs.KindInvalid, field: "max_urls"},
		{name: "nothing found", in: sitemap.Input{URL: empty.URL + "/"}, kind: errs.KindNotFound,
			contains: []string{"robots.txt (no Sitemap: line)", "/sitemap.xml (not a sitemap", "/sitemap_index.xml (HTTP 404)"}},
		{name: "given 404", in: sitemap.Input{URL: empty.URL + "/gone-sitemap.xml"}, kind: errs.KindNotFound, contains: []string{"gone-sitemap.xml (HTTP 404)"}},
		{name: "site down", in: sitemap.Input{URL: closed.URL + "/"}, kind: errs.KindUpstream},
		{name: "given sitemap down", in: sitemap.Input{URL: closed.URL + "/sitemap.xml"}, kind: errs.KindUpstream},
		{name: "ssrf", f: strict, in: sitemap.Input{URL: empty.URL + "/"}, kind: errs.KindForbidden},
		{name: "ssrf given", f: strict, in: sitemap.Input{URL: empty.URL + "/sitemap.xml"}, kind: errs.KindForbidden},
		{name: "cancelled", ctx: cancelled, in: sitemap.Input{URL: empty.URL + "/"}},
	} {
		f := cmpOr(c.f, loopbackFetcher(t))
		ctx := cmpOr(c.ctx, context.Background())
		rep, err := sitemap.Read(ctx, f, c.in, nil)
		switch {
		case err == nil:
			t.Errorf("%s: no error, report %+v", c.name, rep)
		case c.kind == "" && err != context.Canceled:
			t.Errorf("%s: %v, want context.Canceled", c.name, err)
		case c.kind != "" && (!errs.Is(err, c.kind) || errs.FieldOf(err) != c.field):
			t.Errorf("%s: %v (kind %s, field %q), want %s %q", c.name, err, errs.KindOf(err), errs.FieldOf(err), c.kind, c.field)
		}
		for _, s := range c.contains {
			if err != nil && !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", c.name, err, s)
			}
		}
	}
	if _, err := sitemap.Read(context.Background(), nil, sitemap.Input{URL: "https://example.com/"}, nil); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("nil fetcher: %v", err)
	}
}

func TestReadTimeBudget(t *testing.T) {
	t.Parallel()
	site := serve(t, map[string]route{
		"/slow-sitemap.xml":  {hang: true},
		"/index-sitemap.xml": {body: index("{origin}/fast.xml", "{origin}/slow-sitemap.xml", "{origin}/never.xml")},
		"/fast.xml":          {body: urlset(u("{origin}/1", ""))},
	})
	opts := &sitemap.Options{Timeout: 200 * time.Millisecond}
	_, err := sitemap.Read(context.Background(), loopbackFetcher(t), sitemap.Input{URL: site.URL + "/slow-sitemap.xml"}, opts)
	if !errs.Is(err, errs.KindTimeout) {
		t.Errorf("nothing read in time: %v, want a timeout", err)
	}
	rep, err := sitemap.Read(context.Background(), loopbackFetcher(t), sitemap.Input{URL: site.URL + "/index-sitemap.xml"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Truncated.Time || rep.URLCount != 1 || !slices.Contains(codes(rep), "time_budget") || site.hitsOf("/never.xml") != 0 {
		t.Errorf("truncated %+v, %d URLs, problems %v", rep.Truncated, rep.URLCount, rep.Problems)
	}
}
