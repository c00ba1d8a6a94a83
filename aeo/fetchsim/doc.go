// Package fetchsim fetches a page as AI crawlers do and as a browser
// does, and compares: what each crawler gets (status, final URL, bytes,
// visible words, a text preview, time), which crawlers are blocked, which
// get a different page than people (cloaking), and whether the page
// needs JavaScript, which none of these crawlers run. It backs
// POST /v1/aeo/llm-fetch-simulator.
//
// The eleven agents (Agents), with the User-Agent header each operator
// publishes; name, robots.txt token, operator and purpose come from
// aeo/aibots:
//
//	GPTBot              Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot
//	OAI-SearchBot       Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot
//	ChatGPT-User        Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot
//	ClaudeBot           Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)
//	Claude-User         Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)
//	PerplexityBot       Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)
//	Perplexity-User     Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)
//	CCBot               CCBot/2.0 (https://commoncrawl.org/faq/)
//	Bytespider          Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)
//	Amazonbot           Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)
//	Meta-ExternalAgent  meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)
//
// Google-Extended and Applebot-Extended are robots.txt tokens, not
// agents that fetch (Googlebot and Applebot do the fetching), so they are
// not simulated; Claude-SearchBot is left out because no full User-Agent
// string for it is published. The baseline is desktop Chrome
// (BrowserUserAgent).
//
// # How it fetches
//
// Every fetch goes through fetch.Fetcher.Fetch with the direct tier (no
// JavaScript, like the crawlers), the agent's User-Agent header, and the
// fetcher's SSRF guard, timeouts and body caps. Fetch never answers from
// the scrape cache (only Scrape reads it, and its key includes the
// headers), so no agent is served another's page and nothing needs
// bypassing. At most Options.Parallelism (default 4, at most 13) fetches
// run at once, on an errgroup with SetLimit; cancelling the context
// stops them.
//
// # Detection
//
//   - blocked: the fetcher saw a bot wall or challenge (fetch's own
//     detection: Cloudflare, DataDome, PerimeterX, Imperva, Akamai,
//     captchas; the fetch then fails with errs.KindBlocked), or the agent
//     got HTTP 401, 403 or 429, or an error status where the browser got
//     none, or no answer where the browser got one;
//   - cloaking: an agent that is not blocked gets another status, another
//     final URL, or visible text whose similarity to the browser's is
//     under 0.6 (Options.SimilarityThreshold). The similarity is the
//     Jaccard index of the two texts' sets of word 3-shingles (lower case,
//     split at anything but letters and digits; single words when a text
//     has fewer than three), so reordered boilerplate or a changed date
//     barely moves it and a different article drops it near 0;
//   - JavaScript-only: the browser's HTML (2xx) shows under 50 words of
//     visible text while it holds executable scripts or a framework's
//     mount point (id root, app, __next, __nuxt, ___gatsby, svelte,
//     main-app). With compare_render and a render tier, the page is also
//     rendered in the browser: rendered_words confirms the verdict (a page
//     as thin once rendered is thin, not JavaScript-only), and a page
//     whose rendered text is over twice its HTML's (plus 100 words) gets a
//     js_dependent_content warning.
//
// Findings: agent_blocked (error), cloaking (warning), js_only (error),
// js_dependent_content (warning), baseline_blocked (warning),
// baseline_failed (error).
package fetchsim
