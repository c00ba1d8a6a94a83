package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
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

// One llm-ready call's answer is bounded: overlap at most half a chunk
// (chunk_size 32 with overlap 31 once turned a 7.5 MB page into 275 MB of
// JSON) and at most limits.llm_ready_max_chunks chunks; each rule has one
// message, checked before anything is fetched or charged.
func TestLlmReadyAmplificationBounds(t *testing.T) {
	t.Parallel()
	var fetches atomic.Int64
	para := "<p>" + strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ", 12) + "</p>\n"
	big := "<html><body><article><h1>Long</h1>" + strings.Repeat(para, 1_500_000/len(para)) + "</article></body></html>"
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(big))
	})
	e := newEnv(t)
	key := e.signup("amplify@example.com")
	cases := []struct {
		body           map[string]any
		field, message string
	}{
		{map[string]any{"url": site, "chunk_size": 32, "chunk_overlap": 31}, "body.chunk_overlap", "between 1 and half of chunk_size (16), got 31"},
		{map[string]any{"url": site, "chunk_size": -5}, "body.chunk_size", "must be 0 (the default, 512) or between 32 and 8192 tokens, got -5"},
		{map[string]any{"url": site, "chunk_overlap": -7}, "body.chunk_overlap", "-1 (none)"},
	}
	for _, c := range cases {
		r := e.want(e.call("POST", "/v1/scrape/llm-ready", key, c.body), 422)
		if !strings.Contains(string(r.body), `"location":"`+c.field+`"`) || !strings.Contains(r.detail(t), c.message) || strings.Count(string(r.body), `"location"`) != 1 {
			t.Errorf("%v: %s", c.body, r.body)
		}
	}
	if fetches.Load() != 0 {
		t.Fatalf("invalid options still fetched the page %d times", fetches.Load())
	}
	r := e.want(e.call("POST", "/v1/scrape/llm-ready", key, map[string]any{"url": site, "chunk_size": 32, "chunk_overlap": 16}), 422)
	if !strings.Contains(r.detail(t), "at most 2000 are returned per call") {
		t.Fatalf("1.5 MB page at chunk_size 32: %s", r.body)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	ok := e.want(e.call("POST", "/v1/scrape/llm-ready", key, map[string]any{"url": site, "chunk_size": 1024, "chunk_overlap": 512}), 200)
	runtime.ReadMemStats(&m1)
	var a llmReadyAnswer
	ok.json(t, &a)
	t.Logf("1.5 MB page, chunk_size 1024, overlap 512: %d chunks, answer %.1f MB, %.0f MB allocated while serving it",
		len(a.Chunks), float64(len(ok.body))/1e6, float64(m1.TotalAlloc-m0.TotalAlloc)/1e6)
	if len(a.Chunks) > 2000 || len(ok.body) > 4*len(big) {
		t.Fatalf("%d chunks, %d bytes of answer for a %d-byte page", len(a.Chunks), len(ok.body), len(big))
	}
	if b := e.balance(key); b != 999 {
		t.Fatalf("balance %d: only the answered call is charged", b)
	}
}
