// Package pageaudit is the AEO page audit: nine probes of one page, run in
// parallel, folded into one 0-100 score, five category scores, the top
// issues and recommendations ranked by the points they would win.
//
// The page is fetched once (through the fetcher: SSRF guard, cascade,
// cache), parsed and extracted once, and every probe that reads the page
// shares that work. The probes and their categories (weights in brackets):
//
//	access (25)          ai_bots: robots.txt lets AI search and user agents in (aeo/aibots)
//	                     fetch_simulation: AI crawlers get the page a browser gets (aeo/fetchsim)
//	                     llms_txt: the site's /llms.txt (aeo/llmstxt)
//	structure (20)       headings: the heading outline (aeo/headings)
//	                     snippet_format: answer-shaped blocks (aeo/snippetformat)
//	markup (20)          schema_coverage: the 12 AEO-critical schema types (aeo/schemacov)
//	                     meta: title, description, canonical… (seo/htmlaudit.Meta)
//	authority (20)       citation: citation readiness (aeo/citation)
//	freshness (15)       freshness: the page's dates (aeo/freshness)
//
// A category's score is the mean of its probes'; the page's score is the
// weighted mean of the categories. A probe that fails (llms.txt
// unreachable, say) scores 0 with its error. Each recommendation names the
// probe to improve and the overall points a perfect score there would add:
// category weight × (100 − probe score) / 100 / probes in the category.
package pageaudit
