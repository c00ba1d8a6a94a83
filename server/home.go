package server

import (
	"encoding/json"
	"html/template"
	"net/http"
	"strings"
)

type homeLink struct{ Path, Rel, What string }

// homeLinks are what GET / points a newcomer to, after the mounted
// handlers (the dashboard).
var homeLinks = []homeLink{
	{"/docs", "docs", "the API reference, every operation with its schema and credit cost"},
	{"/openapi.json", "openapi", "the OpenAPI 3.1 document, for code generators and agents"},
	{"/healthz", "health", "liveness check (no key, no charge)"},
}

var homePage = template.Must(template.New("home").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webinfra API</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code,pre{font-family:ui-monospace,monospace;background:#f3f3f3;border-radius:4px}
pre{padding:.75rem;overflow-x:auto}
a{color:#0645ad}
</style>
</head>
<body>
<main>
<h1>Webinfra API</h1>
<p>Web infrastructure for AI agents: fetch, scrape, extract and audit web pages over HTTP.</p>
<ul>
{{range .Links}}<li><a href="{{.Path}}">{{.Path}}</a>: {{.What}}</li>
{{end}}</ul>
<h2>Start</h2>
<pre><code>curl -s -X POST {{.Base}}/v1/auth/signup -H 'Content-Type: application/json' \
  -d '{"email":"you@example.com","password":"a long password"}'
curl -s -X POST {{.Base}}/v1/scrape -H 'Authorization: Bearer osk_...' \
  -H 'Content-Type: application/json' -d '{"url":"https://example.com/"}'</code></pre>
</main>
</body>
</html>
`))

// home answers GET / with a short page pointing to the docs, the OpenAPI
// document and the health check (JSON links when the caller asks for
// JSON), instead of a bare 404.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if wantsJSON(r.Header.Get("Accept")) {
		links := map[string]string{}
		for _, l := range s.homeLinks() {
			links[l.Rel] = l.Path
		}
		h.Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"name": "Webinfra API", "links": links})
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	// The Host header is the caller's; the template escapes it.
	homePage.Execute(w, struct {
		Links any
		Base  string
	}{s.homeLinks(), "http://" + r.Host})
}

func (s *Server) homeLinks() []homeLink {
	var out []homeLink
	for _, m := range s.mounts {
		out = append(out, homeLink{Path: m.prefix, Rel: m.rel, What: m.what})
	}
	return append(out, homeLinks...)
}

// wantsJSON reports whether an Accept header prefers JSON to HTML.
func wantsJSON(accept string) bool {
	return strings.Contains(accept, "application/json") && !strings.Contains(accept, "text/html")
}
