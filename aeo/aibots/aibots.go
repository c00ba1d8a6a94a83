package aibots

import (
	"github.com/webinfra/webinfra/fetch/robots"
)

// Crawler is one AI crawler and the robots.txt token it obeys.
type Crawler struct {
	Name     string `json:"name" example:"GPTBot"`
	Token    string `json:"token" doc:"The robots.txt product token the crawler matches its group by." example:"GPTBot"`
	Operator string `json:"operator" example:"OpenAI"`
	Purpose  string `json:"purpose" enum:"training,search,user_fetch,search_and_training" doc:"What the operator says the crawler fetches for."`
}

// Crawlers are the fourteen crawlers checked, in the order reported.
var Crawlers = []Crawler{
	{"GPTBot", "GPTBot", "OpenAI", "training"},
	{"OAI-SearchBot", "OAI-SearchBot", "OpenAI", "search"},
	{"ChatGPT-User", "ChatGPT-User", "OpenAI", "user_fetch"},
	{"ClaudeBot", "ClaudeBot", "Anthropic", "training"},
	{"Claude-SearchBot", "Claude-SearchBot", "Anthropic", "search"},
	{"Claude-User", "Claude-User", "Anthropic", "user_fetch"},
	{"Google-Extended", "Google-Extended", "Google", "training"},
	{"Applebot-Extended", "Applebot-Extended", "Apple", "training"},
	{"PerplexityBot", "PerplexityBot", "Perplexity", "search"},
	{"Perplexity-User", "Perplexity-User", "Perplexity", "user_fetch"},
	{"CCBot", "CCBot", "Common Crawl", "training"},
	{"Bytespider", "Bytespider", "ByteDance", "training"},
	{"Meta-ExternalAgent", "meta-externalagent", "Meta", "training"},
	{"Amazonbot", "Amazonbot", "Amazon", "search_and_training"},
}

// Verdict is one crawler's answer.
type Verdict struct {
	Crawler
	Allowed bool `json:"allowed"`
	// DecidedBy says where the decision came from: "named" when a group
	// names the crawler's token, "wildcard" when the "*" group applies,
	// "none" when no group applies (everything allowed), "blanket" when
	// the robots.txt status decided for every URL.
	DecidedBy   string       `json:"decided_by" enum:"named,wildcard,none,blanket"`
	MatchedRule *robots.Rule `json:"matched_rule" doc:"The rule that decided: directive, pattern and line; null when no rule matched."`
}

// Report is the answer for one page.
type Report struct {
	Path     string    `json:"path" doc:"The path (and query) checked, as robots.txt rules see it." example:"/"`
	Crawlers []Verdict `json:"crawlers"`
	Allowed  int       `json:"allowed" doc:"How many of the crawlers may fetch the path."`
	Blocked  int       `json:"blocked" doc:"How many may not."`
	// BlockedTraining and AllowedSearch sum up the usual policy question:
	// kept out of training, still found by AI search.
	BlockedTraining int `json:"blocked_training" doc:"Crawlers with purpose training that are blocked."`
	AllowedSearch   int `json:"allowed_search" doc:"Crawlers with purpose search (or search_and_training) that are allowed."`
}

// Check decides, for every crawler of Crawlers, whether r lets it fetch
// pageURL (an absolute URL or a path; "" means "/").
func Check(r *robots.Robots, pageURL string) *Report {
	if pageURL == "" {
		pageURL = "/"
	}
	rep := &Report{Path: robots.RequestPath(pageURL)}
	hasWildcard := false
	for _, g := range r.Groups {
		for _, ua := range g.UserAgents {
			hasWildcard = hasWildcard || ua == "*"
		}
	}
	for _, c := range Crawlers {
		d := r.Test(c.Token, pageURL)
		v := Verdict{Crawler: c, Allowed: d.Allowed, MatchedRule: d.MatchedRule}
		switch {
		case r.Blanket != "":
			v.DecidedBy = "blanket"
		case r.NamesAgent(c.Token):
			v.DecidedBy = "named"
		case hasWildcard:
			v.DecidedBy = "wildcard"
		default:
			v.DecidedBy = "none"
		}
		rep.Crawlers = append(rep.Crawlers, v)
		if v.Allowed {
			rep.Allowed++
			if c.Purpose == "search" || c.Purpose == "search_and_training" {
				rep.AllowedSearch++
			}
		} else {
			rep.Blocked++
			if c.Purpose == "training" {
				rep.BlockedTraining++
			}
		}
	}
	return rep
}
