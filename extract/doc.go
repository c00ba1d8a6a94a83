// Package extract is the home of the extraction libraries: pure functions
// over HTML that never fetch. Each job is its own sub-package:
//
//   - markdown: HTML to CommonMark (GitHub tables), streaming, one pass
//   - content: the main content (article body) of a page, with its metadata
//   - structured: JSON-LD, Microdata, RDFa Lite, OpenGraph, Twitter cards, meta tags, links
//   - contacts: e-mails, phone numbers and social profiles
//   - tables: every table as JSON, spans expanded
//   - chunk: article text split for embedding, with byte offsets into the page
//
// Callers that fetch (the fetch engine, the server) hand the page bytes
// to these packages.
package extract
