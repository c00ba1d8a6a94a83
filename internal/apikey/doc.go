// Package apikey mints and hashes Webinfra API keys.
//
// A raw key is "osk_" followed by 192 random bits in lower-case hex (48
// characters). It is shown to its owner once; only its SHA-256 hash is
// stored, and lookups go by that hash. A short display prefix ("osk_" and the
// first eight hex characters) is kept so a listing can tell keys apart
// without revealing them.
package apikey
