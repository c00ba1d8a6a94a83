package secretbox

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the key length in bytes (AES-256).
const KeySize = 32

// prefix starts every sealed value: the format and its version.
var prefix = []byte("wsb1:")

// ErrOpen is returned for a value that is not sealed by this box: a wrong
// key, a damaged or tampered value, or plain text.
var ErrOpen = errors.New("secretbox: value cannot be opened with this key (wrong key, or damaged)")

// Box seals and opens values with one key. It is safe for concurrent use.
type Box struct {
	aead cipher.AEAD
}

// New returns a Box over a 32-byte key.
func New(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secretbox: the key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Ephemeral returns a Box over a random key that lives as long as the
// process: for tests and embedded use where nothing sealed must survive a
// restart.
func Ephemeral() *Box {
	key := make([]byte, KeySize)
	rand.Read(key)
	b, _ := New(key)
	return b
}

// Seal encrypts plain; the result starts with a version prefix.
func (b *Box) Seal(plain []byte) []byte {
	nonce := make([]byte, b.aead.NonceSize())
	rand.Read(nonce)
	out := append(append([]byte{}, prefix...), nonce...)
	return b.aead.Seal(out, nonce, plain, prefix)
}

// Open decrypts a value Seal made, or returns ErrOpen.
func (b *Box) Open(sealed []byte) ([]byte, error) {
	rest, ok := bytes.CutPrefix(sealed, prefix)
	if !ok || len(rest) < b.aead.NonceSize()+b.aead.Overhead() {
		return nil, ErrOpen
	}
	nonce, ct := rest[:b.aead.NonceSize()], rest[b.aead.NonceSize():]
	plain, err := b.aead.Open(nil, nonce, ct, prefix)
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}

// IsSealed reports whether v looks like a sealed value (by its prefix).
func IsSealed(v []byte) bool { return bytes.HasPrefix(v, prefix) }

// ReadKeyFile reads a key file: 64 hexadecimal characters (surrounding
// white space ignored, as `openssl rand -hex 32` writes them) or 32 raw
// bytes. A file that others can read is refused.
func ReadKeyFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s is readable by others (mode %s): chmod 600 it", path, info.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if text := strings.TrimSpace(string(data)); len(text) == 2*KeySize {
		if key, err := hex.DecodeString(text); err == nil {
			return key, nil
		}
	}
	if len(data) == KeySize {
		return data, nil
	}
	return nil, fmt.Errorf("%s must hold 64 hexadecimal characters (openssl rand -hex 32) or 32 raw bytes", path)
}

// LoadOrCreate reads the key in path, or, when there is none, writes a
// new random one there (hex, mode 0600, created exclusively so two
// processes starting at once cannot each write their own).
func LoadOrCreate(path string) ([]byte, error) {
	key, err := ReadKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	key = make([]byte, KeySize)
	rand.Read(key)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return ReadKeyFile(path) // another process won the race
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		f.Close()
		return nil, err
	}
	return key, f.Close()
}
