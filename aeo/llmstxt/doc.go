// Package llmstxt audits a site's /llms.txt, the markdown index the
// llms.txt proposal (https://llmstxt.org) asks sites to publish for
// language models. It backs POST /v1/aeo/llms-txt-audit.
//
// Audit fetches <origin>/llms.txt (or the URL given, when its file name is
// llms.txt) with the fetcher's direct tier and reports:
//
//   - structure (Parse), as the proposal lays the file out: an H1 with the
//     project's or site's name, first (the one required part); a
//     blockquote summary; optional free text; H2 sections that are
//     markdown lists of links, "- [name](url): notes"; a section titled
//     "Optional" for links an agent may skip. Each problem carries its
//     line: content_before_h1, missing_h1, empty_h1, multiple_h1,
//     missing_summary, no_sections, empty_section, duplicate_section,
//     deep_heading (H3-H6), text_in_section, malformed_link,
//     empty_link_name, invalid_url, relative_url, duplicate_link;
//   - section coverage: each section with its line and link count, and
//     whether the Optional section exists;
//   - the file itself (line 0): not_found (404/410), not_available (other
//     non-2xx), html_served (an HTML page, often a catch-all answering 200),
//     empty_file, wrong_content_type (not text/plain or text/markdown),
//     large_file (over 100 KiB), no_llms_full_txt;
//   - link rot: the first max_links (at most 50) distinct link URLs are
//     probed in parallel with linkcheck.Probe (HEAD, GET fallback, per-host
//     politeness, time budget: see seo/linkcheck), broken ones reported as
//     broken_link on their line, SSRF-refused ones as blocked_link;
//     llms-full.txt is probed in the same call;
//   - a 0-100 score: 100 minus per-code deductions, each capped (missing
//     H1 40, content before it 15, no summary 15, no sections 15, wrong
//     media type 10, broken links 5 each up to 30, ...; the table is in
//     llmstxt.go and every deduction is listed in the report); no usable
//     file (missing, HTML, empty) scores 0.
//
// Bounds: the first MaxParseBytes (1 MiB) and MaxLines (20,000) lines are
// read; at most MaxSections sections, MaxLinksListed links and
// MaxProblems problems are listed (truncated says when).
package llmstxt
