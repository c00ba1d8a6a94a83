// Package htmlaudit holds the SEO audits that read one parsed page: pure
// typed functions over a tree parsed with golang.org/x/net/html (the
// server parses with internal/htmltag.Parse) and the page's URL, each
// returning a report whose JSON is the HTTP answer as is. Nothing is
// fetched: the server fetches the page (the broken-links and redirect
// audits, which need the network, live elsewhere).
//
//	doc, _ := htmltag.Parse(page, "html")
//	u, _ := url.Parse("https://example.com/post")
//	mixed := htmlaudit.MixedContent(doc, u)      // POST /v1/seo/mixed-content
//	anchors := htmlaudit.AnchorText(doc, u)      // POST /v1/seo/anchor-text-audit
//	meta := htmlaudit.Meta(doc, u)               // POST /v1/seo/meta-audit
//	snippets := htmlaudit.SnippetCandidates(doc, u) // POST /v1/seo/snippet-candidates
//
// Each function's doc comment lists what it reports, every finding code
// and every threshold. Findings share one shape, auditkit.Finding: a
// stable code, a severity (error, warning, notice), a message, and the
// element's tag, attribute, URL and a short snippet. Relative URLs are
// resolved against the page URL and the page's <base href>.
//
// # Bounds
//
// Every audit reads at most MaxElements elements and lists at most
// MaxFindings findings (the anchor audit at most MaxLinksListed links, the
// snippet audit MaxSnippetCandidates candidates); counts keep counting
// past the list caps, and each report's truncated flag says when
// something was cut. Time is linear in the page's size: on the 1,678
// pages of the shared test corpus each audit's median is well under a
// millisecond once the page is parsed.
package htmlaudit
