package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/server"
	"github.com/webinfra/webinfra/store/sqlite"
)

// TestRunListsToolsAndScrapes runs the example against a real server on
// loopback (SQLite store) scraping a loopback page.
func TestRunListsToolsAndScrapes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><head><title>Herons</title></head><body><h1>Herons</h1><p>Grey herons wait.</p></body></html>`)
	}))
	defer page.Close()

	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "webinfra.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(st, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	res, err := http.Post(ts.URL+"/v1/auth/signup", "application/json", strings.NewReader(`{"email":"agent@example.com","password":"correct horse battery"}`))
	if err != nil {
		t.Fatal(err)
	}
	var signup struct {
		APIKey string `json:"api_key"`
	}
	json.NewDecoder(res.Body).Decode(&signup)
	res.Body.Close()

	var out bytes.Buffer
	if err := run(ctx, ts.URL+server.MCPPath, signup.APIKey, page.URL, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tool scrape: ", "tool get_job: ", "1 credit(s) charged", "# Herons"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := run(ctx, ts.URL+server.MCPPath, "osk_"+strings.Repeat("0", 48), page.URL, &out); err == nil {
		t.Fatal("a wrong key connected")
	}
}
