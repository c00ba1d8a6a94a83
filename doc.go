// Package webinfra is the one-import facade over Webinfra's capabilities:
// web infrastructure for AI agents. A Client fetches and crawls pages,
// readies them for LLMs in chunks, and extracts articles, structured data,
// contacts and tables, with typed Go calls — the same operations the
// reference server exposes under /v1, without a server.
//
//	c, err := webinfra.New(nil)
//	if err != nil { ... }
//	page, err := c.Scrape(ctx, webinfra.ScrapeRequest{URL: "https://example.com/"})
//	fmt.Println(page.Markdown)
//
// Every capability lives in its own package (fetch, the extract packages,
// and later aeo, seo, intel, convert); the facade only wires them together, so a program
// that needs one capability can import that package alone. Errors carry an
// errs.Kind (see package errs), the same classification the HTTP API maps to
// statuses.
//
// The account system (keys, credits, limits, usage, jobs) belongs to the
// server: see package server and `webinfra serve`.
package webinfra
