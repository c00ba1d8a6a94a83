package aibots

import (
	"strconv"
	"testing"

	"github.com/webinfra/webinfra/fetch/robots"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	r := robots.Parse([]byte(`User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: ClaudeBot
Allow: /blog/
Disallow: /

User-agent: *
Disallow: /private/
`))
	cases := []struct {
		path, crawler string
		allowed       bool
		decidedBy     string
		rule          string // "directive pattern line", or "" for none
	}{
		{"/", "GPTBot", false, "named", "disallow / 3"},
		{"/", "CCBot", false, "named", "disallow / 3"},
		{"/blog/herons", "ClaudeBot", true, "named", "allow /blog/ 6"},
		{"/about", "ClaudeBot", false, "named", "disallow / 7"},
		{"/about", "PerplexityBot", true, "wildcard", ""},
		{"/private/x", "Meta-ExternalAgent", false, "wildcard", "disallow /private/ 10"},
		{"https://example.com/private/x?y=1", "Amazonbot", false, "wildcard", "disallow /private/ 10"},
	}
	for _, c := range cases {
		rep := Check(r, c.path)
		if len(rep.Crawlers) != 14 || rep.Allowed+rep.Blocked != 14 {
			t.Fatalf("%s: %d crawlers, %d+%d", c.path, len(rep.Crawlers), rep.Allowed, rep.Blocked)
		}
		for _, v := range rep.Crawlers {
			if v.Name != c.crawler {
				continue
			}
			rule := ""
			if v.MatchedRule != nil {
				rule = string(v.MatchedRule.Directive) + " " + v.MatchedRule.Pattern + " " + strconv.Itoa(v.MatchedRule.Line)
			}
			if v.Allowed != c.allowed || v.DecidedBy != c.decidedBy || rule != c.rule {
				t.Errorf("%s %s: allowed %v by %s rule %q; want %v by %s rule %q", c.path, c.crawler, v.Allowed, v.DecidedBy, rule, c.allowed, c.decidedBy, c.rule)
			}
		}
	}
	if rep := Check(r, "/"); rep.BlockedTraining != 3 || rep.Path != "/" {
		t.Errorf("blocked training %d (GPTBot, CCBot, ClaudeBot), path %q", rep.BlockedTraining, rep.Path)
	}
	for _, tc := range []struct {
		r       *robots.Robots
		allowed bool
		by      string
	}{{robots.FromStatus(404, nil), true, "blanket"}, {robots.FromStatus(503, nil), false, "blanket"}, {robots.Parse(nil), true, "none"}} {
		rep := Check(tc.r, "/x")
		for _, v := range rep.Crawlers {
			if v.Allowed != tc.allowed || v.DecidedBy != tc.by {
				t.Fatalf("status %d: %s allowed %v by %s", tc.r.Status, v.Name, v.Allowed, v.DecidedBy)
			}
		}
	}
}
