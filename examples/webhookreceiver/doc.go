// Command webhookreceiver is a minimal HTTPS receiver of Webinfra job
// webhooks: it verifies each delivery's X-Webinfra-Signature with the
// account's webhook_secret, ignores repeats by X-Webinfra-Event-ID, and
// prints the job's result.
//
//	WEBINFRA_WEBHOOK_SECRET=whsec_... go run ./examples/webhookreceiver -addr :8443 -cert cert.pem -key key.pem
//
// Copy it into your program: the part that matters is the handler.
package main
