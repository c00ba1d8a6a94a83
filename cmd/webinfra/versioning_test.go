package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// --public-url and --legacy-host reach the server: the OpenAPI servers
// list both, and a request under the legacy name is served with
// Deprecation and a Link to the same path under the public URL.
func TestServeVersioningFlags(t *testing.T) {
	t.Parallel()
	base, _ := serveInProcess(t, "--public-url", "https://api.example.com/", "--legacy-host", "old.example.com")

	res, err := http.Get(base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Servers []struct{ URL, Description string } `json:"servers"`
	}
	err = json.NewDecoder(res.Body).Decode(&doc)
	res.Body.Close()
	if err != nil || len(doc.Servers) != 2 || doc.Servers[0].URL != "https://api.example.com" || doc.Servers[1].URL != "https://old.example.com" {
		t.Fatalf("servers %+v (%v)", doc.Servers, err)
	}

	req, _ := http.NewRequest("GET", base+"/healthz", nil)
	req.Host = "old.example.com"
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Deprecation"), "@") ||
		res.Header.Get("Link") != `<https://api.example.com/healthz>; rel="successor-version"` {
		t.Errorf("legacy host: %d Deprecation %q Link %q", res.StatusCode, res.Header.Get("Deprecation"), res.Header.Get("Link"))
	}
}

// Bad values are refused when the flags are read, naming the flag.
func TestServeRejectsBadVersioningFlags(t *testing.T) {
	t.Parallel()
	for flag, args := range map[string][]string{
		"--public-url":  {"--public-url", "api.example.com"},
		"--legacy-host": {"--public-url", "https://api.example.com", "--legacy-host", "https://old.example.com"},
	} {
		_, err := parseServeFlags(args, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), flag+": ") {
			t.Errorf("%v: error %v, want one naming %s", args, err, flag)
		}
	}
	c, err := parseServeFlags([]string{"--public-url", "https://api.example.com", "--legacy-host", "old.example.com"}, io.Discard)
	if err != nil || c.publicURL != "https://api.example.com" || c.legacyHost != "old.example.com" {
		t.Errorf("good flags: %+v %v", c, err)
	}
}
