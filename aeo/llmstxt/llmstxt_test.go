package llmstxt_test

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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/aeo/llmstxt"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/seo/linkcheck"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

// site serves one llms.txt (file under testdata, or inline body) with a
// media type, and optionally llms-full.txt, plus the pages the fixtures
// link to.
type site struct {
	file, body, contentType string
	status                  int
	full                    bool
}

func (c site) start(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/llms.txt", func(w http.ResponseWriter, r *http.Request) {
		body := c.body
		if c.file != "" {
			raw, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Error(err)
			}
			body = strings.ReplaceAll(string(raw), "{{site}}", srv.URL)
		}
		w.Header().Set("Content-Type", c.contentType)
		if c.status != 0 {
			w.WriteHeader(c.status)
		}
		_, _ = w.Write([]byte(body))
	})
	if c.full {
		mux.HandleFunc("/llms-full.txt", func(w http.ResponseWriter, r *http.Request) {})
	}
	for _, p := range []string{"/docs/quickstart.md", "/docs/api.md", "/docs/widgets.md", "/examples/cli.md", "/changelog.md", "/docs/relative.md"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {})
	}
	mux.HandleFunc("/docs/boom.md", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func newFetcher(t *testing.T) *fetch.Fetcher {
	t.Helper()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

var fast = &llmstxt.Options{Probe: linkcheck.ProbeOptions{HostDelay: -1, Timeout: 5 * time.Second}}

func TestAuditGolden(t *testing.T) {
	t.Parallel()
	f := newFetcher(t)
	for _, c := range []struct {
		name  string
		site  site
		in    llmstxt.Input
		score int
		codes []string
	}{
		{"good", site{file: "good.txt", contentType: "text/markdown; charset=utf-8", full: true}, llmstxt.Input{}, 100, nil},
		{"problems", site{file: "problems.txt", contentType: "text/plain"}, llmstxt.Input{}, 32, []string{
			"blocked_link", "broken_link", "content_before_h1", "deep_heading", "duplicate_link", "duplicate_section",
			"empty_link_name", "empty_section", "invalid_url", "malformed_link", "missing_summary", "multiple_h1",
			"no_llms_full_txt", "relative_url", "text_in_section"}},
		{"capped", site{file: "good.txt", contentType: "text/plain", full: true}, llmstxt.Input{MaxLinks: 2}, 100, nil},
		{"skip_links", site{file: "problems.txt", contentType: "text/plain", full: true}, llmstxt.Input{SkipLinkCheck: true}, 42, []string{
			"content_before_h1", "deep_heading", "duplicate_link", "duplicate_section", "empty_link_name", "empty_section",
			"invalid_url", "malformed_link", "missing_summary", "multiple_h1", "relative_url", "text_in_section"}},
		{"no_h1", site{body: "Just some text.\n\n- [a](https://example.invalid/a)\n", contentType: "text/plain", full: true}, llmstxt.Input{}, 45, []string{"content_before_h1", "missing_h1"}},
		{"wrong_type", site{body: "# Name\n\n> Summary.\n\n## Docs\n\n- [A](/docs/api.md)\n", contentType: "application/octet-stream", full: true}, llmstxt.Input{}, 89, []string{"relative_url", "wrong_content_type"}},
		{"html_served", site{body: "<!DOCTYPE html><html><body><div id=root></div></body></html>", contentType: "text/html"}, llmstxt.Input{}, 0, []string{"html_served", "no_llms_full_txt"}},
		{"empty", site{body: "\n\n", contentType: "text/plain", full: true}, llmstxt.Input{}, 0, []string{"empty_file"}},
		{"not_found", site{body: "no", contentType: "text/plain", status: 404}, llmstxt.Input{}, 0, []string{"not_found"}},
		{"server_error", site{body: "oops", contentType: "text/plain", status: 503}, llmstxt.Input{}, 0, []string{"not_available"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := c.site.start(t)
			c.in.URL = srv.URL + "/some/page?x=1"
			rep, err := llmstxt.Audit(context.Background(), f, c.in, fast)
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, p := range rep.Problems {
				if !slices.Contains(codes, p.Code) {
					codes = append(codes, p.Code)
				}
			}
			slices.Sort(codes)
			if rep.Score != c.score || !slices.Equal(codes, c.codes) {
				t.Errorf("score %d, codes %q; want %d, %q", rep.Score, codes, c.score, c.codes)
			}
			golden(t, c.name, normalize(t, srv, rep))
		})
	}
}

func normalize(t *testing.T, srv *httptest.Server, rep *llmstxt.Report) []byte {
	t.Helper()
	for _, l := range rep.Links {
		if l.Check != nil {
			l.Check.DurationMS = 0
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.URL)
	return []byte(strings.ReplaceAll(buf.String(), u.Host, "site.test"))
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

func TestAuditDetails(t *testing.T) {
	t.Parallel()
	srv := site{file: "problems.txt", contentType: "text/plain"}.start(t)
	rep, err := llmstxt.Audit(context.Background(), newFetcher(t), llmstxt.Input{URL: srv.URL}, fast)
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, p := range rep.Problems {
		if _, ok := lines[p.Code]; !ok {
			lines[p.Code] = p.Line
		}
	}
	for code, want := range map[string]int{"content_before_h1": 1, "missing_summary": 2, "broken_link": 9, "blocked_link": 11,
		"relative_url": 12, "invalid_url": 13, "duplicate_link": 14, "empty_link_name": 15, "malformed_link": 16,
		"text_in_section": 17, "deep_heading": 19, "empty_section": 21, "duplicate_section": 23, "multiple_h1": 25} {
		if lines[code] != want {
			t.Errorf("%s on line %d, want %d", code, lines[code], want)
		}
	}
	if rep.LinkCheck != (llmstxt.LinkCheck{Distinct: 6, Checked: 6, OK: 3, Broken: 2, Blocked: 1}) {
		// ok: quickstart, relative, api; broken: missing, boom; blocked: metadata
		t.Errorf("link check %+v", rep.LinkCheck)
	}
	var sections []string
	for _, s := range rep.Sections {
		sections = append(sections, s.Title)
	}
	if !slices.Equal(sections, []string{"Docs", "Empty", "Docs"}) || rep.Sections[0].Links != 7 {
		t.Errorf("sections %q (%+v)", sections, rep.Sections)
	}
}

func TestTargets(t *testing.T) {
	t.Parallel()
	srv := site{file: "good.txt", contentType: "text/plain", full: true}.start(t)
	f := newFetcher(t)
	for _, in := range []string{srv.URL, srv.URL + "/", srv.URL + "/deep/page.html", strings.TrimPrefix(srv.URL, "http://") + "/llms.txt"} {
		if !strings.Contains(in, "://") {
			continue // https:// is assumed for a bare domain; the loopback server is plain HTTP
		}
		rep, err := llmstxt.Audit(context.Background(), f, llmstxt.Input{URL: in, SkipLinkCheck: true}, fast)
		if err != nil {
			t.Fatal(err)
		}
		if rep.URL != srv.URL+"/llms.txt" || rep.FullText.URL != srv.URL+"/llms-full.txt" || !rep.FullText.Present {
			t.Errorf("%s: audited %s (full %+v)", in, rep.URL, rep.FullText)
		}
	}
	for _, c := range []struct {
		in    llmstxt.Input
		field string
	}{
		{llmstxt.Input{URL: " "}, "url"},
		{llmstxt.Input{URL: "ftp://example.com/"}, "url"},
		{llmstxt.Input{URL: "https://user:pw@example.com/"}, "url"},
		{llmstxt.Input{URL: "example.com", MaxLinks: 51}, "max_links"},
		{llmstxt.Input{URL: "example.com", MaxLinks: -1}, "max_links"},
	} {
		_, err := llmstxt.Audit(context.Background(), f, c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v, want invalid %q", c.in, err, c.field)
		}
	}
}
