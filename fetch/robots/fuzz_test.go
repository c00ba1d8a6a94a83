package robots

import (
	"math/rand/v2"
	"testing"
)

// referenceMatches is pattern matching done the plain way, as Google's
// parser does it: the set of path offsets the pattern read so far can end
// at, advanced one pattern octet at a time. matches must agree with it.
func referenceMatches(pattern, path string) bool {
	reach := make([]bool, len(path)+1)
	reach[0] = true
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '$' && i == len(pattern)-1 {
			return reach[len(path)]
		}
		next := make([]bool, len(path)+1)
		found := false
		for j := range reach {
			switch {
			case !reach[j]:
			case c == '*':
				for k := j; k <= len(path); k++ {
					next[k] = true
				}
				found = true
			case j < len(path) && path[j] == c:
				next[j+1] = true
				found = true
			}
		}
		if !found {
			return false
		}
		reach = next
	}
	return true
}

// TestMatchesReference: matches agrees with referenceMatches on random
// patterns and paths over a small alphabet (where they overlap most).
func TestMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(alphabet string, n int) string {
		b := make([]byte, rng.IntN(n+1))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 200000 {
		pattern, path := random("ab*$", 8), "/"+random("ab$", 10)
		if rng.IntN(2) == 0 {
			pattern = "/" + pattern
		}
		if got, want := matches(pattern, path), referenceMatches(pattern, path); got != want {
			t.Fatalf("matches(%q, %q) = %v, want %v", pattern, path, got, want)
		}
	}
}

// FuzzParse: any status, body, agent and URL give an answer without a
// panic; a 4xx but 429 allows everything, a 5xx forbids everything but
// /robots.txt (RFC 9309 §2.3.1); the deciding rule agrees with the
// decision; and matches agrees with referenceMatches on the file's
// patterns.
func FuzzParse(f *testing.F) {
	f.Add(200, []byte("User-agent: *\nDisallow: /private\nAllow: /private/ok$\n"), "webinfra", "/private/x")
	f.Add(200, []byte("user-agent: webinfra\ndisallow: /*.pdf$\n\nsitemap: https://example.com/s.xml"), "WebInfra/1.0", "https://example.com/a.pdf")
	f.Add(200, []byte("\xEF\xBBuser agent FooBot\r\ndissallow /a*b*$\rallow: /é%2f\n"), "Mozilla/5.0 (compatible; FooBot/2.1)", "//h/ab?x#y")
	f.Add(200, []byte("user-agent: *\ncrawl-delay: 1.5\nallow: /a/index.html\ndisallow: /"), "bot", "/a/")
	f.Add(404, []byte("garbage"), "*", "/")
	f.Add(429, []byte(""), "bot", "/anything")
	f.Add(503, []byte(""), "bot", "/anything")
	f.Fuzz(func(t *testing.T, status int, body []byte, agent, rawURL string) {
		r := FromStatus(status, body)
		d := r.Test(agent, rawURL)
		path := requestPath(rawURL)
		robotsTxt := path == "/robots.txt" || len(path) > 12 && path[:12] == "/robots.txt?"
		switch {
		case status >= 400 && status < 500 && status != 429 && !d.Allowed:
			t.Fatalf("status %d disallowed %q", status, rawURL)
		case (status >= 500 || status == 429) && d.Allowed && !robotsTxt:
			t.Fatalf("status %d allowed %q", status, rawURL)
		case d.MatchedRule != nil && d.Allowed != (d.MatchedRule.Directive == Allow):
			t.Fatalf("allowed %v by %+v", d.Allowed, *d.MatchedRule)
		}
		r.CrawlDelay(agent)
		checked := 0
		for _, g := range r.Groups {
			for _, rule := range g.Rules {
				if checked++; checked > 64 {
					return
				}
				if got, want := matches(rule.Pattern, path), referenceMatches(rule.Pattern, path); got != want {
					t.Fatalf("matches(%q, %q) = %v, want %v", rule.Pattern, path, got, want)
				}
			}
		}
	})
}
