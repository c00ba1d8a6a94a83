// Package freshness scores how fresh a page looks, 0-100, from every date
// it states: it backs POST /v1/aeo/freshness-signal. Input is the body,
// Report the answer.
//
//	r, err := freshness.Check(ctx, freshness.Input{HTML: page, Header: resp.Header}, nil)
//	fmt.Println(r.Score, r.MostRecent.Date, len(r.Inconsistencies))
//
// # Signals
//
// Every signal is reported with its source, the raw value, the date read
// and its age in days:
//
//   - json_ld: dateModified and datePublished of the JSON-LD items and the
//     objects two levels inside them (WebPage.mainEntity), not of
//     reviews, comments or citations; with the JSON path;
//   - microdata: itemprop dateModified and datePublished;
//   - meta: the modified and published <meta> dates extract/structured
//     picks (article:modified_time, og:updated_time, article:published_time,
//     dcterms.modified, date...);
//   - http_header: Last-Modified, from Input.LastModified or Input.Header;
//   - visible_text: a date after "Last updated", "Updated", "Modified",
//     "Reviewed", "Revised" (modified) or "Published", "Posted"
//     (published) in the visible text, within a few words: "March 3,
//     2024", "3 March 2024", "2024-03-03", "3/14/2024" (month first unless
//     impossible), "14.03.2024" (day first), "today", "yesterday", "3 days
//     ago", "5 years, 1 month ago"; and <time datetime> elements so labelled (or with an itemprop
//     or class saying updated, modified or published), whose datetime wins
//     over their text. extract/content reads such dates too but does not
//     export its reader, hence textdate.go;
//   - copyright: the newest year of "© 2019–2024", "Copyright 2024" or
//     "2024 ©" in the page's footers (<footer>, role=contentinfo, an id or
//     class naming a footer), else in the end of its text.
//
// Metadata dates are read as ISO 8601 (seo/schema.ParseDate), then in the
// other forms pages use (RFC 1123, 2024/05/01...). A value that cannot be
// read is still listed, without a date.
//
// # Score
//
// The score is the age of the newest date the page itself states (JSON-LD,
// microdata, meta or visible text; not in the future) on this curve,
// linear between the points:
//
//	age (days)  ≤30   90   180   365   730+
//	score       100   85   70    50    0
//
// Without an in-page date, the Last-Modified header alone scores on the
// same curve capped at 60 (servers often send the time of serving), and a
// copyright year alone (dated 31 December) capped at 30. No dated signal
// at all scores 0, with the reason. Each inconsistency then costs 5 points,
// 15 at most. Report.Reason says how the score was reached; Basis is the
// signal it rests on; MostRecent the newest dated signal of any source.
//
// # Inconsistencies
//
//   - modified_before_published: one JSON-LD object, the microdata or the
//     meta tags date the modification before the publication;
//   - json_ld_meta_disagree: the first JSON-LD dateModified (or
//     datePublished) and the meta one are more than a day apart;
//   - last_modified_far_newer: Last-Modified is more than 90 days after
//     every in-page date (the page is regenerated while its dates stay);
//   - copyright_outdated: the copyright year is before the newest date's;
//   - future_date: a date more than a day after now.
//
// Input.Now is the clock (time.Now when zero), so tests are exact.
// Options.Page lets a caller that already parsed and extracted the page
// (the page audit) share it; aeo/citation does.
//
// At most 20 signals per source are kept, the first 512 KiB of visible
// text and 200,000 elements are read; Truncated says when.
package freshness
