package content

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

func TestDropLandmarkChrome(t *testing.T) {
	for _, c := range []struct {
		name, markup, want string
	}{
		{"each chrome role", `<div role="banner">Logo</div><div role="navigation">Menu</div><div role="search">Search</div>` +
			`<main><p>Body</p><div role="complementary">Related</div></main><div role="contentinfo">Imprint</div>`, "Body"},
		{"a banner holding the headline", `<div role="banner"><h1>Headline</h1></div><p>Body</p>`, "Headline\n\nBody"},
		{"a sidebar holding a later <h1>", `<h1>Headline</h1><p>Body</p><div role="complementary"><div role="dialog"><h1>Customize your feed</h1></div></div>`, "Headline\n\nBody"},
		{"other roles", `<div role="main"><p>Body</p><div role="region">Specs</div><div role="tabpanel">Details</div></div>`, "Body\n\nSpecs\nDetails"},
		{"a role only mentioned", `<div data-role="navigation">Shown</div>`, "Shown"},
		{"live regions", `<p>Body</p><div role="status">Added to your cart</div><span role="timer">02:13:44</span>` +
			`<div role="marquee">Free shipping today</div><div role="alert">Note: back up first.</div>`, "Body\n\nNote: back up first."},
	} {
		doc := fragment(t, c.markup)
		dropLandmarkChrome(doc)
		if got := strings.TrimSpace(renderText(doc)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestLandmarkMenuNotTakenForArticle: a store page whose header is a
// <div role="banner"> with a long language menu, and whose description
// is short, gives the description, not the menu (both modes).
func TestLandmarkMenuNotTakenForArticle(t *testing.T) {
	var langs strings.Builder
	for i, l := range []string{"Deutsch (German)", "Español (Spanish)", "Français (French)", "Italiano (Italian)",
		"Polski (Polish)", "Português (Portuguese)", "Русский (Russian)", "Suomi (Finnish)", "Svenska (Swedish)",
		"Türkçe (Turkish)", "Українська (Ukrainian)", "日本語 (Japanese)", "한국어 (Korean)"} {
		langs.WriteString(`<a class="popup_menu_item" href="?l=` + strconv.Itoa(i) + `">` + l + `</a> `)
	}
	page := `<html><head><title>Cave Game on Store</title></head><body>
<div role="banner" class="global_header"><div role="navigation" class="global_actions">
<a href="/install">Install the store</a> <div class="popup_body">` + langs.String() + `<a href="/tp">Report a translation problem</a></div></div></div>
<div role="main"><div class="game_page_background"><h2>About This Game</h2>
<div class="game_area_description">Dig, fight, explore and build in a world of caves that is made anew for every player, and defend it at night.</div>
</div></div>
<div role="contentinfo"><a href="/legal">Legal</a> <a href="/privacy">Privacy Policy</a></div></body></html>`
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		r, err := Extract(context.Background(), Input{HTML: page, URL: "https://store.example/app/1/", Mode: mode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Text, "Dig, fight, explore") || strings.Contains(r.Text, "Report a translation") || strings.Contains(r.Text, "Privacy Policy") {
			t.Errorf("%s: got %q, want the description without the menu and footer", mode, r.Text)
		}
	}
}
