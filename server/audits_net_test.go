package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The fetching audits answer through the catalog against a loopback site;
// their findings are tested in their packages.
func TestNetworkAudits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("netaudits@example.com")
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/new", http.StatusFound)
		case "/new", "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><body><h1>Herons</h1><p>Grey herons are back in the marsh this spring.</p><a href="/gone">gone</a> <a href="/new">new</a></body></html>`)
		case "/llms.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "# Herons\n\n> The marsh society's pages.\n\n## Docs\n\n- [New](/new): the news\n- [Gone](/gone)\n")
		default:
			http.NotFound(w, r)
		}
	})
	cases := []struct {
		path string
		body map[string]any
		want []string
	}{
		{"/v1/seo/redirect-chain-map", map[string]any{"url": site + "/old"}, []string{`"redirects":1`, `"status":302`}},
		{"/v1/seo/broken-links-audit", map[string]any{"url": site + "/"}, []string{`"broken":1`, site + `/gone`}},
		{"/v1/aeo/llms-txt-audit", map[string]any{"url": site}, []string{`"found":true`, `"title":"Herons"`}},
		{"/v1/aeo/llm-fetch-simulator", map[string]any{"url": site + "/", "agents": []string{"GPTBot"}}, []string{`"GPTBot"`, `"baseline"`}},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", c.path, key, c.body), 200)
		for _, w := range c.want {
			if !strings.Contains(string(r.body), w) {
				t.Errorf("%s: answer lacks %s:\n%.800s", c.path, w, r.body)
			}
		}
	}
	for _, path := range []string{"/v1/seo/redirect-chain-map", "/v1/seo/broken-links-audit", "/v1/aeo/llms-txt-audit", "/v1/aeo/llm-fetch-simulator"} {
		r := e.want(e.call("POST", path, key, map[string]any{"url": "ftp://example.com/"}), 422)
		if !strings.Contains(r.detail(t), "url") || r.header.Get("X-Credits-Charged") != "0" {
			t.Errorf("%s with an ftp URL: %q", path, r.detail(t))
		}
	}
}
