package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/fetch/crawl"
)

// A crawl lists one line per page, sorted as the result is, and a
// summary. stderr is not a terminal here: no progress bar, stderr stays
// empty.
func TestCrawlCLI(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	run := runCLI(t, "", "crawl", "--allow-private-networks", "--rate-per-host", "100", site+"/")
	run.want(t, 0, []string{"4 pages: "}, nil)
	lines := strings.Split(strings.TrimSuffix(run.stdout, "\n"), "\n")
	want := []string{
		`^200  ` + site + `/\s+Herons of the marsh$`,
		`^200  ` + site + `/contact\s+Contact the heron society$`,
		`^404  ` + site + `/missing$`,
		`^200  ` + site + `/nesting\s+Nesting season$`,
		`^4 pages: 3 crawled, 1 failed, 1 skipped by robots.txt$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), run.stdout)
	}
	for i, w := range want {
		if !regexp.MustCompile(w).MatchString(strings.TrimRight(lines[i], " ")) {
			t.Errorf("line %d = %q, want %s", i, lines[i], w)
		}
	}
}

func TestCrawlCLIJSON(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	run := runCLI(t, "", "crawl", "--allow-private-networks", "--json", "--max-pages", "2", "--format", "full", site+"/")
	run.want(t, 0, []string{`"truncated": true`}, nil)
	var res crawl.Result
	if err := json.Unmarshal([]byte(run.stdout), &res); err != nil {
		t.Fatalf("not a crawl result: %v\n%s", err, run.stdout)
	}
	if len(res.Pages) != 2 || res.Crawled+res.Failed != 2 || !res.Truncated {
		t.Fatalf("result %+v", res)
	}
	if home := res.Pages[0]; home.URL != site+"/" || home.Title != "Herons of the marsh" || home.HTML != articlePage || !strings.Contains(home.Markdown, "# Herons of the marsh") {
		t.Errorf("home page %+v", home)
	}
}

func TestCrawlCLIErrors(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"unreachable", []string{"crawl", "--allow-private-networks", unreachable(t)}, 1, []string{"webinfra: ", "no page could be fetched", "connection refused"}},
		{"loopback refused without the flag", []string{"crawl", site + "/"}, 1, []string{"webinfra: ", "cannot be crawled"}},
		{"too many pages", []string{"crawl", "--allow-private-networks", "--max-pages", "20000", site + "/"}, 2, []string{"--max-pages: must be at most 10000"}},
		{"bad pattern", []string{"crawl", "--allow-private-networks", "--include", "(", site + "/"}, 2, []string{"--include: "}},
		{"not an http URL", []string{"crawl", "mailto:herons@example.org"}, 2, []string{"URL: scheme must be http or https"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runCLI(t, "", tc.args...).want(t, tc.code, nil, tc.stderr)
		})
	}
}

// The bar, drawn on a writer: pages done of the budget, queued, failed and
// the rate; erased at the end.
func TestCrawlProgressBar(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	bar := newCrawlProgress(&buf, 10, 0)
	bar.update(crawl.Progress{Done: 4, Queued: 3, Failed: 1})
	drawn := buf.String()
	for _, want := range []string{"crawl: 3 queued, 1 failed", "(4/10, ", "pages/", "40%"} {
		if !strings.Contains(drawn, want) {
			t.Errorf("bar %q lacks %q", drawn, want)
		}
	}
	buf.Reset()
	bar.finish()
	if erased := buf.String(); !strings.HasPrefix(erased, "\r") || strings.TrimSpace(erased) != "" {
		t.Errorf("finish wrote %q, want the line blanked", erased)
	}
}
