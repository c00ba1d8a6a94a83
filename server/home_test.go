package server_test

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// GET / points a newcomer to the docs, the OpenAPI document and the
// health check, as a page or, for a JSON client, as links.
func TestHomePage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	page := e.want(e.call("GET", "/", "", nil, "Accept", "text/html"), 200)
	if ct := page.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("content type %q", ct)
	}
	for _, want := range []string{`href="/docs"`, `href="/openapi.json"`, `href="/healthz"`} {
		if !strings.Contains(string(page.body), want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	var links struct {
		Links map[string]string `json:"links"`
	}
	e.want(e.call("GET", "/", "", nil, "Accept", "application/json"), 200).json(t, &links)
	if links.Links["docs"] != "/docs" || links.Links["openapi"] != "/openapi.json" || links.Links["health"] != "/healthz" {
		t.Fatalf("links = %+v", links)
	}
	e.want(e.call("GET", "/nothing-here", "", nil), 404)
	e.want(e.call("POST", "/", "", nil), 405)
}

// The Host header is the caller's: it is escaped into the page, never
// markup (net/http refuses most such hosts; a proxy in front may not).
func TestHomePageEscapesHost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	req := httptest.NewRequest("GET", "/", nil)
	req.Host = `x"><script>alert(1)</script>`
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "<script>") {
		t.Fatalf("status %d; Host header reflected as markup: %s", rec.Code, rec.Body)
	}
}
