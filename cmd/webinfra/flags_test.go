package main

import (
	"flag"
	"os"
	"regexp"
	"testing"
)

// TestReadmeFlagTable keeps the README's flag table and the flag set one
// list: every flag of `webinfra serve` has a row naming its environment
// variable, and every row names a flag that exists.
func TestReadmeFlagTable(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `--([a-z-]+)` \\| `(WEBINFRA_[A-Z_]+)[^`]*` \\|")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		documented[m[1]] = m[2]
	}
	envOf := regexp.MustCompile(`\((WEBINFRA_[A-Z_]+)[=)]`)
	var c serveConfig
	serveFlags(&c).VisitAll(func(f *flag.Flag) {
		env := envOf.FindStringSubmatch(f.Usage)
		if env == nil {
			t.Errorf("--%s: its usage does not name its environment variable: %q", f.Name, f.Usage)
			return
		}
		switch got, ok := documented[f.Name]; {
		case !ok:
			t.Errorf("--%s (%s) is missing from the README's flag table", f.Name, env[1])
		case got != env[1]:
			t.Errorf("--%s: the README says %s, the flag reads %s", f.Name, got, env[1])
		}
		delete(documented, f.Name)
	})
	for name := range documented {
		t.Errorf("the README lists --%s, which `webinfra serve` does not have", name)
	}
	if t.Failed() {
		t.Log("rows look like: | `--flag` | `WEBINFRA_FLAG` | default and meaning |")
	}
}
