// Command facade reads a page with the webinfra Go package, no server
// involved: it scrapes the URL (the fetch cascade behind the SSRF guard),
// then extracts the article, the structured data and the tables from the
// HTML it got, and prints a summary with the article's markdown.
//
//	go run ./examples/facade https://example.com/
//
// It is the shape of an embedding program: one Client, reused, safe for
// concurrent use.
package main
