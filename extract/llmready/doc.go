// Package llmready turns a fetched page into chunks ready for embedding:
// the article (extract/content), split (extract/chunk) into chunks of a
// token budget with overlap, each with byte offsets into the page as
// fetched, a stable id, its heading path and a token count.
//
// It is pure: the caller fetches (the server's POST /v1/scrape/llm-ready
// fetches through the fetch engine) and hands over the page's bytes, and
// the offsets point into exactly those bytes. A page with no article is
// chunked whole (its Markdown, extract/markdown), and says so in
// content_source.
package llmready
