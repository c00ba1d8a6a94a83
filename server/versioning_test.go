package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/webinfra/webinfra/internal/password"
	"github.com/webinfra/webinfra/store/sqlite"
)

var (
	testNow        = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	deprecatedOn   = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sunsetOn       = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	deprecatedEcho = func() Operation {
		o := jsonOp(post("old-echo", "/v1/test/old-echo", tagOther, "An old echo", free), noop)
		o.Deprecation, o.Sunset, o.Successor = deprecatedOn, sunsetOn, "/v1/test/echo"
		return o
	}
)

// versionedServer runs the server with opts (its clock frozen at testNow)
// and extra operations on a fresh SQLite file, and returns its base URL and
// a developer key.
func versionedServer(t *testing.T, opts Options, extra ...Operation) (base, key string) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	opts.Now = func() time.Time { return testNow }
	opts.Password = password.Params{MemoryKiB: 64, Time: 1, Threads: 1}
	opts.Logger = slog.New(slog.DiscardHandler)
	srv, err := newServer(st, nil, &opts, extra...)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close(ctx); st.Close() })
	res, body := send(t, "POST", ts.URL+"/v1/auth/signup", "", "", `{"email":"versions@example.com","password":"a long password"}`)
	var out SignupResponse
	if err := json.Unmarshal(body, &out); err != nil || out.APIKey == "" {
		t.Fatalf("sign-up: %d %s", res.StatusCode, body)
	}
	return ts.URL, out.APIKey
}

// send makes one request with an optional Host, key and JSON body.
func send(t *testing.T, method, url, host, key, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, data
}

// A deprecated catalog entry answers Deprecation, Sunset and Link on every
// answer, success or error, and is deprecated in OpenAPI; other routes
// carry none of them.
func TestDeprecatedOperationAnswersVersionHeaders(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ publicURL, successor string }{
		{"", "</v1/test/echo>; rel=\"successor-version\""},
		{"https://api.example.com/", "<https://api.example.com/v1/test/echo>; rel=\"successor-version\""},
	} {
		base, key := versionedServer(t, Options{PublicURL: c.publicURL}, deprecatedEcho(), noopOperation())
		for _, call := range []struct {
			key, body string
			status    int
		}{{key, `{"n":1}`, 200}, {"", `{"n":1}`, 401}, {key, `{"n":"one"}`, 422}} {
			res, body := send(t, "POST", base+"/v1/test/old-echo", "", call.key, call.body)
			if res.StatusCode != call.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, call.status, body)
			}
			h := res.Header
			if h.Get("Deprecation") != "@1767225600" || h.Get("Sunset") != "Fri, 01 Jan 2027 00:00:00 GMT" || h.Get("Link") != c.successor {
				t.Errorf("%d answer: Deprecation %q Sunset %q Link %q", call.status, h.Get("Deprecation"), h.Get("Sunset"), h.Values("Link"))
			}
		}
		res, _ := send(t, "POST", base+"/v1/bench/noop", "", key, `{"n":1}`)
		if res.StatusCode != 200 || res.Header.Get("Deprecation") != "" || res.Header.Get("Sunset") != "" || res.Header.Get("Link") != "" {
			t.Errorf("a current route: %d Deprecation %q Sunset %q Link %q", res.StatusCode, res.Header.Get("Deprecation"), res.Header.Get("Sunset"), res.Header.Get("Link"))
		}

		doc := openAPI(t, base, "")
		old, current := doc.Paths["/v1/test/old-echo"]["post"], doc.Paths["/v1/bench/noop"]["post"]
		if !old.Deprecated || !strings.Contains(old.Description, "Deprecated since 2026-01-01; removed on 2027-01-01; use /v1/test/echo instead.") {
			t.Errorf("deprecated operation in OpenAPI: deprecated %v, description %q", old.Deprecated, old.Description)
		}
		if current.Deprecated {
			t.Error("a current operation is deprecated in OpenAPI")
		}
	}
}

// Deprecation fields that contradict each other stop the server from
// starting, with the route named.
func TestVersioningFieldsAreChecked(t *testing.T) {
	t.Parallel()
	for want, edit := range map[string]func(*Operation){
		"has a Sunset or Successor but no Deprecation": func(o *Operation) { o.Deprecation = time.Time{} },
		"Sunset 2025-01-01T00:00:00Z is before":        func(o *Operation) { o.Sunset = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) },
		`Successor "ftp://example.com/v2" must be`:     func(o *Operation) { o.Successor = "ftp://example.com/v2" },
	} {
		o := deprecatedEcho()
		edit(&o)
		st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "webinfra.db"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = newServer(st, nil, &Options{Logger: slog.New(slog.DiscardHandler)}, o)
		st.Close()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "POST /v1/test/old-echo") {
			t.Errorf("error %v, want one naming the route and %q", err, want)
		}
	}
}

