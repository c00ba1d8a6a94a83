// Package secretbox seals the secrets the server keeps at rest (the raw
// keys in stored idempotent answers, the request headers of queued jobs,
// later the forwarders' credentials) with one server key: AES-256-GCM
// from the standard library, a random 96-bit nonce per value, and a
// versioned prefix so the format can change.
//
// The key is 32 bytes, read from a file (webinfra serve --secret-key-file)
// or generated once into the data directory with mode 0600 (LoadOrCreate).
// Losing it makes sealed values unreadable, which for these values means
// an idempotent replay or a queued job's headers are gone, nothing more.
package secretbox
