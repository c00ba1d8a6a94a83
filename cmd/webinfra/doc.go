// Command webinfra is the Webinfra CLI.
//
//	webinfra serve [flags]     run the reference /v1 server
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
// variable.
package main
