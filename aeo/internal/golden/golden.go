package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// Compare encodes v as indented JSON (HTML characters unescaped) and
// compares it with the file at path; with update it writes the file
// instead.
func Compare(t testing.TB, path string, v any, update bool) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("report differs from %s (run with -update and review the diff):\n%s", path, buf.Bytes())
	}
}
