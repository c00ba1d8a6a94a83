package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestSEOReadability(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("readability@example.com")
	var res struct {
		FleschReadingEase float64 `json:"flesch_reading_ease"`
		Sentences         int     `json:"sentences"`
		Words             int     `json:"words"`
		Source            *struct {
			StatusCode int `json:"status_code"`
		} `json:"source"`
	}
	// textstat 0.7.4 on this text: 2 sentences, 16 words.
	e.want(e.call("POST", "/v1/seo/readability", key, map[string]any{"text": "The cat sat on the mat. It was a sunny day, and the cat was happy."}), 200).json(t, &res)
	if res.Sentences != 2 || res.Words != 16 || res.Source != nil {
		t.Fatalf("text: %+v", res)
	}
	target := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><nav>Home</nav><p>The cat sat on the mat. It was a sunny day.</p></body></html>`)
	})
	e.want(e.call("POST", "/v1/seo/readability", key, map[string]any{"url": target}), 200).json(t, &res)
	if res.Source == nil || res.Source.StatusCode != 200 || res.Words != 12 { // the nav's "Home" is visible text too
		t.Fatalf("url: %+v", res)
	}
	// Nothing to read: 422 naming the field, nothing charged.
	r := e.want(e.call("POST", "/v1/seo/readability", key, map[string]any{}), 422)
	if !strings.Contains(r.detail(t), "body.text") || r.header.Get("X-Credits-Charged") != "0" {
		t.Fatalf("empty body: %q charged %s", r.detail(t), r.header.Get("X-Credits-Charged"))
	}
	r = e.want(e.call("POST", "/v1/seo/readability", key, map[string]any{"text": "a", "html": "<p>b</p>"}), 422)
	if !strings.Contains(r.detail(t), "body.html") {
		t.Fatalf("text and html: %q", r.detail(t))
	}
	if b := e.balance(key); b != 998 {
		t.Fatalf("balance %d, want 998 (two calls charged)", b)
	}
}

func TestSEOKeywordExtract(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("keywords@example.com")
	var res struct {
		Keywords []struct {
			Phrase string  `json:"phrase"`
			Score  float64 `json:"score"`
		} `json:"keywords"`
	}
	abstract := "Compatibility of systems of linear constraints over the set of natural numbers. Criteria of compatibility of a system of linear Diophantine equations, strict inequations, and nonstrict inequations are considered. Upper bounds for components of a minimal set of solutions and algorithms of construction of minimal generating sets of solutions for all types of systems are given. These criteria and the corresponding algorithms for constructing a minimal supporting set of solutions can be used in solving all the considered types of systems and systems of mixed types."
	e.want(e.call("POST", "/v1/seo/keyword-extract", key, map[string]any{"text": abstract, "max_keywords": 3}), 200).json(t, &res)
	if len(res.Keywords) != 3 || res.Keywords[0].Phrase != "minimal generating sets" || res.Keywords[1].Phrase != "linear diophantine equations" {
		t.Fatalf("keywords %+v", res.Keywords)
	}
	r := e.want(e.call("POST", "/v1/seo/keyword-extract", key, map[string]any{"text": abstract, "language": "xx"}), 422)
	if !strings.Contains(r.detail(t), "body.language") {
		t.Fatalf("unknown language: %q", r.detail(t))
	}
}
