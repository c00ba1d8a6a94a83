package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
	"testing"
)

type llmReadyAnswer struct {
	FinalURL      string `json:"final_url"`
	TierUsed      string `json:"tier_used"`
	ProxyUsed     string `json:"proxy_used"`
	Title         string `json:"title"`
	ContentSource string `json:"content_source"`
	Tokenizer     string `json:"tokenizer"`
	SourceBytes   int    `json:"source_bytes"`
	SourceSHA256  string `json:"source_sha256"`
	Source        string `json:"source"`
	Chunks        []struct {
		ID          string   `json:"id"`
		Text        string   `json:"text"`
		Start       int      `json:"start"`
		End         int      `json:"end"`
		HeadingPath []string `json:"heading_path"`
		TokenCount  int      `json:"token_count"`
	} `json:"chunks"`
}

// check verifies the answer's offsets against its own source: each chunk's
// first and last words lie in source[start:end], in order.
func (a *llmReadyAnswer) check(t *testing.T) {
	t.Helper()
	sum := sha256.Sum256([]byte(a.Source))
	if a.SourceBytes != len(a.Source) || a.SourceSHA256 != hex.EncodeToString(sum[:]) || len(a.Chunks) < 2 {
		t.Fatalf("answer %+v", a)
	}
	for _, c := range a.Chunks {
		words := strings.Fields(c.Text)
		span := a.Source[c.Start:c.End]
		first, last := strings.Trim(words[0], ".,"), strings.Trim(words[len(words)-1], ".,")
		if !strings.HasPrefix(span, first) || !strings.Contains(span, last) || c.TokenCount > 64 || c.ID == "" {
			t.Fatalf("chunk %+v does not match source %q", c, span)
		}
	}
}

func TestLlmReady(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("llm@example.com")
	site := articleSite(t)
	r := e.want(e.call("POST", "/v1/scrape/llm-ready", key, map[string]any{"url": site + "/notes/herons", "chunk_size": 64, "chunk_overlap": 16, "include_source": true}), 200)
	var a llmReadyAnswer
	r.json(t, &a)
	a.check(t)
	if a.Source != articlePage || a.TierUsed != "direct" || a.ProxyUsed != "none" || a.ContentSource != "article" ||
		a.Title != "Herons of the marsh" || a.Tokenizer == "" || r.header.Get("X-Credits-Charged") != "1" {
		t.Fatalf("answer %+v, headers %v", a, r.header)
	}
	var nested bool
	for _, c := range a.Chunks {
		nested = nested || slices.Contains(c.HeadingPath, "Where they nest")
		if strings.Contains(c.Text, "Home") {
			t.Fatalf("boilerplate in chunk %+v", c)
		}
	}
	if !nested {
		t.Fatalf("no chunk under the heading: %+v", a.Chunks)
	}
	// Without include_source the same chunks, no source.
	var again llmReadyAnswer
	e.want(e.call("POST", "/v1/scrape/llm-ready", key, map[string]any{"url": site + "/notes/herons", "chunk_size": 64, "chunk_overlap": 16}), 200).json(t, &again)
	if again.Source != "" || len(again.Chunks) != len(a.Chunks) || again.Chunks[0].ID != a.Chunks[0].ID {
		t.Fatalf("ids are not stable: %+v vs %+v", again.Chunks, a.Chunks)
	}
	before := e.balance(key)
	if d := e.want(e.call("POST", "/v1/scrape/llm-ready", key, map[string]any{"url": site, "chunk_size": 8}), 422).detail(t); !strings.Contains(d, "chunk_size") {
		t.Fatalf("small chunks: %q", d)
	}
	if d := e.want(e.call("POST", "/v1/scrape/llm-ready", key, map[string]any{"url": refusedURL(t)}), 502).detail(t); d == "" {
		t.Fatal("no detail for an unreachable page")
	}
	if e.balance(key) != before {
		t.Fatal("a failed call was charged")
	}
}

// The answer has the same shape whichever tier fetched the page: a real
// headless Chromium gives the same fields and, from its own rendering of
// the page, the same article.
func TestLlmReadySameShapeOnRenderTier(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRealBrowser(t))
	key := e.signup("llm-render@example.com")
	site := articleSite(t)
	shapes := map[string][]string{}
	texts := map[string]string{}
	for _, tier := range []string{"direct", "render"} {
		body := map[string]any{"url": site + "/notes/herons", "tier": tier, "chunk_size": 64, "include_source": true, "timeout_ms": 60000}
		r := e.want(e.call("POST", "/v1/scrape/llm-ready", key, body), 200)
		var fields map[string]any
		r.json(t, &fields)
		shapes[tier] = slices.Sorted(maps.Keys(fields))
		var a llmReadyAnswer
		r.json(t, &a)
		a.check(t)
		if a.TierUsed != tier {
			t.Fatalf("tier %s answered by %s", tier, a.TierUsed)
		}
		var all []string
		for _, c := range a.Chunks {
			all = append(all, c.Text)
		}
		texts[tier] = strings.Join(all, " ")
	}
	if !slices.Equal(shapes["direct"], shapes["render"]) {
		t.Fatalf("shapes differ: %v vs %v", shapes["direct"], shapes["render"])
	}
	if !strings.Contains(texts["render"], "heronries") || !strings.Contains(texts["direct"], "heronries") {
		t.Fatalf("articles differ: %q vs %q", texts["direct"], texts["render"])
	}
}
