package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// batchResult is the answer of a batch scrape, synchronous or as a job.
type batchResult struct {
	Results []struct {
		URL      string `json:"url"`
		OK       bool   `json:"ok"`
		Markdown string `json:"markdown"`
		Error    string `json:"error"`
	} `json:"results"`
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
}

func TestBatchScrapeChargesPerSuccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("batch-sync@example.com")
	good := page(t).URL
	var out batchResult
	r := e.want(e.call("POST", "/v1/scrape/batch", key, map[string]any{"urls": []string{good + "/1", refusedURL(t), good + "/2"}}), 200)
	r.json(t, &out)
	if out.Succeeded != 2 || out.Failed != 1 || !strings.Contains(out.Results[2].Markdown, "Hello") || out.Results[1].Error == "" {
		t.Fatalf("batch = %+v", out)
	}
	if r.header.Get("X-Credits-Cost") != "3" || r.header.Get("X-Credits-Charged") != "2" || r.header.Get("X-Credits-Balance") != "998" {
		t.Fatalf("cost %q charged %q balance %q", r.header.Get("X-Credits-Cost"), r.header.Get("X-Credits-Charged"), r.header.Get("X-Credits-Balance"))
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = good
	}
	if d := e.want(e.call("POST", "/v1/scrape/batch", key, map[string]any{"urls": many}), 422).detail(t); !strings.Contains(d, "body.urls") {
		t.Fatalf("over the limit: %q", d)
	}
}

// A batch is polite: one host never sees more than two requests at once.
func TestBatchScrapeIsPolitePerHost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("polite@example.com")
	var inFlight, peak atomic.Int32
	host := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		w.Write([]byte("<p>ok</p>"))
	})
	urls := make([]string, 12)
	for i := range urls {
		urls[i] = host + "/" + itoa(int64(i))
	}
	e.want(e.call("POST", "/v1/scrape/batch", key, map[string]any{"urls": urls}), 200)
	if peak.Load() > 2 {
		t.Fatalf("%d requests at once to one host", peak.Load())
	}
}

func TestSmartScrape(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("smart@example.com")
	article := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<html lang="en"><head><title>Deep Sea Vents</title><meta name="description" content="Life without sunlight.">
<link rel="canonical" href="/vents"></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Deep Sea Vents</h1><p>Hydrothermal vents support whole ecosystems that live without sunlight, feeding on chemicals that pour out of the sea floor.</p>
<p>Giant tube worms, blind shrimp and mats of bacteria crowd around the chimneys, where the water can be hotter than three hundred degrees.</p>
<p>Scientists first found them in 1977 near the Galapagos Islands, and they changed what biologists believed about where life can exist.</p></article>
<footer>Copyright 2026 Ocean Facts. All rights reserved.</footer></body></html>`))
	})
	var out struct {
		Markdown string `json:"markdown"`
		TierUsed string `json:"tier_used"`
		Metadata struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			Language    string `json:"language"`
			Canonical   string `json:"canonical"`
		} `json:"metadata"`
	}
	r := e.want(e.call("POST", "/v1/scrape/smart", key, map[string]any{"url": article}), 200)
	r.json(t, &out)
	if !strings.Contains(out.Markdown, "tube worms") || strings.Contains(out.Markdown, "All rights reserved") {
		t.Fatalf("main content markdown = %q", out.Markdown)
	}
	if out.Metadata.Title != "Deep Sea Vents" || out.Metadata.Language != "en" || out.Metadata.Canonical != article+"/vents" || out.TierUsed != "direct" {
		t.Fatalf("result = %+v", out)
	}
	if r.header.Get("X-Credits-Charged") != "1" || r.header.Get("X-Tier-Used") != "direct" {
		t.Fatalf("headers %v", r.header)
	}
}

// A JavaScript-only page escalates from the direct tier to a real headless
// Chromium, and the headers say so.
func TestScrapeEscalatesToRealBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withRealBrowser(t))
	key := e.signup("render@example.com")
	shell := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><body><div id="root"></div><script>
document.getElementById("root").innerHTML = "<h1>Rendered by JavaScript</h1><p>Only a browser sees this text.</p>";
</script></body></html>`))
	})
	r := e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": shell, "timeout_ms": 60000}), 200)
	var out struct {
		Markdown    string   `json:"markdown"`
		TierUsed    string   `json:"tier_used"`
		CascadePath []string `json:"cascade_path"`
	}
	r.json(t, &out)
	if out.TierUsed != "render" || strings.Join(out.CascadePath, ",") != "direct,render" || !strings.Contains(out.Markdown, "Only a browser sees this text") {
		t.Fatalf("result %+v", out)
	}
	if r.header.Get("X-Tier-Used") != "render" || r.header.Get("X-Cascade-Path") != "direct,render" {
		t.Fatalf("headers %q %q", r.header.Get("X-Tier-Used"), r.header.Get("X-Cascade-Path"))
	}
}

// A max_age_ms hit comes only from the caller's own account: another
// account asking for the same page gets its own fetch, sync or async.
func TestScrapeCacheIsPerAccount(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		fmt.Fprintf(w, "<html><body><p>version %d</p></body></html>", n)
	})
	e := newEnv(t)
	alice, bob := e.signup("cache-alice@example.com"), e.signup("cache-bob@example.com")
	body := map[string]any{"url": site, "max_age_ms": 600000, "formats": []string{"text"}}
	e.want(e.call("POST", "/v1/scrape", alice, body), 200)
	var again, other struct {
		Cached bool   `json:"cached"`
		Text   string `json:"text"`
	}
	e.want(e.call("POST", "/v1/scrape", alice, body), 200).json(t, &again)
	if !again.Cached || hits.Load() != 1 {
		t.Fatalf("alice's own repeat: cached %v after %d fetches", again.Cached, hits.Load())
	}
	e.want(e.call("POST", "/v1/scrape", bob, body), 200).json(t, &other)
	if other.Cached || hits.Load() != 2 || !strings.Contains(other.Text, "version 2") {
		t.Fatalf("bob got alice's copy: %+v after %d fetches", other, hits.Load())
	}
	llm := map[string]any{"url": site, "max_age_ms": 600000}
	e.want(e.call("POST", "/v1/scrape/llm-ready", alice, llm), 200)
	e.want(e.call("POST", "/v1/scrape/llm-ready", alice, llm), 200)
	if hits.Load() != 3 {
		t.Fatalf("alice's llm-ready repeat was not served from her cache: %d fetches", hits.Load())
	}
	e.want(e.call("POST", "/v1/scrape/llm-ready", bob, llm), 200)
	if hits.Load() != 4 {
		t.Fatalf("bob's llm-ready was served from alice's cache: %d fetches", hits.Load())
	}
}
