package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The CLI tests run the built binary, as a person or a script would, on
// loopback pages: never the internet.

// webinfraBinary returns the command, built once per test run.
func webinfraBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// cliRun is one run of the binary.
type cliRun struct {
	stdout, stderr string
	code           int
}

// runCLI runs the binary with args and stdin, with no WEBINFRA_*
// variable set, and returns what it printed and its exit status.
func runCLI(t *testing.T, stdin string, args ...string) cliRun {
	t.Helper()
	cmd := exec.Command(webinfraBinary(t), args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WEBINFRA_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("webinfra %s: %v", strings.Join(args, " "), err)
	}
	return cliRun{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
}

// want checks the exit status and that stdout and stderr contain the
// given strings (an empty list: that the stream is empty).
func (r cliRun) want(t *testing.T, code int, stdout, stderr []string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range []struct {
		name, got string
		want      []string
	}{{"stdout", r.stdout, stdout}, {"stderr", r.stderr, stderr}} {
		if len(s.want) == 0 && s.got != "" {
			t.Errorf("%s should be empty, got:\n%s", s.name, s.got)
		}
		for _, w := range s.want {
			if !strings.Contains(s.got, w) {
				t.Errorf("%s does not contain %q:\n%s", s.name, w, s.got)
			}
		}
	}
}

// Pages of the loopback site.
const (
	articlePage = `<!doctype html><html lang="en"><head><title>Herons of the marsh</title>
<meta name="description" content="Grey herons are back in the town marsh.">
<meta property="og:title" content="Herons of the marsh">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Herons of the marsh","author":{"@type":"Person","name":"Ada Reed"}}</script>
</head><body><nav><a href="/">Home</a> <a href="/nesting">Nesting</a> <a href="/contact">Contact</a> <a href="/missing">Archive</a></nav>
<article><h1>Herons of the marsh</h1>
<p>For the first time in ten years, grey herons are nesting again in the reed beds at the edge of the town marsh. Volunteers counted eleven nests this spring, each a loose platform of sticks high in the alders.</p>
<h2>Why they came back</h2>
<p>The water board stopped draining the lower meadows in 2019, and the fish and frogs the herons feed on returned within two summers. Herons are patient hunters: they stand still in the shallows for an hour before they strike.</p>
<p>Walkers are asked to keep to the boardwalk between March and June, when the chicks are in the nests and the adults are easily disturbed.</p>
</article></body></html>`

	nestingPage = `<!doctype html><html><head><title>Nesting season</title></head><body><article><h1>Nesting season</h1>
<p>The colony grows every year; the table below gives the counts made by the volunteers each spring since the return.</p>
<table><caption>Nests counted</caption><thead><tr><th>Year</th><th>Nests</th></tr></thead>
<tbody><tr><td>2022</td><td>4</td></tr><tr><td>2023</td><td>7</td></tr><tr><td>2024</td><td>11</td></tr></tbody></table>
<p><a href="/private/ringing">Ringing records</a> are kept for members.</p></article></body></html>`

	contactPage = `<!doctype html><html lang="en-GB"><head><title>Contact the heron society</title></head><body>
<footer><p>Write to <a href="mailto:herons@example.org">herons@example.org</a> or call +44 20 7946 0958.</p>
<p><a href="https://x.com/heronsociety">Follow us on X</a></p></footer></body></html>`
)

// pngBytes open a PNG file: not a page.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")

// testSite serves the pages on loopback: / (an article linking to the
// others), /nesting (a table, and a link robots.txt disallows), /contact,
// /missing (404) and /logo.png.
func testSite(t *testing.T) string {
	t.Helper()
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", html(articlePage))
	mux.Handle("GET /nesting", html(nestingPage))
	mux.Handle("GET /contact", html(contactPage))
	mux.HandleFunc("GET /robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
	})
	mux.HandleFunc("GET /logo.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL
}

// writeFile writes a file in a temporary directory and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// unreachable is a loopback URL nothing listens on: port 1, which only a
// privileged program could bind and none here does. (A closed test
// server's port, as before, can be taken by another test's server
// running in parallel before the command dials it: CI once saw EOF
// there instead of a refused connection.)
func unreachable(t *testing.T) string {
	t.Helper()
	return "http://127.0.0.1:1/"
}

// The command line itself: help, unknown commands, missing arguments and
// bad flags are usage errors (exit 2) reported on stderr.
func TestCLIUsage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr []string
	}{
		{"no command", nil, 2, nil, []string{"Usage:", "scrape", "crawl", "extract", "llm-ready", "serve"}},
		{"help", []string{"help"}, 0, []string{"Available Commands:", "scrape", "llm-ready", "crawl", "extract", "serve"}, nil},
		{"help of a command", []string{"help", "crawl"}, 0, []string{"--max-pages", "--allow-private-networks", "--json", "--no-progress"}, nil},
		{"scrape -h", []string{"scrape", "-h"}, 0, []string{"--format", "--timeout", "--tier"}, nil},
		{"serve -h", []string{"serve", "-h"}, 0, nil, []string{"-addr", "WEBINFRA_DATA_DIR", "-allow-private-networks"}},
		{"help serve", []string{"help", "serve"}, 0, []string{"-database-url", "WEBINFRA_DATABASE_URL"}, nil},
		{"serve with an unknown flag", []string{"serve", "--bogus"}, 2, nil, []string{"flag provided but not defined: -bogus"}},
		{"unknown command", []string{"frobnicate"}, 2, nil, []string{`unknown command "frobnicate"`, "Run 'webinfra --help'"}},
		{"near miss", []string{"scrap"}, 2, nil, []string{"Did you mean this?", "scrape"}},
		{"scrape without URL", []string{"scrape"}, 2, nil, []string{"missing URL", "Run 'webinfra scrape --help'"}},
		{"scrape with two URLs", []string{"scrape", "http://a.test/", "http://b.test/"}, 2, nil, []string{"want one URL, got 2 arguments"}},
		{"llm-ready without URL", []string{"llm-ready"}, 2, nil, []string{"missing URL"}},
		{"crawl without URL", []string{"crawl"}, 2, nil, []string{"missing URL"}},
		{"extract alone", []string{"extract"}, 2, nil, []string{"missing what to extract"}},
		{"unknown extraction", []string{"extract", "everything", "page.html"}, 2, nil, []string{`unknown extraction "everything"`}},
		{"extract without FILE", []string{"extract", "tables"}, 2, nil, []string{"missing FILE or URL"}},
		{"unknown flag", []string{"scrape", "--colour", "http://a.test/"}, 2, nil, []string{"unknown flag: --colour"}},
		{"bad flag value", []string{"crawl", "--max-pages", "many", "http://a.test/"}, 2, nil, []string{"--max-pages", "many"}},
		{"bad timeout", []string{"scrape", "--timeout", "0s", "http://a.test/"}, 2, nil, []string{"--timeout must be positive"}},
		{"missing CA file", []string{"scrape", "--ca-file", "/nonexistent/ca.pem", "http://a.test/"}, 2, nil, []string{"--ca-file"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runCLI(t, "", tc.args...).want(t, tc.code, tc.stdout, tc.stderr)
		})
	}
}
