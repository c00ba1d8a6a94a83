package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// Prefix starts every raw key.
const Prefix = "osk_"

const (
	randomBytes   = 24 // 192 bits
	rawLen        = len(Prefix) + 2*randomBytes
	displayLength = len(Prefix) + 8
)

// Minted is a new key: the raw value to show once, the hash to store and
// the display prefix.
type Minted struct {
	Raw     string
	Hash    []byte
	Display string
}

// New mints a key from crypto/rand.
func New() Minted {
	b := make([]byte, randomBytes)
	rand.Read(b) // crypto/rand.Read never returns an error (Go 1.24+)
	raw := Prefix + hex.EncodeToString(b)
	return Minted{Raw: raw, Hash: Hash(raw), Display: raw[:displayLength]}
}

// Hash returns the SHA-256 of a raw key.
func Hash(raw string) []byte {
	sum := sha256.Sum256([]byte(raw))
	return sum[:]
}

// WellFormed reports whether raw has the shape of a key, so malformed
// credentials are refused without a database lookup.
func WellFormed(raw string) bool {
	if len(raw) != rawLen || !strings.HasPrefix(raw, Prefix) {
		return false
	}
	for _, c := range raw[len(Prefix):] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Matches compares a raw key with a stored hash in constant time.
func Matches(raw string, stored []byte) bool {
	return subtle.ConstantTimeCompare(Hash(raw), stored) == 1
}
