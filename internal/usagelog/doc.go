// Package usagelog writes usage rows in batches.
//
// Every authenticated call adds one row; writing each in its own
// transaction would double the database work of a call. The Writer buffers
// rows and inserts them together, at the latest every flush interval (one
// second by default) or as soon as a batch is full. That lag is why SPEC §7
// lets GET /v1/me/requests/{id} answer 404 for a call logged less than about
// a second ago. Close flushes what is left, so a graceful shutdown loses no
// row.
package usagelog
