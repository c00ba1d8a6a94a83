package linkcheck_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/linkcheck"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

func newFetcher(t *testing.T) *fetch.Fetcher {
	t.Helper()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// sites are the loopback servers of the golden test: the page's own,
// another site, and a closed one (connections refused).
type sites struct {
	site, external *httptest.Server
	closedURL      string
}

func startSites(t *testing.T) *sites {
	t.Helper()
	ext := http.NewServeMux()
	ext.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) {})
	ext.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	s := &sites{external: httptest.NewServer(ext)}
	t.Cleanup(s.external.Close)
	closed := httptest.NewServer(http.NotFoundHandler())
	s.closedURL = closed.URL
	closed.Close()

	page, err := os.ReadFile(filepath.Join("testdata", "links.html"))
	if err != nil {
		t.Fatal(err)
	}
	body := strings.NewReplacer("{{external}}", s.external.URL, "{{closed}}", s.closedURL).Replace(string(page))
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	})
	for _, p := range []string{"/ok", "/docs/guide", "/style.css", "/img.png", "/app.js"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {})
	}
	status := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) }
	}
	mux.HandleFunc("/missing", status(http.StatusNotFound))
	mux.HandleFunc("/boom", status(http.StatusInternalServerError))
	mux.HandleFunc("/busy", status(http.StatusTooManyRequests))
	mux.HandleFunc("/head405", headRefused(http.StatusMethodNotAllowed))
	mux.HandleFunc("/head403", headRefused(http.StatusForbidden))
	mux.Handle("/moved", http.RedirectHandler("/ok", http.StatusMovedPermanently))
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(`<a href="/ok">not html</a>`))
	})
	s.site = httptest.NewServer(mux)
	t.Cleanup(s.site.Close)
	return s
}

func headRefused(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(code)
		}
	}
}

// normalize makes a report comparable across runs: loopback hosts named,
// durations zeroed.
func (s *sites) normalize(t *testing.T, rep *linkcheck.Report) []byte {
	t.Helper()
	for i := range rep.Links {
		rep.Links[i].DurationMS = 0
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer(host(s.site.URL), "site.test", host(s.external.URL), "external.test", host(s.closedURL), "closed.test")
	return []byte(r.Replace(buf.String()))
}

func host(raw string) string {
	u, _ := url.Parse(raw)
	return u.Host
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("report differs from %s (run with -update to accept):\n%s", path, got)
	}
}

var fastProbes = linkcheck.Options{Probe: linkcheck.ProbeOptions{HostDelay: -1, Timeout: 5 * time.Second}}

func TestAuditGolden(t *testing.T) {
	t.Parallel()
	s := startSites(t)
	f := newFetcher(t)
	for _, c := range []struct {
		name string
		in   linkcheck.Input
		want map[string]string // URL suffix → result, spot checks beside the golden file
	}{
		{"links", linkcheck.Input{}, map[string]string{
			"/ok": "ok", "/missing": "client_error", "/boom": "server_error", "/head405": "ok", "/head403": "ok",
			"/moved": "ok", "/busy": "rate_limited", "/docs/guide": "ok", "/gone": "client_error",
			"/nothing": "network_error", "/latest/meta-data/": "blocked",
		}},
		{"links_resources", linkcheck.Input{IncludeResources: true}, map[string]string{
			"/style.css": "ok", "/logo.png": "client_error", "/img.png": "ok", "/app.js": "ok",
		}},
		{"links_capped", linkcheck.Input{MaxLinks: 3}, map[string]string{"/ok": "ok", "/missing": "client_error", "/boom": "server_error"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.in.URL = s.site.URL + "/page"
			rep, err := linkcheck.Audit(context.Background(), f, c.in, &fastProbes)
			if err != nil {
				t.Fatal(err)
			}
			results := map[string]string{}
			for _, l := range rep.Links {
				u, _ := url.Parse(l.URL)
				results[u.Path] = l.Result
			}
			for path, want := range c.want {
				if results[path] != want {
					t.Errorf("%s: result %q, want %q", path, results[path], want)
				}
			}
			golden(t, c.name, s.normalize(t, rep))
		})
	}
}

func TestAuditDetails(t *testing.T) {
	t.Parallel()
	s := startSites(t)
	rep, err := linkcheck.Audit(context.Background(), newFetcher(t), linkcheck.Input{URL: s.site.URL + "/page"}, &fastProbes)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]linkcheck.Link{}
	for _, l := range rep.Links {
		u, _ := url.Parse(l.URL)
		byPath[u.Path] = l
	}
	if l := byPath["/head405"]; l.Method != "GET" || l.Fallback != "HEAD answered 405" {
		t.Errorf("/head405: method %q, fallback %q; want GET after HEAD answered 405", l.Method, l.Fallback)
	}
	if l := byPath["/missing"]; l.Method != "HEAD" || !l.Broken || l.StatusCode != 404 || l.DurationMS <= 0 {
		t.Errorf("/missing: %+v", l)
	}
	if l := byPath["/moved"]; l.Redirects != 1 || !strings.HasSuffix(l.FinalURL, "/ok") {
		t.Errorf("/moved: redirects %d, final %q", l.Redirects, l.FinalURL)
	}
	if l := byPath["/latest/meta-data/"]; l.Broken || l.Method != "" || !strings.Contains(l.Error, "metadata") {
		t.Errorf("metadata link: %+v; want blocked, not broken, nothing fetched", l)
	}
	if l := byPath["/ok"]; l.Occurrences != 3 || !l.Internal || l.Text != "OK" {
		t.Errorf("/ok: %+v; want 3 occurrences, internal, text OK", l)
	}
	if l := byPath["/x"]; l.Internal {
		t.Errorf("/x on another port is internal")
	}
	want := linkcheck.Skipped{Mailto: 1, Tel: 1, JavaScript: 1, Fragment: 1, OtherScheme: 1, Invalid: 1}
	if rep.Skipped != want {
		t.Errorf("skipped %+v, want %+v", rep.Skipped, want)
	}
}

