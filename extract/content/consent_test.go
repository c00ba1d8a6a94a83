package content

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// cookieBanner is a consent bar as shops put it, outside their content:
// the one paragraph of prose on a page of link cards.
const cookieBanner = `<div class="theme-fx spicy-consent-wrapper"><div class="cookie-consent-spice">
<h4>Served with love!</h4>
<div class="fx-text">With our cookies we would like to offer you the best shopping experience possible with
everything that goes with it. This includes, for example, suitable offers, personalized ads and remembering
preferences. If this is okay with you, simply agree to the use of cookies for preferences, statistics and
marketing by clicking on "Alright!". You can withdraw your consent at any time via the cookie settings.</div>
<button>Alright!</button></div></div>`

// TestConsentBannerIsNotTheContent checks that a cookie-consent banner is
// never the answer: on a category page of link cards, which the
// extractors drop as link lists, it was the one block of prose they kept.
func TestConsentBannerIsNotTheContent(t *testing.T) {
	var cards strings.Builder
	for i := range 8 {
		fmt.Fprintf(&cards, `<div class="product-entry"><a class="product" href="/p/%d"><span class="name">Studio headphones model %d</span>
<ul><li>Closed-back</li><li>Circumaural</li><li>Dynamic</li></ul><span class="price">£%d.00</span></a></div>`, i, i, 40+i)
	}
	page := `<!doctype html><html><head><title>Studio headphones</title></head><body class="cookies-not-set">` + cookieBanner +
		`<div class="content"><h1>Studio headphones</h1><div class="grid">` + cards.String() + `</div></div></body></html>`
	for _, mode := range []Mode{ModeAccurate, ModeFast} {
		r, err := Extract(context.Background(), Input{HTML: page, Mode: mode}, &Options{TypeModel: unsureModel()})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.Text, "cookies") {
			t.Errorf("%s: the cookie banner came out:\n%s", mode, r.Text)
		}
		if !strings.Contains(r.Text, "Studio headphones model 7") {
			t.Errorf("%s: the cards are missing:\n%s", mode, r.Text)
		}
	}
}

// TestConsentBannersOnly checks what dropConsentBanners leaves: a
// section about cookies (a bare "cookies" anchor), a banner's markup
// inside <main>, a named element that says nothing of cookies, and the
// body a theme names for the consent state.
func TestConsentBannersOnly(t *testing.T) {
	doc, err := parseHTML(`<html><body class="cookies-not-set">` + cookieBanner + `
<div id="cookie-notice" class="cn-position-bottom"><p>We use cookies to ensure that we give you the best experience.</p><a>Ok</a></div>
<div id="CybotCookiebotDialog"><h2>This website uses cookies</h2><p>We use cookies to personalise content and ads.</p></div>
<section id="cookies"><h2>Cookies</h2><p>To access cookies you can use the cookies attribute of the request.</p></section>
<form class="form gdpr"><label>I consent to the handling of my data for the newsletter.</label></form>
<main><div class="cookie-consent-demo"><p>A consent banner asks before it sets cookies; ours looks like this.</p></div></main>
</body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	dropConsentBanners(doc)
	text := articleText(doc)
	for _, gone := range []string{"Served with love", "We use cookies", "This website uses cookies"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q stayed:\n%s", gone, text)
		}
	}
	for _, kept := range []string{"To access cookies", "I consent to the handling", "A consent banner asks"} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q went:\n%s", kept, text)
		}
	}
}
