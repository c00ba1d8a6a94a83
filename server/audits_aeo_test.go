package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The audits over a page's HTML and the page audit answer through the
// catalog; their findings are tested in their packages.
func TestAEOAudits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("aeo@example.com")
	const page = `<html lang="en"><head><title>How grey herons returned to the marsh</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Herons return","datePublished":"2026-10-01","dateModified":"2026-09-01","author":{"@type":"Person","name":"Ann Lee"}}</script></head>
<body><article><h1>Herons return</h1><p>By Ann Lee</p><p>Grey herons left in 2015, when 70% of the reed beds dried out, the <a href="https://www.gov.uk/wetlands">national survey</a> found.</p></article></body></html>`
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Last-Modified", "Wed, 01 May 2024 09:00:00 GMT")
		if r.URL.Path == "/robots.txt" || r.URL.Path == "/llms.txt" || r.URL.Path == "/llms-full.txt" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, page)
	})
	cases := []struct {
		path string
		body map[string]any
		want []string
	}{
		{"/v1/aeo/freshness-signal", map[string]any{"html": page}, []string{`"modified_before_published"`, `"score":`}},
		{"/v1/aeo/freshness-signal", map[string]any{"url": site + "/herons"}, []string{`"http_header"`, `"source":{`}},
		{"/v1/aeo/schema-coverage", map[string]any{"html": page, "page_type": "article"}, []string{`"page_type":"article"`, `"Article"`}},
		{"/v1/aeo/citation-readiness", map[string]any{"html": page, "url": "https://example.com/herons"}, []string{`"authoritative_links"`, `"components":[`}},
		{"/v1/seo/schema-validate", map[string]any{"html": page}, []string{`"missing_recommended"`, `"entities":[`}},
		{"/v1/aeo/page-audit", map[string]any{"url": site + "/herons"}, []string{`"categories":[`, `"name":"citation"`, `"recommendations":[`}},
		{"/v1/aeo/competitor-diff", map[string]any{"urls": []string{site + "/a", site + "/b"}}, []string{`"ranking":[`, `"rank":1`}},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", c.path, key, c.body), 200)
		for _, w := range c.want {
			if !strings.Contains(string(r.body), w) {
				t.Errorf("%s %v: answer lacks %s:\n%.600s", c.path, c.body, w, r.body)
			}
		}
	}
	if c := e.want(e.call("POST", "/v1/aeo/page-audit", key, map[string]any{"url": site}), 200).header.Get("X-Credits-Charged"); c != "3" {
		t.Errorf("page-audit charged %s, want 3", c)
	}
	for _, c := range []struct {
		path  string
		body  map[string]any
		field string
	}{
		{"/v1/aeo/schema-coverage", map[string]any{"html": page, "page_type": "blog"}, "page_type"},
		{"/v1/aeo/competitor-diff", map[string]any{"urls": []string{site}}, "urls"},
		{"/v1/aeo/page-audit", map[string]any{"url": "ftp://example.com/"}, "url"},
		{"/v1/aeo/freshness-signal", map[string]any{}, "body.html"},
	} {
		r := e.want(e.call("POST", c.path, key, c.body), 422)
		if !strings.Contains(r.detail(t), c.field) || r.header.Get("X-Credits-Charged") != "0" {
			t.Errorf("%s %v: %q", c.path, c.body, r.detail(t))
		}
	}
}
