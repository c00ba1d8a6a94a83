package htmlaudit

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/internal/htmltag"
)

func TestSrcsetURLs(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"a.png":                                {"a.png"},
		"a.png 1x, b.png 2x":                   {"a.png", "b.png"},
		" a.png 480w,b.png 800w ":              {"a.png", "b.png"},
		"a.png,b.png":                          {"a.png,b.png"}, // a comma inside a URL belongs to it
		"a.png, b.png,":                        {"a.png", "b.png"},
		"data:image/png;base64,AAA= 1x, c.png": {"data:image/png;base64,AAA=", "c.png"},
		"a.png (junk, more) 1x, b.png":         {"a.png", "b.png"},
		"":                                     nil,
	}
	for in, want := range cases {
		if got := srcsetURLs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("srcsetURLs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScanCSS(t *testing.T) {
	t.Parallel()
	css := `/* url(c.png) */ @import 'a.css'; @IMPORT url("b.css");
a { background: URL( img.png ) } .x { content: "url(not.png)" }
@font-face { src: url('f.woff2') format("woff2") } b { mask: url(m.svg) } myurl(no.png)`
	var got []string
	scanCSS(css, func(ref, kind string, start, end int) {
		got = append(got, kind+":"+ref)
	})
	want := []string{"stylesheet:a.css", "stylesheet:b.css", "image:img.png", "font:f.woff2", "image:m.svg"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scanCSS = %q, want %q", got, want)
	}
	for _, broken := range []string{"url(", "url('x", "@import", "@font-face { src: url(a", "/* open", `"open`} {
		scanCSS(broken, func(string, string, int, int) {})
	}
}

func TestTitlePixels(t *testing.T) {
	t.Parallel()
	cases := map[string]int{"": 0, "i": 4, "W": 19, "Hello": 46, "日本": 40}
	for s, want := range cases {
		if got := titlePixels(s); got != want {
			t.Errorf("titlePixels(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestValidHreflang(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"en": true, "en-GB": true, "en-gb": true, "zh-Hant": true, "zh-Hant-TW": true, "es-419": true,
		"en-UK": false, "en_US": false, "english": false, "xx": false, "fr-XX": false, "": false,
	}
	for code, want := range cases {
		if got := validHreflang(code); got != want {
			t.Errorf("validHreflang(%q) = %v, want %v", code, got, want)
		}
	}
}

func TestSameURL(t *testing.T) {
	t.Parallel()
	u := func(s string) *url.URL { v, _ := url.Parse(s); return v }
	if !sameURL(u("HTTPS://Example.com:443#x"), u("https://example.com/")) {
		t.Error("scheme and host case, default port, fragment and empty path should not matter")
	}
	if sameURL(u("https://example.com/a/"), u("https://example.com/a")) || sameURL(u("https://example.com/?a=1"), u("https://example.com/")) {
		t.Error("a trailing slash or a query makes another URL")
	}
}

// TestFindingCaps checks that every list stops at its cap, counts go on
// and truncated is set.
func TestFindingCaps(t *testing.T) {
	t.Parallel()
	n := MaxFindings + 50
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `<img src="http://img.example.com/%d.png" alt="x"><a href="/p%d">click here</a>`, i, i)
	}
	doc, err := htmltag.Parse(b.String(), "html")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("https://example.com/")
	m := MixedContent(doc, u)
	if len(m.Items) != MaxFindings || m.Total != n || m.ByKind.Image != n || !m.Truncated {
		t.Errorf("mixed: %d items, total %d, truncated %v", len(m.Items), m.Total, m.Truncated)
	}
	a := AnchorText(doc, u)
	if len(a.Findings) != MaxFindings || a.Counts.Generic != n || len(a.Links) != n || !a.Truncated {
		t.Errorf("anchors: %d findings, %d generic, %d links, truncated %v", len(a.Findings), a.Counts.Generic, len(a.Links), a.Truncated)
	}
}

func TestNoPageURL(t *testing.T) {
	t.Parallel()
	doc, _ := htmltag.Parse(`<link rel="canonical" href="https://example.com/a"><a href="/x">Docs</a><a href="https://other.org/">Other</a><script src="http://a/b.js"></script>`, "html")
	if m := MixedContent(doc, nil); m.Applicable || m.Reason == "" {
		t.Errorf("mixed content without a page URL: %+v", m)
	}
	a := AnchorText(doc, nil)
	if a.Counts.Internal != 1 || a.Counts.External != 1 || a.Links[0].URL != "/x" {
		t.Errorf("anchors without a page URL: %+v", a.Counts)
	}
	if c := Meta(doc, nil).Fields.Canonical; c.Score != 90 {
		t.Errorf("canonical without a page URL: %+v", c)
	}
}

// TestOddPages runs every audit on degenerate pages: none may panic.
func TestOddPages(t *testing.T) {
	t.Parallel()
	pages := []string{
		"",
		"just text",
		strings.Repeat("<div>", 500) + "<h3>deep</h3><p>" + strings.Repeat("word ", 20) + "</p>",
		`<svg><title>t</title><a href="/x"><text>svg link</text></a></svg><math><mi>x</mi></math>`,
		`<frameset><frame src="http://a/b"></frameset>`,
		`<table><tr><td colspan="1000" rowspan="1000">x</td><td>y</td></tr><tr><td>z</td></tr></table>`,
		`<style>` + strings.Repeat("a{background:url(http://x/y.png)}", 20000) + `</style>`,
		`<base href="javascript:alert(1)"><a href="x">rel</a><img src="x">`,
		`<a href="http://[::1">bad url</a><img src="http://%zz">`,
	}
	u, _ := url.Parse("https://example.com/")
	for _, p := range pages {
		doc, err := htmltag.Parse(p, "html")
		if err != nil {
			t.Fatal(err)
		}
		MixedContent(doc, u)
		AnchorText(doc, u)
		Meta(doc, u)
		SnippetCandidates(doc, u)
	}
}
