package content

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestVisuallyHiddenClasses(t *testing.T) {
	doc, err := parseHTML(`<html><head><style>
/* .commented{position:absolute;clip:rect(0 0 0 0)} */
.erTx .uKy2 .zXCP{height:1px;left:-2000px;overflow:hidden;position:absolute;top:auto;width:1px}
.sr-text:not(:focus):not(:active) { position: absolute !important; clip: rect(1px, 1px, 1px, 1px); }
.offscreen, .also-off { position:absolute; left:-9999px }
.a > .child-hidden { position: fixed; clip-path: inset(50%) }
.skip:focus { position:absolute; left:-9999px }
.two.classes { position:absolute; clip: rect(0 0 0 0) }
.shown { position:relative; left:-9999px }
.tiny-visible { position:absolute; width:1px; height:1px }
.near { position:absolute; left:-20px }
@media (max-width: 600px) { .mobile-hidden { position:absolute; left:-9999px } }
.after-media { position:absolute; clip: rect(0,0,0,0) }
.str[title="}{"] { color: red }
</style><style>.nothing { color: red }</style></head><body></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(visuallyHiddenClasses(readClues(doc).sheets)))
	want := []string{"after-media", "also-off", "child-hidden", "offscreen", "sr-text", "zXCP"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A class of the site's own that its stylesheet hides for screen readers
// goes like sr-only: an auction card's "Sponsored" label, obfuscated by
// hidden runs of letters.
func TestSiteHiddenClassesLeftOut(t *testing.T) {
	page := `<html><head><style>.k1 .zq{position:absolute;left:-2000px;width:1px;height:1px;overflow:hidden}</style></head><body><article>
<h1>A vintage camera</h1>` + body + `<p>Sold by a seller with <span class="zq">9f3e2a1c-77aa-4c1e-b0d2-5e6f7a8b9c0d</span>eleven years of good ratings.</p>
</article></body></html>`
	for _, mode := range modes {
		r, err := Extract(context.Background(), Input{HTML: page, Mode: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.Text, "9f3e2a1c") || !strings.Contains(r.Text, "eleven years") {
			t.Errorf("%s: %s", mode, r.Text)
		}
	}
}

// hiddenRuleClasses takes any stylesheet, broken ones too.
func FuzzHiddenRuleClasses(f *testing.F) {
	for _, s := range []string{
		".a{position:absolute;clip:rect(0 0 0 0)}",
		"@media x{.b{position:absolute;left:-9999px}}.c{position:fixed;width:1px;height:1px;overflow:hidden}",
		"position{", "}position:absolute;clip", ".d[x='{']{position:absolute;top:-999px}", "{{{position}}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sheet string) {
		for _, c := range hiddenRuleClasses(sheet) {
			if c == "" {
				t.Fatalf("an empty class from %q", sheet)
			}
		}
	})
}

// A sheet of thousands of hiding rules, or of the word "position" and
// nothing else, is read in one pass (a search per rule from the start
// would take minutes on a megabyte of either).
func TestHiddenRuleClassesLinear(t *testing.T) {
	rules := strings.Repeat(".x{position:absolute;clip:rect(0 0 0 0)}", 25_000)
	if got := hiddenRuleClasses(rules); len(got) != 25_000 {
		t.Errorf("%d classes, want 25,000", len(got))
	}
	if got := hiddenRuleClasses(strings.Repeat("position", 125_000) + "}"); len(got) != 0 {
		t.Errorf("classes from no rule: %q", got[:min(len(got), 3)])
	}
	if got := hiddenRuleClasses("@media x{" + rules + "}"); len(got) != 0 {
		t.Errorf("%d classes inside @media", len(got))
	}
}
