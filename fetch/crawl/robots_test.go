package crawl

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
)

// The crawl applies robots.txt as package robots reads it: statuses (RFC
// 9309 §2.3.1), redirects (at most five), and Google's reading of a file.
func TestCrawlRobotsOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int
		hops    int    // redirects before the answer
		body    string // robots.txt answered after them
		private bool   // /private/ pages are crawled
		pages   bool   // /page/ pages are crawled
	}{
		{"200 rules", 200, 0, defaultRobots, false, true},
		{"404 allows all", 404, 0, defaultRobots, true, true},
		{"503 disallows all", 503, 0, "", false, false},
		{"429 disallows all", 429, 0, "", false, false},
		{"redirects followed", 200, 2, defaultRobots, false, true},
		{"too many redirects allow all", 200, 7, defaultRobots, true, true},
		{"a rule before any user-agent is ignored, not the file", 200, 0, "Disallow: /\n" + defaultRobots, false, true},
		{"misspelt disallow", 200, 0, "User-agent: *\nDissallow: /private/\n", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			site := newTestSite(t, 30, func(s *testSite) {
				answer := func(w http.ResponseWriter, r *http.Request, hop int) {
					if hop < tt.hops {
						http.Redirect(w, r, "/hop/"+strconv.Itoa(hop+1), http.StatusFound)
						return
					}
					w.WriteHeader(tt.status)
					fmt.Fprint(w, tt.body)
				}
				s.extra["/robots.txt"] = func(w http.ResponseWriter, r *http.Request) { answer(w, r, 0) }
				for i := 1; i <= tt.hops; i++ {
					s.extra["/hop/"+strconv.Itoa(i)] = func(w http.ResponseWriter, r *http.Request) { answer(w, r, i) }
				}
			})
			_, err := Crawl(context.Background(), loopbackFetcher(t), Request{Seeds: []string{pageURL(site, 0)}, MaxDepth: 10},
				&Options{Unthrottled: true})
			if err != nil {
				t.Fatal(err)
			}
			private, pages := site.hitsUnder("/private/") > 0, site.hitsUnder("/page/") > 0
			if private != tt.private || pages != tt.pages {
				t.Errorf("private crawled %v, pages crawled %v; want %v and %v", private, pages, tt.private, tt.pages)
			}
			if got := site.hitsOf("/robots.txt"); got != 1 {
				t.Errorf("robots.txt requested %d times", got)
			}
		})
	}
}
