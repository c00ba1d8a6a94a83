package robots

import (
	"fmt"
	"strings"
	"testing"
)

// manyRules is a robots.txt of n rules in one "*" group, of the shapes
// real files have (prefixes, wildcards, anchors), and a group for another
// crawler; the last rule disallows /deep/last.
func manyRules(n int) []byte {
	var b strings.Builder
	b.WriteString("User-agent: otherbot\nDisallow: /\n\nUser-agent: *\nCrawl-delay: 1\n")
	for i := range n - 1 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "Disallow: /section-%d/\n", i)
		case 1:
			fmt.Fprintf(&b, "Allow: /section-%d/public/*.html$\n", i)
		case 2:
			fmt.Fprintf(&b, "Disallow: /*?session=%d*&\n", i)
		default:
			fmt.Fprintf(&b, "Disallow: /files/*/%d/*.pdf\n", i)
		}
	}
	b.WriteString("Disallow: /deep/last\n")
	return []byte(b.String())
}

// TestManyRules: a file of 100,000 rules (2.7 MB, past the 500 KiB
// Parse reads, so parsed without the cap) parses and decides right.
func TestManyRules(t *testing.T) {
	t.Parallel()
	r := parse(manyRules(100000), false)
	if n := len(r.Groups[1].Rules); n != 100000 {
		t.Fatalf("%d rules", n)
	}
	d := r.Test("webinfra", "/deep/last/page")
	if d.Allowed || d.MatchedRule == nil || d.MatchedRule.Pattern != "/deep/last" {
		t.Fatalf("decision %+v", d)
	}
	if !r.Test("webinfra", "/section-1/public/a.html").Allowed || r.Test("webinfra", "/section-0/x").Allowed {
		t.Fatal("wrong decisions")
	}
}

// BenchmarkParse100kRules parses 100,000 rules (without the size cap).
func BenchmarkParse100kRules(b *testing.B) {
	body := manyRules(100000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		parse(body, false)
	}
}

// BenchmarkParseCapped parses a 5 MB file, of which Parse reads 500 KiB.
func BenchmarkParseCapped(b *testing.B) {
	body := manyRules(200000)
	b.SetBytes(MaxBytes)
	for b.Loop() {
		Parse(body)
	}
}

// BenchmarkTest100kRules decides one URL against 100,000 rules.
func BenchmarkTest100kRules(b *testing.B) {
	r := parse(manyRules(100000), false)
	for b.Loop() {
		r.Test("Mozilla/5.0 (compatible; webinfra/1.0)", "https://example.com/files/a/b/c/report-2024.pdf?session=77&x=1")
	}
}

// BenchmarkTestTypical decides one URL against a 40-rule file.
func BenchmarkTestTypical(b *testing.B) {
	r := Parse(manyRules(40))
	for b.Loop() {
		r.Test("webinfra", "https://example.com/section-21/public/index.html")
	}
}

// BenchmarkMatchPathological: patterns that make backtracking matchers
// exponential ("/*a*a*…*a*b" against "/aaaa…") stay linear-ish here.
func BenchmarkMatchPathological(b *testing.B) {
	pattern := "/" + strings.Repeat("*a", 200) + "*b"
	path := "/" + strings.Repeat("a", 8000)
	for b.Loop() {
		if matches(pattern, path) {
			b.Fatal("matched")
		}
	}
}
