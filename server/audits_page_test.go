package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Each HTML audit answers for html and for a fetched url, through the
// catalog; the audits' own findings are tested in their packages.
func TestPageAudits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("audits@example.com")
	const page = `<html lang="en"><head><title>Herons</title><meta name="description" content="Grey herons in the town marsh."></head><body>
<h1>Herons</h1><h3>Why are they back?</h3><p>Because the water came back. The water board stopped draining the lower meadows in 2019, and within two summers the fish and frogs that herons feed on had returned to the reed beds, so the birds followed them and built eleven nests in the alders. <a href="/more">click here</a></p>
<img src="http://cdn.example.com/heron.jpg"><script src="http://cdn.example.com/app.js"></script></body></html>`
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	})
	cases := []struct {
		path string
		body map[string]any
		want []string // in the answer
	}{
		{"/v1/seo/mixed-content", map[string]any{"html": page, "url": "https://example.com/herons"}, []string{`"applicable":true`, `"mixed_script"`, `"mixed_image"`}},
		{"/v1/seo/mixed-content", map[string]any{"url": site}, []string{`"applicable":false`, `"source":{`}},
		{"/v1/seo/anchor-text-audit", map[string]any{"html": page, "url": "https://example.com/herons"}, []string{`"generic_anchor"`, `"click here"`}},
		{"/v1/seo/meta-audit", map[string]any{"url": site}, []string{`"grade":`, `"description"`}},
		{"/v1/seo/snippet-candidates", map[string]any{"html": page}, []string{`"candidates":[`, `Because the water came back.`}},
		{"/v1/aeo/heading-hierarchy-score", map[string]any{"url": site}, []string{`"skipped_level"`, `"question_count":1`}},
		{"/v1/aeo/snippet-format-detect", map[string]any{"html": page}, []string{`"prediction":{"format":"paragraph"`}},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", c.path, key, c.body), 200)
		for _, w := range c.want {
			if !strings.Contains(string(r.body), w) {
				t.Errorf("%s %v: answer lacks %s:\n%.600s", c.path, c.body, w, r.body)
			}
		}
	}
	r := e.want(e.call("POST", "/v1/seo/meta-audit", key, map[string]any{}), 422)
	if !strings.Contains(r.detail(t), "body.html") || r.header.Get("X-Credits-Charged") != "0" {
		t.Fatalf("no page: %q", r.detail(t))
	}
	r = e.want(e.call("POST", "/v1/aeo/heading-hierarchy-score", key, map[string]any{"html": strings.Repeat("<div>", 600)}), 413)
	if !strings.Contains(r.detail(t), "512") {
		t.Fatalf("too deep: %q", r.detail(t))
	}
}
