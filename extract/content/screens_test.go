package content

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// A responsive page's copies for other screen sizes go, the copy a
// desktop browser draws stays, and what only a small screen shows, said
// nowhere else, stays too.
func TestDropOtherScreens(t *testing.T) {
	const para = `<p>Remodelling a kitchen in California costs more than the national average.</p>`
	for _, c := range []struct {
		name, style, markup, want string
	}{
		{"Wix's variants by media query",
			`@media(min-width: 1200px){.hidden-d{display:none!important}}@media(max-width: 1199px){.hidden-m{display:none!important}}`,
			`<section class="ssr-variant hidden-m">` + para + `</section><section class="ssr-variant hidden-d">` + para + `</section>`,
			"Remodelling a kitchen in California costs more than the national average."},
		{"a class hidden, then shown on phones",
			`.mobile-copy{display:none}@media screen and (max-width: 48em){.mobile-copy{display:block}}`,
			`<div>` + para + `</div><div class="mobile-copy">` + para + `</div>`,
			"Remodelling a kitchen in California costs more than the national average."},
		{"Bootstrap's display classes",
			``,
			`<div class="d-none d-lg-block">` + para + `</div><div class="d-block d-lg-none">` + para + `</div>`,
			"Remodelling a kitchen in California costs more than the national average."},
		{"Bootstrap 3's",
			``,
			para + `<div class="visible-xs visible-sm-block">` + para + `</div><div class="visible-on-scroll">` + para + `</div>`,
			"Remodelling a kitchen in California costs more than the national average.\n\nRemodelling a kitchen in California costs more than the national average."},
		{"Tailwind's, in a card's label",
			``,
			`<table><tr><th>Construction</th></tr><tr><td><p class="block md:hidden">Construction</p>Steel frame</td></tr></table>`,
			"Construction\nSteel frame"},
		{"Elementor's section switched off on every screen",
			``,
			`<section class="elementor-section elementor-hidden-desktop elementor-hidden-tablet elementor-hidden-mobile"><p>Draft course outline</p></section>` + para,
			"Remodelling a kitchen in California costs more than the national average."},
		{"Webflow's conditional visibility",
			``,
			`<p class="summary-fallback w-condition-invisible">No summary yet.</p>` + para,
			"Remodelling a kitchen in California costs more than the national average."},
		{"a phone's own text, said nowhere else",
			``,
			para + `<p class="lg:hidden">Tap to call the showroom.</p>`,
			"Remodelling a kitchen in California costs more than the national average.\n\nTap to call the showroom."},
		{"a tab panel a script shows on desktop",
			`.panel{display:none}@media (max-width: 700px){.panel{display:block}}.panel.open{display:block}`,
			`<div class="panel open">` + para + `</div><div class="panel"><p>Second tab's text.</p></div>`,
			"Remodelling a kitchen in California costs more than the national average.\n\nSecond tab's text."},
		{"hidden at every width: a script's toggle, left alone",
			`.copy{display:none}`,
			para + `<div class="copy d-none">` + para + `</div>`,
			"Remodelling a kitchen in California costs more than the national average.\n\nRemodelling a kitchen in California costs more than the national average."},
		{"a copy for print", `@media print{.for-print{display:none}}`,
			para + `<div class="for-print">` + para + `</div>`,
			"Remodelling a kitchen in California costs more than the national average.\n\nRemodelling a kitchen in California costs more than the national average."},
	} {
		doc := fragment(t, `<style>`+c.style+`</style>`+c.markup)
		dropOtherScreens(doc, readClues(doc).sheets)
		if got := strings.TrimSpace(renderText(doc)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// Through Extract, a blog post laid out three times (phone, tablet,
// desktop) comes out once.
func TestResponsiveCopiesExtractedOnce(t *testing.T) {
	variant := func(class string) string {
		return `<section class="ssr-variant ` + class + `"><h2>What a remodel costs</h2>` + body + `</section>`
	}
	page := `<html><head><title>Remodelling costs</title><style>
@media(min-width: 1200px){.hidden-1{display:none!important}}
@media(min-width: 810px) and (max-width: 1199px){.hidden-2{display:none!important}}
@media(max-width: 809px){.hidden-3{display:none!important}}
</style></head><body><main><h1>Remodelling costs</h1>` +
		variant("hidden-2 hidden-1") + variant("hidden-2 hidden-3") + variant("hidden-3 hidden-1") + `</main></body></html>`
	first := strings.Fields(strings.TrimPrefix(body, "<p>"))[:6]
	for _, mode := range modes {
		r, err := Extract(context.Background(), Input{HTML: page, Mode: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(r.Text, strings.Join(first, " ")); n != 1 {
			t.Errorf("%s: the post %d times:\n%s", mode, n, r.Text)
		}
	}
}

func TestResponsiveHiddenClasses(t *testing.T) {
	doc := fragment(t, `<style>
/* @media (min-width: 1px) { .commented { display: none } } */
.base-hidden { display: none } @media (max-width: 767px) { .base-hidden { display: block } }
@media (min-width: 1024px) { .lg\:hidden { display: none } }
@media (width >= 64rem) { .range { display: none } }
@media only screen and (min-width: 64em) { .ems { display:none !important } }
@media (min-width: 768px) { .important { display: none !important } } @media (min-width: 992px) { .important { display: block } }
@media (min-width: 768px) { .overridden { display: none } } @media (min-width: 992px) { .overridden { display: flex } }
@media (min-width: 1400px) { .too-wide { display: none } }
@media (max-width: 1199px) { .shown-wide { display: none } }
@media (orientation: landscape) { .landscape { display: none } }
@media (min-width: 768px) { .a .descendant, .compound.pair, .pseudo:hover { display: none } }
@supports (display: grid) { @media (min-width: 768px) { .supported { display: none } } }
@container (min-width: 400px) { .container { display: none } }
.always { display: none }
.str[title="}{"] { color: red } @media (min-width: 768px) { .after-string { display: none } }
</style>`)
	got := slices.Sorted(maps.Keys(responsiveHiddenClasses(readClues(doc).sheets)))
	want := []string{"after-string", "base-hidden", "ems", "important", "lg:hidden", "range", "supported"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestMediaQueries(t *testing.T) {
	for _, c := range []struct {
		query                 string
		applies, width, known bool
	}{
		{"(min-width: 810px) and (max-width: 1199px)", false, true, true},
		{"screen and (max-width:767px)", false, true, true},
		{"only screen and (min-width: 64em)", true, true, true},
		{"(min-width:1280px)", true, true, true},
		{"(width >= 64rem)", true, true, true},
		{"(48rem <= width < 80rem)", false, true, true},
		{"(width > 1279.98px)", true, true, true},
		{"print", false, false, true},
		{"screen", true, false, true},
		{"(min-width: 768px), print", true, true, true},
		{"(orientation: landscape)", false, false, false},
		{"not screen and (min-width: 768px)", false, false, false},
		{"(min-width: calc(100px + 2em))", false, false, false},
		{"(prefers-reduced-motion: reduce)", false, false, false},
	} {
		applies, width, known := mediaQueries(c.query)
		if applies != c.applies || width != c.width || known != c.known {
			t.Errorf("%q: got %v %v %v, want %v %v %v", c.query, applies, width, known, c.applies, c.width, c.known)
		}
	}
}

// sheetDisplays takes any stylesheet, broken ones too.
func FuzzSheetDisplays(f *testing.F) {
	for _, s := range []string{
		"@media (min-width: 768px){.a{display:none}}", ".b{display:none}@media(max-width:1px){.b{display:block}}",
		"@media{{{{", "}}}.c{display:", `.d[x='{']{display:none}`, "/* unclosed", "@supports x{@media (width>=1px){.e{display:none}}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sheet string) {
		sheetDisplays(sheet, func(class string, _ displayRule) {
			if class == "" {
				t.Fatalf("an empty class from %q", sheet)
			}
		})
	})
}

// A sheet of a hundred thousand rules, or of blocks opened and never
// closed, is read in one pass.
func TestSheetDisplaysLinear(t *testing.T) {
	n := 0
	sheetDisplays(strings.Repeat("@media (min-width: 768px) { .x { display: none } }", 100_000), func(string, displayRule) { n++ })
	if n != 100_000 {
		t.Errorf("%d rules, want 100,000", n)
	}
	n = 0
	sheetDisplays(strings.Repeat("{", 1<<20)+".y{display:none}", func(string, displayRule) { n++ })
	if n != 0 {
		t.Errorf("%d rules read inside a million open blocks", n)
	}
}