func TestAuditNotHTML(t *testing.T) {
	t.Parallel()
	s := startSites(t)
	rep, err := linkcheck.Audit(context.Background(), newFetcher(t), linkcheck.Input{URL: s.site.URL + "/text"}, &fastProbes)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ContentType != "text/plain" || len(rep.Links) != 0 || rep.Counts.Found != 0 {
		t.Errorf("a text page had links read: %+v", rep)
	}
}

func TestAuditInvalidInput(t *testing.T) {
	t.Parallel()
	f := newFetcher(t)
	for _, c := range []struct {
		in    linkcheck.Input
		opts  *linkcheck.Options
		field string
	}{
		{linkcheck.Input{URL: ""}, nil, "url"},
		{linkcheck.Input{URL: "ftp://example.com/"}, nil, "url"},
		{linkcheck.Input{URL: "http://example.com/", MaxLinks: 501}, nil, "max_links"},
		{linkcheck.Input{URL: "http://example.com/", MaxLinks: -1}, nil, "max_links"},
		{linkcheck.Input{URL: "http://example.com/"}, &linkcheck.Options{Probe: linkcheck.ProbeOptions{Workers: 99}}, "options.workers"},
		{linkcheck.Input{URL: "http://example.com/"}, &linkcheck.Options{Probe: linkcheck.ProbeOptions{PerHost: -1}}, "options.per_host"},
		{linkcheck.Input{URL: "http://example.com/"}, &linkcheck.Options{Probe: linkcheck.ProbeOptions{Timeout: time.Hour}}, "options.timeout"},
	} {
		_, err := linkcheck.Audit(context.Background(), f, c.in, c.opts)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: error %v (field %q), want invalid %q", c.in, err, errs.FieldOf(err), c.field)
		}
	}
}

// TestProbePoliteness checks that at most PerHost probes reach one host at
// once and that their starts are HostDelay apart.
func TestProbePoliteness(t *testing.T) {
	t.Parallel()
	var (
		mu             sync.Mutex
		inFlight, peak int
		starts         []time.Time
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		starts = append(starts, time.Now())
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
	}))
	defer srv.Close()
	var urls []string
	for i := range 8 {
		urls = append(urls, srv.URL+"/p"+string(rune('a'+i)))
	}
	const delay = 30 * time.Millisecond
	got, err := linkcheck.Probe(context.Background(), newFetcher(t), urls, &linkcheck.ProbeOptions{Workers: 8, PerHost: 2, HostDelay: delay})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range got {
		if st.Result != linkcheck.ResultOK {
			t.Errorf("%s: %s %s", urls[i], st.Result, st.Error)
		}
	}
	if peak > 2 {
		t.Errorf("%d requests in flight to one host, want at most 2", peak)
	}
	// The token bucket spaces the starts on the client; the server sees
	// them with some scheduling jitter, so the span is checked, and each
	// gap loosely.
	if span, want := starts[len(starts)-1].Sub(starts[0]), time.Duration(len(starts)-1)*delay-10*time.Millisecond; span < want {
		t.Errorf("%d requests started within %s, want at least %s", len(starts), span, want)
	}
	// The n-th start comes at least n delays after the first: a request
	// the scheduler held back may arrive just before the next one, so two
	// neighbours can be close, but none can come early.
	for i := 1; i < len(starts); i++ {
		if at, want := starts[i].Sub(starts[0]), time.Duration(i)*delay-10*time.Millisecond; at < want {
			t.Errorf("request %d started %s after the first, want at least %s", i, at, want)
		}
	}
}

func TestProbeBudgetAndCancel(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	urls := make([]string, 10)
	for i := range urls {
		urls[i] = srv.URL + "/"
	}
	f := newFetcher(t)
	got, err := linkcheck.Probe(context.Background(), f, urls, &linkcheck.ProbeOptions{HostDelay: 100 * time.Millisecond, Budget: 250 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var ok, unchecked int
	for i, st := range got {
		switch st.Result {
		case linkcheck.ResultOK:
			ok++
		case linkcheck.ResultUnchecked:
			unchecked++
		default:
			t.Errorf("%s: %s %s", urls[i], st.Result, st.Error)
		}
	}
	if ok == 0 || unchecked == 0 {
		t.Errorf("%d ok, %d unchecked; want some of each within the budget", ok, unchecked)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := linkcheck.Probe(ctx, f, urls, nil); err != context.Canceled {
		t.Errorf("cancelled probe: error %v, want context.Canceled", err)
	}
	got, err = linkcheck.Probe(context.Background(), f, []string{"mailto:x@y.z", "/relative"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range got {
		if st.Result != linkcheck.ResultInvalidURL || !st.Broken {
			t.Errorf("#%d: %s, want a broken invalid_url", i, st.Result)
		}
	}
	if _, err := linkcheck.Probe(context.Background(), f, make([]string, linkcheck.MaxProbeURLs+1), nil); errs.FieldOf(err) != "urls" {
		t.Errorf("too many URLs: %v", err)
	}
}
