// Package citation scores, mechanically and without a language model, how
// ready a page is to be cited by an answer engine: 0-100 from seven
// components, each 0-100 with a weight. It backs
// POST /v1/aeo/citation-readiness: Input is the body, Report the answer.
//
//	r, err := citation.Check(ctx, citation.Input{HTML: page, URL: pageURL}, nil)
//	fmt.Println(r.Score, r.Recommendations)
//
// The text scored is the article as extract/content finds it (fast mode
// unless Options.ContentMode says otherwise, or the caller's own
// extraction in Options.Page), or the page's visible text when it finds
// none (TextSource says which).
//
// # Components
//
//	component            weight  scored from
//	statistics           20      numbers: half for statistics (5 for full marks), half for density (1.5 numbers per 100 words)
//	entities             15      named-entity candidates: half for distinct ones (10), half for mentions per 100 words (2)
//	authoritative_links  20      authoritative outbound links: 1: 50, 2: 75, 3+: 100; none but other outbound links: 10 or 20 (3+)
//	author               15      a byline and a machine-readable author 100, one of byline or schema author 70, meta author only 40
//	last_updated         10      an in-page update date 100, only a publication date 70, only Last-Modified or a copyright year 30
//	content_length       10      words: 0 under 100, 40 at 300, 75 at 800, 100 from 1,500 (linear between)
//	quotes               10      blockquotes, <q>, <cite>, footnote links and quoted passages: 1: 50, 2: 75, 3+: 100
//
// Numbers: a number with a currency sign, a percent or a magnitude word
// (million...), a decimal or a thousands separator is a statistic; bare
// years (1900-2099) and digits inside words (COVID-19, 4K) are not
// numbers.
//
// Named entities are a mechanical proxy, not recognition: runs of two or
// more capitalised words (joined by of, the, for, van, de...) that do not
// open a sentence (an opening word is dropped from the run), and acronyms
// of 2 to 6 capitals or digits. It is tuned for English: it misses
// single-word names (Paris) and over-counts in languages that capitalise
// every noun.
//
// Authoritative links are outbound links (another registrable domain than
// the page's, by the public suffix list; the page is Input.URL, else its
// canonical URL) in the article to: a .gov, .mil, .edu or .int host; a
// country's government or academic second level (gov.uk, gouv.fr, gob.mx,
// govt.nz, go.jp, ac.uk, edu.au...); or a domain of AuthoritativeDomains
// (doi.org, arxiv.org, nature.com, who.int, wikipedia.org, w3.org,
// reuters.com...). A link marked as a citation counts too whatever its
// domain: rel=cite, inside <cite>, or the cite attribute of a blockquote
// or q.
//
// The last-updated component reads aeo/freshness's signals (the page
// extracted once serves both). The author is extract/content's byline
// (read from the page, or from its metadata when the page shows none),
// the JSON-LD or microdata author's name, and <meta name=author>.
//
// Recommendations name the components under 70, the most points lost
// first, at most four, each with what to do.
package citation
