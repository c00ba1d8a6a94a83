package fetchsim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/aeo/fetchsim"
	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

var update = flag.Bool("update", false, "rewrite the golden .json files under testdata")

const article = `<!doctype html><html><head><title>Widgets</title><script src="/analytics.js"></script></head><body>
<header><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav></header>
<main><h1>How widgets work</h1>
<p>A widget turns a stream of events into a short summary that people and programs can read. Each widget keeps a window of
recent events, counts them by kind, and reports the counts every minute.</p>
<p>Widgets are configured with a small file that names the event kinds to count and the length of the window. The
defaults suit most sites: five minutes, every kind.</p>
<p>To install a widget, copy the file into your project, add the script tag to your pages, and reload. The summary
appears in the dashboard within a minute.</p>
<p>Updated %s.</p></main></body></html>`

const cloaked = `<!doctype html><html><body><main><h1>Special offer for robots</h1>
<p>Buy premium robot oil now and save forty percent on every litre, only for crawlers that visit today.</p></main></body></html>`

const spa = `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<script src="/static/app.js"></script><script type="application/json" id="data">{"a":1}</script></body></html>`

const challenge = `<!doctype html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>`

// handler answers by path and User-Agent: /normal the same page to all;
// /site a different answer to several agents; /spa a JavaScript shell;
// /walled 403 to everyone.
func handler(t *testing.T) http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, date string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, article, date)
	}
	mux.HandleFunc("/normal", func(w http.ResponseWriter, r *http.Request) { page(w, "2025-01-01") })
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) { page(w, "2025-01-01") })
	mux.HandleFunc("/site", func(w http.ResponseWriter, r *http.Request) {
		ua := r.UserAgent()
		switch {
		case strings.Contains(ua, "GPTBot"):
			http.Error(w, "Forbidden", http.StatusForbidden)
		case strings.Contains(ua, "CCBot"):
			http.Error(w, "Slow down", http.StatusTooManyRequests)
		case strings.Contains(ua, "Bytespider"):
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(challenge))
		case strings.Contains(ua, "ClaudeBot"):
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(cloaked))
		case strings.Contains(ua, "PerplexityBot"):
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case strings.Contains(ua, "Amazonbot"):
			http.NotFound(w, r)
		case strings.Contains(ua, "meta-externalagent"):
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			conn.Close()
		case strings.Contains(ua, "ChatGPT-User"):
			page(w, "2025-06-30") // a changed date is not cloaking
		default:
			page(w, "2025-01-01")
		}
	})
	mux.HandleFunc("/thin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(spa))
	})
	mux.HandleFunc("/spa", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(spa))
	})
	mux.HandleFunc("/partial", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><div id=app><p>%s</p></div><script src=/app.js></script></body></html>", strings.Repeat("Teaser words for the widget story. ", 11))
	})
	mux.HandleFunc("/walled", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "Forbidden", http.StatusForbidden) })
	return mux
}

// renderer is a stand-in browser: it renders any page into the article.
type renderer struct{}

func (renderer) Render(ctx context.Context, req fetch.RenderRequest) (*fetch.RenderResult, error) {
	if err := req.CheckTarget(ctx, req.URL); err != nil {
		return nil, err
	}
	page := fmt.Sprintf(article, "2025-01-01")
	switch {
	case strings.HasSuffix(req.URL, "/partial"):
		page = strings.Repeat(page, 3)
	case strings.HasSuffix(req.URL, "/thin"):
		page = spa
	}
	return &fetch.RenderResult{FinalURL: req.URL, StatusCode: 200, HTML: []byte(page)}, nil
}

func TestSimulateGolden(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(handler(t))
	t.Cleanup(srv.Close)
	plain, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	rendering, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true, Renderer: renderer{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		f         *fetch.Fetcher
		in        fetchsim.Input
		codes     []string
		blocked   []string
		cloaking  []string
		jsOnly    bool
		renderNot string
	}{
		{"normal", plain, fetchsim.Input{URL: "/normal"}, nil, nil, nil, false, ""},
		{"site", plain, fetchsim.Input{URL: "/site"}, []string{"agent_blocked", "cloaking"},
			[]string{"GPTBot", "CCBot", "Bytespider", "Amazonbot", "Meta-ExternalAgent"}, []string{"ClaudeBot", "PerplexityBot"}, false, ""},
		{"spa", plain, fetchsim.Input{URL: "/spa", Agents: []string{"gptbot", "ClaudeBot"}, CompareRender: true}, []string{"js_only"}, nil, nil, true, "no browser"},
		{"spa_rendered", rendering, fetchsim.Input{URL: "/spa", Agents: []string{"GPTBot"}, CompareRender: true}, []string{"js_only"}, nil, nil, true, ""},
		{"partial", rendering, fetchsim.Input{URL: "/partial", Agents: []string{"GPTBot"}, CompareRender: true}, []string{"js_dependent_content"}, nil, nil, false, ""},
		{"thin", rendering, fetchsim.Input{URL: "/thin", Agents: []string{"GPTBot"}, CompareRender: true}, nil, nil, nil, false, "thin, not JavaScript-only"},
		{"down", plain, fetchsim.Input{URL: "http://127.0.0.1:1/", Agents: []string{"GPTBot"}}, []string{"baseline_failed"}, nil, nil, false, ""},
		{"walled", plain, fetchsim.Input{URL: "/walled", Agents: []string{"GPTBot", "ClaudeBot"}}, []string{"agent_blocked", "baseline_blocked"},
			[]string{"GPTBot", "ClaudeBot"}, nil, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if strings.HasPrefix(c.in.URL, "/") {
				c.in.URL = srv.URL + c.in.URL
			}
			rep, err := fetchsim.Simulate(context.Background(), c.f, c.in, nil)
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, f := range rep.Findings {
				if !slices.Contains(codes, f.Code) {
					codes = append(codes, f.Code)
				}
			}
			slices.Sort(codes)
			if !slices.Equal(codes, c.codes) || !slices.Equal(rep.Blocked, nilIfEmpty(c.blocked)) ||
				!slices.Equal(rep.Cloaking, nilIfEmpty(c.cloaking)) || rep.JSOnly.Detected != c.jsOnly ||
				!strings.Contains(rep.JSOnly.RenderNote, c.renderNot) {
				t.Errorf("codes %q blocked %q cloaking %q js-only %v (%q); want %q %q %q %v (%q)",
					codes, rep.Blocked, rep.Cloaking, rep.JSOnly.Detected, rep.JSOnly.RenderNote,
					c.codes, c.blocked, c.cloaking, c.jsOnly, c.renderNot)
			}
			golden(t, c.name, normalize(t, srv, rep))
		})
	}
}

func nilIfEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func normalize(t *testing.T, srv *httptest.Server, rep *fetchsim.Report) []byte {
	t.Helper()
	rep.Baseline.DurationMS = 0
	for i := range rep.Agents {
		rep.Agents[i].DurationMS = 0
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
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
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

func TestSimulateDetails(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(handler(t))
	defer srv.Close()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := fetchsim.Simulate(context.Background(), f, fetchsim.Input{URL: srv.URL + "/site"}, &fetchsim.Options{Parallelism: 13})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Agents) != 11 || rep.Baseline.StatusCode != 200 || rep.Baseline.Words < 80 || rep.Baseline.DurationMS <= 0 {
		t.Fatalf("baseline %+v, %d agents", rep.Baseline, len(rep.Agents))
	}
	by := map[string]fetchsim.AgentResult{}
	for _, a := range rep.Agents {
		by[a.Name] = a
	}
	if a := by["ChatGPT-User"]; a.Cloaking || a.Similarity == nil || *a.Similarity < 0.9 {
		t.Errorf("ChatGPT-User (a changed date): cloaking %v, similarity %v", a.Cloaking, a.Similarity)
	}
	if a := by["ClaudeBot"]; a.Similarity == nil || *a.Similarity > 0.1 {
		t.Errorf("ClaudeBot (another page): similarity %v", a.Similarity)
	}
	if a := by["Bytespider"]; !strings.Contains(a.BlockReason, "Just a moment") {
		t.Errorf("Bytespider: block reason %q, want fetch's challenge detection", a.BlockReason)
	}
	if a := by["GPTBot"]; a.Token != "GPTBot" || a.Operator != "OpenAI" || !strings.Contains(a.UserAgent, "GPTBot/1.1") {
		t.Errorf("GPTBot's record: %+v", a.Agent)
	}
	if p := rep.Baseline.TextPreview; len([]rune(p)) > fetchsim.PreviewRunes || !strings.HasPrefix(p, "Home Docs How widgets work") {
		t.Errorf("preview %q", p)
	}
}

func TestSimulateInvalid(t *testing.T) {
	t.Parallel()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in    fetchsim.Input
		opts  *fetchsim.Options
		field string
		kind  errs.Kind
	}{
		{fetchsim.Input{}, nil, "url", errs.KindInvalid},
		{fetchsim.Input{URL: "ftp://example.com/"}, nil, "url", errs.KindInvalid},
		{fetchsim.Input{URL: "http://example.com/", Agents: []string{"Googlebot"}}, nil, "agents", errs.KindInvalid},
		{fetchsim.Input{URL: "http://example.com/", Agents: []string{"GPTBot", "gptbot"}}, nil, "agents", errs.KindInvalid},
		{fetchsim.Input{URL: "http://example.com/", TimeoutMS: 60_001}, nil, "timeout_ms", errs.KindInvalid},
		{fetchsim.Input{URL: "http://example.com/"}, &fetchsim.Options{Parallelism: 14}, "options.parallelism", errs.KindInvalid},
		{fetchsim.Input{URL: "http://169.254.169.254/latest/"}, nil, "", errs.KindForbidden},
	} {
		_, err := fetchsim.Simulate(context.Background(), f, c.in, c.opts)
		if !errs.Is(err, c.kind) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v (field %q), want %s %q", c.in, err, errs.FieldOf(err), c.kind, c.field)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fetchsim.Simulate(ctx, f, fetchsim.Input{URL: "http://127.0.0.1:1/"}, nil); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

func TestAgentsAreElevenAndKnown(t *testing.T) {
	t.Parallel()
	if len(fetchsim.Agents) != 11 {
		t.Errorf("%d agents, want 11", len(fetchsim.Agents))
	}
	for _, a := range fetchsim.Agents {
		if a.Token == "" || !strings.Contains(strings.ToLower(a.UserAgent), strings.ToLower(a.Token)) {
			t.Errorf("%s: token %q not in its user agent %q", a.Name, a.Token, a.UserAgent)
		}
	}
}
