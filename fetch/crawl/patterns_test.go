package crawl

import (
	"regexp/syntax"
	"strings"
	"testing"
)

func TestPatternSizeBound(t *testing.T) {
	t.Parallel()
	for _, p := range []string{`^https://example\.com/blog/`, `/(docs|guide|api)/v[0-9]+/`, `\.(png|jpe?g|gif|css|js)$`, `[a-z]{2,8}`} {
		if _, err := compiled.get(p); err != nil {
			t.Errorf("%q refused: %v", p, err)
		}
	}
	for _, p := range []string{strings.Repeat(`\pL{1000}`, 20), `((\pL\pN\pL\pN\pL\pN\pL\pN\pL\pN\pL\pN){30}){30}`, strings.Repeat(`[^a]{999}`, 11)} {
		if _, err := compiled.get(p); err == nil || !strings.Contains(err.Error(), "too complex") {
			t.Errorf("%.40q…: %v, want too complex", p, err)
		}
	}
	if _, err := compiled.get(`(`); err == nil || !strings.Contains(err.Error(), "not a valid") {
		t.Errorf("invalid pattern: %v", err)
	}
}

// A pattern is compiled once, whoever asks for it again.
func TestPatternsCompiledOnce(t *testing.T) {
	t.Parallel()
	a, _ := compiled.get(`/compiled-once/`)
	b, _ := compiled.get(`/compiled-once/`)
	if a == nil || a != b {
		t.Fatal("the same pattern was compiled twice")
	}
}

// The estimate never undercounts what the regexp package compiles.
func TestProgramSizeEstimate(t *testing.T) {
	t.Parallel()
	for _, p := range []string{`^https://example\.com/blog/`, `\pL{1000}`, `(ab|cd){3,7}`, `x*y+z?`, `(a(b(c)))`, `[^a]{999}`, `((\pL\pN){30}){30}`, `a{2,}`} {
		parsed, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(parsed.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		if est := programSize(parsed, 1<<30); est < len(prog.Inst) {
			t.Errorf("%q: estimated %d instructions, compiles to %d", p, est, len(prog.Inst))
		}
	}
}