// The legacy host serves the same API, plus Deprecation (since the server
// started) and a Link to the same path and query under the public URL;
// other Host values are served as ever.
func TestLegacyHost(t *testing.T) {
	t.Parallel()
	base, key := versionedServer(t, Options{PublicURL: "https://api.example.com", LegacyHost: "Old.Example.com"}, deprecatedEcho())
	since := "@1795262400" // testNow: the server's start
	for host, legacy := range map[string]bool{"old.example.com": true, "OLD.example.com.:8443": true, "api.example.com": false, "anything.example": false} {
		res, body := send(t, "GET", base+"/v1/me?x=1", host, key, "")
		if res.StatusCode != 200 || !strings.Contains(string(body), "versions@example.com") {
			t.Fatalf("Host %s: %d %s", host, res.StatusCode, body)
		}
		wantDep, wantLink := "", []string(nil)
		if legacy {
			wantDep, wantLink = since, []string{`<https://api.example.com/v1/me?x=1>; rel="successor-version"`}
		}
		if res.Header.Get("Deprecation") != wantDep || !slices.Equal(res.Header.Values("Link"), wantLink) {
			t.Errorf("Host %s: Deprecation %q Link %q", host, res.Header.Get("Deprecation"), res.Header.Values("Link"))
		}
	}

	// Errors and unknown paths under the legacy host say so too.
	for path, status := range map[string]int{"/v1/me": 401, "/v1/nowhere": 404} {
		res, _ := send(t, "GET", base+path, "old.example.com", "", "")
		if res.StatusCode != status || res.Header.Get("Deprecation") != since {
			t.Errorf("%s: %d, Deprecation %q", path, res.StatusCode, res.Header.Get("Deprecation"))
		}
	}

	// A deprecated route under the legacy host: the earlier date, both links.
	res, _ := send(t, "POST", base+"/v1/test/old-echo", "old.example.com", key, `{"n":1}`)
	if res.Header.Get("Deprecation") != "@1767225600" || len(res.Header.Values("Link")) != 2 {
		t.Errorf("deprecated route on the legacy host: Deprecation %q Link %q", res.Header.Get("Deprecation"), res.Header.Values("Link"))
	}

	doc := openAPI(t, base, "old.example.com")
	if len(doc.Servers) != 2 || doc.Servers[0].URL != "https://api.example.com" || doc.Servers[1].URL != "https://old.example.com" ||
		!strings.Contains(doc.Servers[1].Description, "Legacy") {
		t.Errorf("servers %+v", doc.Servers)
	}
}

// Without a public URL the legacy host still answers Deprecation, with no
// Link (there is nowhere to point), and the document's server is "/".
func TestLegacyHostWithoutPublicURL(t *testing.T) {
	t.Parallel()
	base, _ := versionedServer(t, Options{LegacyHost: "old.example.com"})
	res, _ := send(t, "GET", base+"/healthz", "old.example.com", "", "")
	if res.StatusCode != 200 || res.Header.Get("Deprecation") == "" || res.Header.Get("Link") != "" {
		t.Errorf("%d Deprecation %q Link %q", res.StatusCode, res.Header.Get("Deprecation"), res.Header.Values("Link"))
	}
	if doc := openAPI(t, base, ""); len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Errorf("servers %+v", doc.Servers)
	}
}

func TestBadHostOptions(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{
		{PublicURL: "api.example.com"}, {PublicURL: "ftp://api.example.com"}, {PublicURL: "https://api.example.com/?v=1"},
		{PublicURL: "https://user@api.example.com"}, {LegacyHost: "https://old.example.com"}, {LegacyHost: "old.example.com:8080"},
		{LegacyHost: "old example.com"}, {PublicURL: "https://api.example.com", LegacyHost: "API.example.com"},
	} {
		if _, err := New(nil, nil, &o); err == nil || !strings.Contains(err.Error(), "server:") {
			t.Errorf("%+v: error %v", o, err)
		}
	}
}

type versionedDoc struct {
	Servers []struct{ URL, Description string } `json:"servers"`
	Paths   map[string]map[string]struct {
		Deprecated  bool   `json:"deprecated"`
		Description string `json:"description"`
	} `json:"paths"`
}

func openAPI(t *testing.T, base, host string) versionedDoc {
	t.Helper()
	res, body := send(t, "GET", base+"/openapi.json", host, "", "")
	var doc versionedDoc
	if err := json.Unmarshal(body, &doc); res.StatusCode != 200 || err != nil {
		t.Fatalf("openapi.json: %d %v", res.StatusCode, err)
	}
	return doc
}
