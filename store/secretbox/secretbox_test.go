package secretbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSealOpen(t *testing.T) {
	t.Parallel()
	b := Ephemeral()
	plain := []byte(`{"api_key":"osk_0123"}`)
	sealed := b.Seal(plain)
	if bytes.Contains(sealed, []byte("osk_0123")) || !IsSealed(sealed) {
		t.Fatalf("sealed value shows the secret: %q", sealed)
	}
	if again := b.Seal(plain); bytes.Equal(again, sealed) {
		t.Fatal("two seals of one value are equal: the nonce is not fresh")
	}
	got, err := b.Open(sealed)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("open: %q, %v", got, err)
	}
	tampered := bytes.Clone(sealed)
	tampered[len(tampered)-1] ^= 1
	for name, v := range map[string][]byte{"tampered": tampered, "plain": plain, "short": []byte("wsb1:x"), "other key": Ephemeral().Seal(plain)} {
		if _, err := b.Open(v); err != ErrOpen {
			t.Errorf("%s: %v, want ErrOpen", name, err)
		}
	}
}

func TestKeyFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "secret.key")
	first, err := LoadOrCreate(path)
	if err != nil || len(first) != KeySize {
		t.Fatalf("create: %d bytes, %v", len(first), err)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %s", info.Mode().Perm())
	}
	second, err := LoadOrCreate(path)
	if err != nil || !bytes.Equal(first, second) {
		t.Fatal("the key was not reused at the next start")
	}
	raw := filepath.Join(dir, "raw.key")
	os.WriteFile(raw, bytes.Repeat([]byte{7}, KeySize), 0o600)
	if k, err := ReadKeyFile(raw); err != nil || k[0] != 7 {
		t.Fatalf("raw key: %v", err)
	}
	open := filepath.Join(dir, "open.key")
	os.WriteFile(open, []byte(strings.Repeat("ab", KeySize)), 0o644)
	if _, err := ReadKeyFile(open); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a world-readable key file: %v", err)
	}
	bad := filepath.Join(dir, "bad.key")
	os.WriteFile(bad, []byte("too short"), 0o600)
	if _, err := ReadKeyFile(bad); err == nil {
		t.Fatal("a malformed key file was accepted")
	}
}
