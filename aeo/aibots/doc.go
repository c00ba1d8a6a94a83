// Package aibots answers which AI crawlers a site's robots.txt lets in:
// for each of fourteen named crawlers, allowed or blocked for a page, with
// the rule that decided (package fetch/robots, RFC 9309 as Google reads
// it) and whether a group names the crawler or the "*" group decided.
//
// The crawlers and the robots.txt product tokens they obey, as their
// operators document them:
//
//	GPTBot              OpenAI      training
//	OAI-SearchBot       OpenAI      search
//	ChatGPT-User        OpenAI      user fetch
//	ClaudeBot           Anthropic   training
//	Claude-SearchBot    Anthropic   search
//	Claude-User         Anthropic   user fetch
//	Google-Extended     Google      training (Gemini); Googlebot still crawls
//	Applebot-Extended   Apple       training; Applebot still crawls
//	PerplexityBot       Perplexity  search
//	Perplexity-User     Perplexity  user fetch
//	CCBot               Common Crawl training (open corpus)
//	Bytespider          ByteDance   training
//	Meta-ExternalAgent  Meta        training
//	Amazonbot           Amazon      search and training
//
// "User fetch" agents act for a person who asked an assistant to read the
// page; some operators say those do not obey robots.txt, which the report
// notes but does not assume.
package aibots
