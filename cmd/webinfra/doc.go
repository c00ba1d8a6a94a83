// Command webinfra is the Webinfra CLI: it runs the reference server, and
// its other commands call the library directly (no server, no account) so
// a person can try a capability from a terminal.
//
//	webinfra serve [flags]                 run the reference /v1 server
//	webinfra scrape URL                    one page as markdown, text, HTML or links
//	webinfra llm-ready URL                 a page's article in chunks for embedding
//	webinfra crawl URL... [--max-pages N]  a site's pages, one line each
//	webinfra extract clean|structured|contacts|tables FILE|URL
//	webinfra help [command]
//
// # The one-shot commands
//
// Results go to stdout, as markdown or text for people, or with --json as
// the JSON the HTTP API answers (the same Go structs marshalled: the
// facade's result types, and for extract clean and structured of a URL
// the server's ExtractCleanResult and ExtractStructuredResult with their
// source). Errors go to stderr, prefixed "webinfra:". The exit status is
// 0 on success, 1 when an operation ran and failed (a fetch, a file that
// cannot be read or is not HTML or text, a page answering 4xx or 5xx,
// which is still printed), and 2 when the command line is wrong (an
// unknown command or flag, a missing argument, an invalid URL or flag
// value).
//
// Commands that fetch share the fetch engine's flags:
// --allow-private-networks (WEBINFRA_ALLOW_PRIVATE_NETWORKS=1: the SSRF
// guard refuses loopback and private addresses otherwise, as in serve),
// --timeout (a page's whole fetch), --ca-file (WEBINFRA_CA_FILE),
// --browser-url (WEBINFRA_BROWSER_URL; empty: local Chromium, when
// installed, is the render tier) and --proxies (WEBINFRA_PROXIES, the
// residential tier). scrape, llm-ready and extract of a URL also take
// --tier, --wait-for and --respect-robots.
//
// extract reads an http(s) URL argument by fetching it, any other
// argument as a file, and "-" as stdin; --base-url gives a file's address
// for its relative links.
//
// crawl draws a progress bar (pages done of --max-pages, queued, failed,
// pages per second, time elapsed) on stderr when stderr is a terminal —
// so it shows while the result is piped or redirected, as in
// `webinfra crawl URL --json > site.json` — and never otherwise, nor with
// --no-progress. The bar is fed by crawl.Options.OnProgress and erased
// when the crawl ends; the page list and summary are printed then, in the
// result's order (depth, then URL).
//
// # serve
//
// serve starts on the embedded default — SQLite in --data-dir, in-process
// rate limits — with no other set-up:
//
//	go run ./cmd/webinfra serve
//
// Every flag has an environment variable: --addr (WEBINFRA_ADDR, default
// 127.0.0.1:8080), --data-dir (WEBINFRA_DATA_DIR, default ./webinfra-data),
// --database-url (WEBINFRA_DATABASE_URL), --allow-private-networks
// (WEBINFRA_ALLOW_PRIVATE_NETWORKS=1), --ca-file (WEBINFRA_CA_FILE) and
// --config (WEBINFRA_CONFIG, a JSON file of plans and limits; see
// billing.LoadConfig). A flag given on the command line wins over its
// variable. `webinfra serve -h` lists them all.
package main
