// Package crawl crawls websites: from seed URLs it follows links on the
// seeds' sites, obeying robots.txt, at a bounded rate per host, and returns
// every page as Markdown, HTML or both. It is the capability behind
// POST /v1/crawl, which the server runs as an asynchronous job (with an
// optional webhook); Request is that endpoint's JSON body and Result its
// result.
//
//	f, err := fetch.New(nil)
//	if err != nil { ... }
//	res, err := crawl.Crawl(ctx, f, crawl.Request{Seeds: []string{"https://example.com/"}, MaxPages: 50}, nil)
//
// # What is crawled
//
//   - Scope: same-site by default. A site is a host and a port (the
//     scheme's default port is ignored, so http and https of one host are
//     one site); every seed's site is in scope. AllowSubdomains widens each
//     site to its subdomains (after dropping a leading "www.").
//   - Include and Exclude are Go regular expressions matched against each
//     discovered URL (links and sitemap entries); seeds are always crawled.
//   - MaxDepth bounds link hops from a seed (seeds and sitemap URLs are
//     depth 0). Depth is the hop count of the path the crawl found first,
//     which is not always the shortest one.
//   - MaxPages is enforced exactly: at most MaxPages requests for pages are
//     made (robots.txt and sitemap files are not pages), failed ones
//     included, and Result.Truncated says whether more were waiting.
//   - Every URL is requested at most once: URLs are deduplicated after
//     resolution and without their fragment, and a redirect's target
//     counts as visited.
//   - robots.txt is obeyed unless IgnoreRobots is set, for the group that
//     matches the crawler's product token (webinfra-crawler by default,
//     see Options.UserAgent), as package fetch/robots reads it (RFC 9309
//     as Google does). The Crawl-delay set for that token lowers its
//     host's rate to one request per delay (capped at 30 s), below
//     rate_per_host and even in an Unthrottled crawl.
//   - Sitemap adds the URLs of each seed site's sitemaps (robots.txt
//     Sitemap: lines and /sitemap.xml, following sitemap index files and
//     gzipped sitemaps) as depth-0 seeds, subject to scope and filters.
//
// # Politeness and safety
//
// Requests to one host are limited to Options.Parallelism in flight (4)
// and RatePerHost per second (10, a token bucket). Every request goes
// through the fetcher's SSRF-guarded transport (fetch.Fetcher.Client), so
// the guard checks every connection, redirect hops included; a seed the
// guard forbids fails the whole crawl with errs.KindForbidden before any
// request is made. robots.txt and sitemaps are fetched with Fetcher.Fetch
// and its caps. A page body is read up to fetch.DefaultMaxBodyBytes after
// decoding (the rest is dropped), and each request is timed out after the
// fetcher's timeout, counted from when it is sent, not from when it was
// queued.
//
// # The frontier
//
// Scheduling, deduplication, depth tracking, HTML parsing and charset
// detection are done by colly (github.com/gocolly/colly/v2), running
// asynchronously; the crawler keeps its own set of claimed URLs as well,
// since colly's visited check (a test, then a set) lets two goroutines
// through for one URL now and then. colly stays behind this package's API,
// which exposes no colly type: scope, filters, robots.txt, sitemaps, the
// claimed set, the page budget, rate limits and results are the package's
// own (only colly.go knows colly), so a distributed frontier (a shared
// queue and visited set) can replace colly without changing Request,
// Result or Crawl.
package crawl
