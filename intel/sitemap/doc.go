// Package sitemap reads a site's sitemaps whole, under caps, and reports
// what they list and what is wrong with them. It backs
// POST /v1/intel/sitemap.
//
//	rep, err := sitemap.Read(ctx, fetcher, sitemap.Input{URL: "https://example.com/"}, nil)
//
// # Finding the sitemaps
//
// Input.URL names a sitemap (its last path segment contains "sitemap",
// ends in .xml, .gz, .txt, .rss or .atom, or is feed, rss or atom), or any
// page of a site. For a page, the Sitemap: lines of the site's robots.txt
// are read (fetch.Fetcher.Robots), else /sitemap.xml, else
// /sitemap_index.xml. Every file is fetched with the fetcher's direct tier:
// its SSRF guard on every hop, its timeouts and body caps.
//
// # Reading them
//
// Decode reads one file, streamed: gzip by its magic bytes (a .xml.gz
// served without Content-Encoding; Content-Encoding is undone by the
// fetcher), then a <urlset>, a <sitemapindex>, an RSS 2.0 or Atom feed
// (item and entry links, pubDate/updated as lastmod), or a text sitemap
// (one URL per line). Image, news and video extensions are counted per
// URL. Read follows indexes breadth first, each file once, and stops at
// the caps: Options.MaxSitemaps files (50), Options.MaxDepth levels of
// nesting (3), Options.MaxFileBytes per file once decompressed (50 MiB)
// and Options.MaxURLsPerFile entries per file (50,000), both the
// sitemaps.org limits, Options.MaxTotalURLs entries in all (500,000) and
// Options.Timeout for the whole read (2 minutes). Report.Truncated says
// which cap cut the reading short. Every URL is counted once (by a 64-bit
// hash); the first Input.MaxURLs (1000, at most 50,000) are listed.
//
// # Problems
//
// At most one problem per code and file, with a count and an example:
//
//	unreachable         the file could not be fetched, or answered other than 2xx
//	not_sitemap         the file is an HTML page, another XML document, or text that is not URLs
//	not_xml             the XML or the gzip is broken (entries before the fault are kept)
//	empty_sitemap       the file lists nothing
//	too_large           over 50 MiB once decompressed (MaxFileBytes); the rest not read
//	too_many_urls       over 50,000 entries (MaxURLsPerFile); the rest not read
//	invalid_url         entries that are not absolute http(s) URLs of at most 2,048 characters
//	duplicate_url       URLs listed before, in this file or another
//	off_host            URLs on another host than the sitemap's (sitemaps.org: allowed only when
//	                    that host's robots.txt lists the sitemap, which Read takes into account)
//	invalid_lastmod     lastmod values that are not W3C Datetime (feeds: RFC 822 dates too)
//	future_lastmod      lastmod values more than a day ahead
//	invalid_priority    priority values that are not a number from 0.0 to 1.0
//	invalid_changefreq  changefreq values that are not always … never
//	nested_index        an index listed by an index, which sitemaps.org does not allow
//	sitemap_cycle       an index lists itself or an index above it
//	repeated_sitemap    a sitemap listed again elsewhere (read once)
//	too_deep            sitemaps below the nesting cap (MaxDepth), not read
//	too_many_sitemaps   more files than MaxSitemaps, the rest not read
//	total_cap           reading stopped at MaxTotalURLs entries
//	time_budget         reading stopped when Options.Timeout ran out
//
// # Errors
//
// Only what leaves nothing to report is an error: a bad url or max_urls
// (errs.KindInvalid), no sitemap found at all (errs.KindNotFound, naming
// each URL tried and its answer), an SSRF refusal of the site
// (errs.KindForbidden), a site that does not answer at all (the fetcher's
// errs.KindUpstream error), or the time budget spent before any sitemap
// was read (errs.KindTimeout).
package sitemap
