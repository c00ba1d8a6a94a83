package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webinfra/webinfra/errs"
)

// robotsSite serves robots.txt with the given status and body, counts
// robots.txt fetches, and answers every other path with a page.
func robotsSite(t *testing.T, status int, robots string) (string, *atomic.Int32) {
	t.Helper()
	var fetches atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fetches.Add(1)
			w.WriteHeader(status)
			io.WriteString(w, robots)
			return
		}
		io.WriteString(w, "<p>page</p>")
	})
	return srv.URL, &fetches
}

func TestScrapeRespectRobots(t *testing.T) {
	t.Parallel()
	const generic = "User-agent: *\nDisallow: /private\nDisallow: /search?q=\n"
	const specific = "User-agent: webinfra\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
	tests := []struct {
		name      string
		status    int
		robots    string
		userAgent string
		path      string
		want      string // "" = allowed, else a fragment of the refusal
	}{
		{"allowed path", 200, generic, "", "/public", ""},
		{"disallowed path", 200, generic, "", "/private/x", "disallowed by robots.txt"},
		{"the deciding rule is named", 200, generic, "", "/private/x", "(line 2: disallow: /private)"},
		{"longest match, allow wins a tie", 200, "User-agent: *\nDisallow: /\nAllow: /\nDisallow: /a/*.pdf$\n", "", "/a/b.pdf", "line 4"},
		{"longest match allows", 200, "User-agent: *\nDisallow: /\nAllow: /\nDisallow: /a/*.pdf$\n", "", "/a/b.pdf?x", ""},
		{"disallowed query", 200, generic, "", "/search?q=herons", "disallowed by robots.txt"},
		{"our group disallows all", 200, specific, "", "/anything", `for user agent "webinfra"`},
		{"another agent is allowed", 200, specific, "otherbot/2.0 (+https://other.example)", "/anything", ""},
		{"404 robots allows all", 404, "", "", "/private", ""},
		{"503 robots disallows all", 503, "", "", "/public", "HTTP 503"},
		{"429 robots disallows all", 429, "", "", "/public", "HTTP 429"},
		{"unparsable robots allows all", 200, "\x00\x01garbage: ::\n", "", "/public", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			site, _ := robotsSite(t, tt.status, tt.robots)
			f := privateFetcher(t, Options{UserAgent: tt.userAgent})
			res, err := f.Scrape(context.Background(), ScrapeRequest{URL: site + tt.path, RespectRobots: true})
			if tt.want == "" {
				if err != nil || res.Markdown != "page" {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantErr(t, err, errs.KindForbidden, tt.want)
			// Without respect_robots the page is fetched.
			if _, err := f.Scrape(context.Background(), ScrapeRequest{URL: site + tt.path}); err != nil {
				t.Fatalf("without respect_robots: %v", err)
			}
		})
	}
}

func TestRobotsCachedPerOrigin(t *testing.T) {
	t.Parallel()
	site, fetches := robotsSite(t, 200, "User-agent: *\nDisallow: /private\n")
	clock := newFakeClock()
	f := privateFetcher(t, Options{Now: clock.Now})
	for _, p := range []string{"/a", "/b", "/private"} {
		f.Scrape(context.Background(), ScrapeRequest{URL: site + p, RespectRobots: true})
	}
	if fetches.Load() != 1 {
		t.Fatalf("robots.txt fetched %d times, want once", fetches.Load())
	}
	clock.Advance(robotsTTL + time.Second)
	f.Scrape(context.Background(), ScrapeRequest{URL: site + "/a", RespectRobots: true})
	if fetches.Load() != 2 {
		t.Fatalf("robots.txt fetched %d times after its TTL, want twice", fetches.Load())
	}
}

func TestRobotsThroughGuard(t *testing.T) {
	t.Parallel()
	site, fetches := robotsSite(t, 200, "")
	f, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Scrape(context.Background(), ScrapeRequest{URL: site + "/", RespectRobots: true})
	assertRefused(t, err, "loopback address")
	if fetches.Load() != 0 {
		t.Fatal("robots.txt fetched past the guard")
	}
}

func TestRobotsAgent(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]string{
		DefaultUserAgent:                   "webinfra",
		"MyBot/2.0 (+https://example.com)": "mybot",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": "googlebot",
		"plain":                               "plain",
		"Mozilla/5.0 (COMPATIBLE; Tabbot\t1)": "tabbot",
		"":                                    "*",
	} {
		if got := RobotsAgent(ua); got != want {
			t.Errorf("RobotsAgent(%q) = %q, want %q", ua, got, want)
		}
	}
}

// robots.txt redirects are followed up to robots.MaxRedirects; a file
// still redirecting after them is unavailable, so everything is allowed
// (RFC 9309 §2.3.1.2).
func TestRobotsRedirects(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		hops int
		want string // "" = allowed, else a fragment of the refusal
	}{
		{1, "line 2: disallow: /"},
		{5, "line 2: disallow: /"},
		{6, ""},
		{20, ""},
	} {
		t.Run(fmt.Sprint(tt.hops), func(t *testing.T) {
			t.Parallel()
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/robots.txt" || strings.HasPrefix(r.URL.Path, "/hop/"):
					n := 0
					fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/hop/"), "%d", &n)
					if n < tt.hops {
						http.Redirect(w, r, fmt.Sprintf("/hop/%d", n+1), http.StatusFound)
						return
					}
					io.WriteString(w, "User-agent: *\nDisallow: /\n")
				default:
					io.WriteString(w, "<p>page</p>")
				}
			})
			f := privateFetcher(t, Options{})
			_, err := f.Scrape(context.Background(), ScrapeRequest{URL: srv.URL + "/page", RespectRobots: true})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantErr(t, err, errs.KindForbidden, tt.want)
		})
	}
}
