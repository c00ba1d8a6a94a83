// Package pageinfo reads what a fetched page says about itself and the
// software behind it. It backs POST /v1/intel/page: the server fetches the
// URL with its SSRF-guarded fetcher and passes the answer (FromResponse)
// to Analyze, a pure function that fetches nothing and never fails.
//
//	rep := pageinfo.Analyze(pageinfo.FromResponse(res), nil)
//	fmt.Println(rep.Title, rep.Language, rep.Technologies)
//
// # What is read
//
//   - title, description (meta, else og:description), canonical, meta
//     robots, and every <meta name=generator>;
//   - language: <html lang>, else the Content-Language header (or its
//     http-equiv meta), else og:locale; each signal is kept as written;
//   - technologies, from one rules table (rules.go): headers (Server,
//     X-Powered-By, CDN and host headers such as CF-Ray, X-Amz-Cf-Id,
//     X-Vercel-Id), Set-Cookie names, meta tags, script, stylesheet and
//     iframe URLs, inline code and markup (ids, attributes, custom
//     elements, class names). Every rule is specific to its technology;
//     each technology lists the evidence that matched and its version when
//     a signal shows it, and brings the ones it implies (WordPress: PHP;
//     Next.js: React) with "implied by" as evidence;
//   - server headers (server, x_powered_by, cache and CDN headers);
//   - counts of links (internal, external, other; nofollow, sponsored,
//     ugc; distinct hosts), images and those without alt, scripts,
//     style sheets, headings (with the h1 texts) and visible words;
//   - structured data, read by package extract/structured: the
//     schema.org types of the JSON-LD, microdata and RDFa items (nested
//     ones included), block and item counts, OpenGraph and Twitter cards;
//   - hreflang alternates, feeds and the favicon.
//
// # Limits
//
// The first Options.MaxHTMLBytes (10 MiB) of the page are parsed; lists
// are capped (500 script, stylesheet and iframe URLs kept for matching,
// 1 MiB of inline code, 200 hreflang links and feeds, 200 types, 10 h1
// texts) and evidence quotes at most 160 bytes of what it saw. A body
// that is empty, or that the HTML parser refuses (elements nested more
// than 512 deep), leaves only the header facts, with a note saying so.
package pageinfo
