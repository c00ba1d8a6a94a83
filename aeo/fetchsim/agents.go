package fetchsim

import (
	"fmt"

	"github.com/webinfra/webinfra/aeo/aibots"
)

// Agent is an AI crawler that fetches pages, with the User-Agent header
// its operator publishes. Name, robots token, operator and purpose are
// aeo/aibots' record of the crawler.
type Agent struct {
	aibots.Crawler
	UserAgent string `json:"user_agent" doc:"The User-Agent header sent, as the operator publishes it."`
}

// BrowserUserAgent is the baseline's User-Agent: desktop Chrome on
// Windows, in the reduced form Chrome sends.
const BrowserUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36"

// BrowserName names the baseline in reports.
const BrowserName = "Browser (Chrome)"

// Agents are the eleven crawlers simulated, in report order. Robots-only
// tokens (Google-Extended, Applebot-Extended) are not agents that fetch,
// and Claude-SearchBot is left out because Anthropic publishes no full
// User-Agent string for it.
var Agents = []Agent{
	agent("GPTBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot"),
	agent("OAI-SearchBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"),
	agent("ChatGPT-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"),
	agent("ClaudeBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"),
	agent("Claude-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)"),
	agent("PerplexityBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)"),
	agent("Perplexity-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)"),
	agent("CCBot", "CCBot/2.0 (https://commoncrawl.org/faq/)"),
	agent("Bytespider", "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"),
	agent("Amazonbot", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)"),
	agent("Meta-ExternalAgent", "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)"),
}

// agent pairs a crawler of aibots.Crawlers, by name, with its User-Agent.
func agent(name, userAgent string) Agent {
	for _, c := range aibots.Crawlers {
		if c.Name == name {
			return Agent{Crawler: c, UserAgent: userAgent}
		}
	}
	panic(fmt.Sprintf("fetchsim: %q is not in aibots.Crawlers", name))
}
