package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/tables"
	"github.com/webinfra/webinfra/server"
)

func TestExtractCLI(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	allow := "--allow-private-networks"
	article := writeFile(t, "article.html", []byte(articlePage))
	nesting := writeFile(t, "nesting.html", []byte(nestingPage))
	notes := writeFile(t, "notes.txt", []byte("Ring the warden on +44 20 7946 0000 or write to warden [at] example [dot] org.\n"))
	image := writeFile(t, "logo.png", pngBytes)
	empty := writeFile(t, "empty.html", []byte(" \n"))
	cases := []struct {
		name           string
		stdin          string
		args           []string
		code           int
		stdout, stderr []string
	}{
		{"clean, a URL", "", []string{"extract", "clean", allow, site + "/"}, 0,
			[]string{"# Herons of the marsh", "## Why they came back", "Herons are patient hunters"}, nil},
		{"clean, a file, as text", "", []string{"extract", "clean", "--format", "text", article}, 0,
			[]string{"Herons of the marsh\n\nFor the first time in ten years"}, nil},
		{"clean, stdin", articlePage, []string{"extract", "clean", "-"}, 0, []string{"# Herons of the marsh"}, nil},
		{"clean, no article", `<html><head><title>Index</title></head><body><nav><a href="/a">A</a></nav></body></html>`,
			[]string{"extract", "clean", "-"}, 0, nil, []string{"no article found"}},
		{"structured", "", []string{"extract", "structured", article}, 0,
			[]string{"title: Herons of the marsh\n", "description: Grey herons are back in the town marsh.\n", "json-ld: 1 item: Article, Person\n", "og:title: Herons of the marsh\n"}, nil},
		{"contacts, a URL", "", []string{"extract", "contacts", allow, site + "/contact"}, 0,
			[]string{"E-mail:\n  herons@example.org\n", "Phone:\n  +442079460958 (fixed line)\n", "Social:\n  x          https://x.com/heronsociety\n"}, nil},
		{"contacts, plain text", "", []string{"extract", "contacts", notes}, 0,
			[]string{"warden@example.org", "+442079460000"}, nil},
		{"tables", "", []string{"extract", "tables", nesting}, 0,
			[]string{"Table 1: Nests counted (3 rows × 2 columns)\n\n| Year | Nests |\n| --- | --- |\n| 2022 | 4 |\n| 2023 | 7 |\n| 2024 | 11 |\n"}, nil},
		{"tables, none", "", []string{"extract", "tables", article}, 0, []string{"no tables found"}, nil},
		{"a file that does not exist", "", []string{"extract", "clean", filepath.Join(t.TempDir(), "nope.html")}, 1,
			nil, []string{"webinfra: open ", "nope.html: no such file or directory"}},
		{"an image file", "", []string{"extract", "tables", image}, 1, nil, []string{"logo.png: not HTML or text (image/png)"}},
		{"an image URL", "", []string{"extract", "clean", allow, site + "/logo.png"}, 1, nil, []string{"/logo.png: not HTML or text (image/png)"}},
		{"an empty file", "", []string{"extract", "structured", empty}, 1, nil, []string{"empty.html: empty"}},
		{"an error page", "", []string{"extract", "contacts", allow, site + "/missing"}, 1, []string{"no contacts found"}, []string{"answered HTTP 404"}},
		{"unreachable", "", []string{"extract", "clean", allow, unreachable(t)}, 1, nil, []string{"connection refused"}},
		{"another scheme", "", []string{"extract", "clean", "ftp://example.com/page.html"}, 2, nil, []string{"only http and https URLs are fetched"}},
		{"bad base URL", "", []string{"extract", "structured", "--base-url", "nowhere", article}, 2, nil, []string{"--base-url: "}},
		{"bad region", "", []string{"extract", "contacts", "--default-region", "ZZ", notes}, 2, nil, []string{"--default-region: "}},
		{"bad format", "", []string{"extract", "clean", "--format", "pdf", article}, 2, nil, []string{"--format: want markdown or text"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			runCLI(t, tc.stdin, tc.args...).want(t, tc.code, tc.stdout, tc.stderr)
		})
	}
}

// --json prints what the HTTP API answers: for a fetched page, the
// extract endpoints' result with its source.
func TestExtractCLIJSON(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	allow := "--allow-private-networks"
	decode := func(run cliRun, v any) {
		t.Helper()
		run.want(t, 0, []string{"{"}, nil)
		if err := json.Unmarshal([]byte(run.stdout), v); err != nil {
			t.Fatalf("%v\n%s", err, run.stdout)
		}
	}

	var clean server.ExtractCleanResult
	decode(runCLI(t, "", "extract", "clean", allow, "--json", site+"/"), &clean)
	if clean.Title != "Herons of the marsh" || clean.Source == nil || clean.Source.StatusCode != 200 || clean.Source.FinalURL != site+"/" {
		t.Errorf("clean: %+v, source %+v", clean.Result.Title, clean.Source)
	}
	var fromFile server.ExtractCleanResult
	decode(runCLI(t, articlePage, "extract", "clean", "--json", "-"), &fromFile)
	if fromFile.Title != clean.Title || fromFile.Source != nil {
		t.Errorf("clean of stdin: title %q, source %+v", fromFile.Title, fromFile.Source)
	}

	var st server.ExtractStructuredResult
	decode(runCLI(t, "", "extract", "structured", allow, "--json", site+"/"), &st)
	if st.JSONLD == nil || len(st.JSONLD.Items) != 1 || st.Meta == nil || st.Meta.Title != "Herons of the marsh" {
		t.Errorf("structured: %+v", st.Result)
	}

	var ct contacts.Result
	decode(runCLI(t, "", "extract", "contacts", allow, "--json", site+"/contact"), &ct)
	if len(ct.Emails) != 1 || len(ct.Phones) != 1 || len(ct.Social) != 1 || ct.Phones[0].E164 != "+442079460958" {
		t.Errorf("contacts: %+v", ct)
	}

	var tb tables.Result
	decode(runCLI(t, nestingPage, "extract", "tables", "--json", "--records", "-"), &tb)
	if len(tb.Tables) != 1 || tb.Tables[0].Caption != "Nests counted" || len(tb.Tables[0].Records) != 3 || tb.Tables[0].Records[2]["Nests"] != "11" {
		t.Errorf("tables: %+v", tb)
	}
}
