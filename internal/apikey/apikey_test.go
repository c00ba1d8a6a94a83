package apikey_test

import (
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/apikey"
)

func TestMintedKeys(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 100 {
		k := apikey.New()
		if !apikey.WellFormed(k.Raw) || len(k.Raw) != 52 {
			t.Fatalf("malformed key %q", k.Raw)
		}
		if !strings.HasPrefix(k.Raw, k.Display) || len(k.Display) != 12 {
			t.Fatalf("display %q of %q", k.Display, k.Raw)
		}
		if !apikey.Matches(k.Raw, k.Hash) || apikey.Matches(k.Raw+"0", k.Hash) {
			t.Fatal("Matches disagrees with Hash")
		}
		if seen[k.Raw] {
			t.Fatal("duplicate key")
		}
		seen[k.Raw] = true
	}
}

func TestWellFormed(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"", "osk_", "sk_" + strings.Repeat("a", 48), "osk_" + strings.Repeat("A", 48), "osk_" + strings.Repeat("a", 47), "osk_" + strings.Repeat("g", 48)} {
		if apikey.WellFormed(raw) {
			t.Errorf("WellFormed(%q) = true", raw)
		}
	}
}
