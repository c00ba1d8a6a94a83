package main

import (
	"encoding/json"
	"testing"

	"github.com/webinfra/webinfra/fetch"
)

func TestScrapeCLI(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	allow := "--allow-private-networks"
	cases := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr []string
	}{
		{"markdown", []string{"scrape", allow, site + "/"}, 0, []string{"# Herons of the marsh", "## Why they came back", "[Nesting](" + site + "/nesting)"}, nil},
		{"text", []string{"scrape", allow, "--format", "text", "--main-content-only", site + "/"}, 0, []string{"Herons are patient hunters"}, nil},
		{"links", []string{"scrape", allow, "--format", "links", site + "/"}, 0, []string{site + "/nesting\n" + site + "/contact\n" + site + "/missing\n"}, nil},
		{"an error page is printed, and fails", []string{"scrape", allow, site + "/missing"}, 1, []string{"404 page not found"}, []string{site + "/missing answered HTTP 404 Not Found"}},
		{"unreachable", []string{"scrape", allow, unreachable(t)}, 1, nil, []string{"webinfra:", "connection refused"}},
		{"loopback refused without the flag", []string{"scrape", site + "/"}, 1, nil, []string{"webinfra:", "127.0.0.1"}},
		{"loopback let through by network", []string{"scrape", "--allow-networks", "127.0.0.1", site + "/nesting"}, 0, []string{"# Nesting season"}, nil},
		{"bad network", []string{"scrape", "--allow-networks", "10.0.0.0/99", site + "/"}, 2, nil, []string{"--allow-networks: "}},
		{"not an http URL", []string{"scrape", allow, "ftp://example.com/file"}, 2, nil, []string{"URL: ", "http or https"}},
		{"unknown format", []string{"scrape", allow, "--format", "pdf", site + "/"}, 2, nil, []string{`--format: unknown format "pdf"`}},
		{"unknown tier", []string{"scrape", allow, "--tier", "teleport", site + "/"}, 2, nil, []string{"--tier:", "teleport"}},
		{"bad header", []string{"scrape", allow, "-H", "no colon", site + "/"}, 2, nil, []string{`--header "no colon"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runCLI(t, "", tc.args...).want(t, tc.code, tc.stdout, tc.stderr)
		})
	}
}

// --json prints the result as POST /v1/scrape answers it.
func TestScrapeCLIJSON(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	run := runCLI(t, "", "scrape", "--allow-private-networks", "--json", "--format", "text", "-H", "X-Test: yes", site+"/")
	run.want(t, 0, []string{`"status_code": 200`}, nil)
	var res fetch.ScrapeResult
	if err := json.Unmarshal([]byte(run.stdout), &res); err != nil {
		t.Fatalf("not a scrape result: %v\n%s", err, run.stdout)
	}
	if res.URL != site+"/" || res.StatusCode != 200 || res.TierUsed != fetch.TierDirect || res.Text == "" || res.Markdown != "" {
		t.Errorf("result %+v", res)
	}
}

func TestLlmReadyCLI(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	allow := "--allow-private-networks"
	cases := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr []string
	}{
		{"chunks", []string{"llm-ready", allow, "--chunk-size", "48", site + "/"}, 0,
			[]string{"Herons of the marsh: ", "chunks of at most 48 tokens", "from the article", "\n\n[1] 4", "\n\n[2] Why they came back · "}, nil},
		{"unreachable", []string{"llm-ready", allow, unreachable(t)}, 1, nil, []string{"connection refused"}},
		{"chunk size out of range", []string{"llm-ready", allow, "--chunk-size", "5", site + "/"}, 2, nil, []string{"--chunk-size:"}},
		{"unknown mode", []string{"llm-ready", allow, "--mode", "slow", site + "/"}, 2, nil, []string{"--mode:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runCLI(t, "", tc.args...).want(t, tc.code, tc.stdout, tc.stderr)
		})
	}

	run := runCLI(t, "", "llm-ready", allow, "--json", "--include-source", site+"/")
	run.want(t, 0, []string{`"chunks": [`}, nil)
	var res fetch.LlmReadyResult
	if err := json.Unmarshal([]byte(run.stdout), &res); err != nil {
		t.Fatalf("not an llm-ready result: %v\n%s", err, run.stdout)
	}
	if res.Title != "Herons of the marsh" || len(res.Chunks) == 0 || res.Source != articlePage || res.ContentSource != "article" {
		t.Errorf("result: title %q, %d chunks, source %d bytes, content source %q", res.Title, len(res.Chunks), len(res.Source), res.ContentSource)
	}
	for _, ch := range res.Chunks {
		if ch.Start < 0 || ch.End > len(res.Source) || ch.Start >= ch.End {
			t.Errorf("chunk %d: bytes %d-%d of %d", ch.Index, ch.Start, ch.End, len(res.Source))
		}
	}
}
