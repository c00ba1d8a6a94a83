package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The page-work load test of the README ("Limits and security"): 12
// concurrent extractions of a 4 MiB grid of product cards, each costly to
// parse and extract, from 4 addresses, against the server binary: once
// with the page gate at 12 MiB (two such pages at once) and once with it
// opened wide (1 GiB), side by side. Gated, the process's peak RSS
// (VmHWM) must stay under 800 MiB (measured: 419-436 MiB, and 1,537-1,571
// MiB wide open), and every call must be answered 200: the pages wait their turn.
func TestPageStormMemory(t *testing.T) {
	bin := serveBinary(t)
	if _, err := procStatusKiB(os.Getpid(), "VmHWM"); err != nil {
		t.Skipf("needs /proc: %v", err)
	}
	page := cardGrid(4 << 20)
	body, _ := json.Marshal(map[string]string{"html": page, "url": "https://shop.example/catalog"})
	run := func(gate string) (peakMiB int64, statuses map[int]int) {
		dir := t.TempDir()
		cfg := filepath.Join(dir, "config.json")
		os.WriteFile(cfg, []byte(`{"limits": {"page_bytes_in_flight": `+gate+`, "page_wait_ms": 120000}}`), 0o600)
		p := startServe(t, bin, "--data-dir", filepath.Join(dir, "data"), "--config", cfg)
		key := p.signup(t, "storm@example.com")
		clients := spread(4)
		statuses = storm(12, []string{p.base}, func(base string) int {
			return call(clients.next(), "POST", base+"/v1/extract/clean", key, string(body))
		})
		peak, err := procStatusKiB(p.cmd.Process.Pid, "VmHWM")
		if err != nil {
			t.Fatal(err)
		}
		return peak >> 10, statuses
	}
	gatedPeak, gated := run("12582912")
	widePeak, wide := run("1073741824")
	t.Logf("12 concurrent 4 MiB card grids: peak RSS %d MiB with the gate at 12 MiB (answers %v), %d MiB with it at 1 GiB (answers %v)",
		gatedPeak, gated, widePeak, wide)
	if gated[http.StatusOK] != 12 {
		t.Errorf("gated answers %v, want 12 × 200", gated)
	}
	if gatedPeak > 800 {
		t.Errorf("gated peak RSS %d MiB, want under 800 MiB", gatedPeak)
	}
}

// cardGrid is a shop's catalog page of about n bytes: a grid of product
// cards, the shape that costs extraction most per byte.
func cardGrid(n int) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>Catalog</title></head><body><main><h1>Catalog</h1><div class="grid">`)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `<div class="card product"><a href="/p/%d"><img src="/i/%d.jpg" alt="Item %d"><h3>Item %d</h3></a>`+
			`<span class="price">$%d.99</span><p>A sturdy item, number %d.</p><button>Add to cart</button></div>`, i, i, i, i, i%500, i)
	}
	b.WriteString(`</div></main></body></html>`)
	return b.String()
}
