package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestIntelRobots(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("robots@example.com")
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /private/\nAllow: /private/ok$\nCrawl-delay: 2\nSitemap: https://example.com/sitemap.xml\nNoindex: /x\n")
			return
		}
		http.NotFound(w, r)
	})
	type report struct {
		RobotsURL string `json:"robots_url"`
		Groups    []struct {
			UserAgents []string `json:"user_agents"`
		} `json:"groups"`
		Sitemaps    []string             `json:"sitemaps"`
		Warnings    []struct{ Line int } `json:"warnings"`
		Allowed     *bool                `json:"allowed"`
		Blanket     string               `json:"blanket"`
		FetchError  string               `json:"fetch_error"`
		MatchedRule *struct {
			Directive string `json:"directive"`
			Pattern   string `json:"pattern"`
			Line      int    `json:"line"`
		} `json:"matched_rule"`
		CrawlDelay *float64 `json:"crawl_delay_seconds"`
	}
	var rep report
	e.want(e.call("POST", "/v1/intel/robots", key, map[string]any{"url": site + "/private/a", "user_agent": "MyBot/1.0"}), 200).json(t, &rep)
	if rep.RobotsURL != site+"/robots.txt" || len(rep.Groups) != 1 || len(rep.Sitemaps) != 1 || len(rep.Warnings) != 1 || rep.Warnings[0].Line != 6 {
		t.Fatalf("fetched: %+v", rep)
	}
	if rep.Allowed == nil || *rep.Allowed || rep.MatchedRule == nil || rep.MatchedRule.Pattern != "/private/" || rep.MatchedRule.Line != 2 || rep.CrawlDelay == nil || *rep.CrawlDelay != 2 {
		t.Fatalf("decision: %+v rule %+v", rep, rep.MatchedRule)
	}
	// Inline, the longest match deciding, allow on the exact path.
	rep = report{}
	e.want(e.call("POST", "/v1/intel/robots", key, map[string]any{"robots_txt": "User-agent: *\nDisallow: /private/\nAllow: /private/ok$\n", "url": "https://example.com/private/ok", "user_agent": "x"}), 200).json(t, &rep)
	if rep.RobotsURL != "" || !*rep.Allowed || rep.MatchedRule.Directive != "allow" || rep.MatchedRule.Line != 3 {
		t.Fatalf("inline: %+v rule %+v", rep, rep.MatchedRule)
	}
	// Nothing matched: allowed, matched_rule null.
	r := e.want(e.call("POST", "/v1/intel/robots", key, map[string]any{"robots_txt": "User-agent: *\nDisallow: /private/\n", "url": "https://example.com/", "user_agent": "x"}), 200)
	if !strings.Contains(string(r.body), `"matched_rule":null`) {
		t.Fatalf("no match: %s", r.body)
	}
	// An unreachable site disallows all; a refused URL and no input are errors, uncharged.
	rep = report{}
	e.want(e.call("POST", "/v1/intel/robots", key, map[string]any{"url": refusedURL(t) + "/", "user_agent": "x"}), 200).json(t, &rep)
	if rep.Blanket != "disallow_all" || rep.FetchError == "" || *rep.Allowed {
		t.Fatalf("unreachable: %+v", rep)
	}
	for _, body := range []map[string]any{{}, {"url": "ftp://example.com/"}} {
		r := e.want(e.call("POST", "/v1/intel/robots", key, body), 422)
		if !strings.Contains(r.detail(t), "body.url") || r.header.Get("X-Credits-Charged") != "0" {
			t.Fatalf("%v: %q", body, r.detail(t))
		}
	}
}

func TestAIBotAllowlist(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	key := e.signup("aibots@example.com")
	var rep struct {
		Crawlers []struct {
			Name      string `json:"name"`
			Allowed   bool   `json:"allowed"`
			DecidedBy string `json:"decided_by"`
		} `json:"crawlers"`
		Blocked         int `json:"blocked"`
		BlockedTraining int `json:"blocked_training"`
	}
	e.want(e.call("POST", "/v1/aeo/ai-bot-allowlist", key, map[string]any{"robots_txt": "User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /\n", "url": "https://example.com/a"}), 200).json(t, &rep)
	if len(rep.Crawlers) != 14 || rep.Blocked != 2 || rep.BlockedTraining != 2 || rep.Crawlers[0].Name != "GPTBot" || rep.Crawlers[0].Allowed || rep.Crawlers[0].DecidedBy != "named" {
		t.Fatalf("report %+v", rep)
	}
	site := newHTTPServer(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	e.want(e.call("POST", "/v1/aeo/ai-bot-allowlist", key, map[string]any{"url": site + "/"}), 200).json(t, &rep)
	if rep.Blocked != 14 {
		t.Fatalf("a 503 robots.txt blocks all: %+v", rep)
	}
}
