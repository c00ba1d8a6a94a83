package pageinfo

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// techCase is a minimal page (headers and HTML) that one signal of a
// technology should be recognised in.
type techCase struct {
	tech, version string
	header        http.Header
	html          string
}

// techCases cover every technology of the table, most with each kind of
// signal it has.
var techCases = []techCase{
	{tech: "WordPress", version: "6.4.2", html: `<meta name="generator" content="WordPress 6.4.2">`},
	{tech: "WordPress", html: `<link rel="stylesheet" href="/wp-content/themes/twentytwenty/style.css">`},
	{tech: "WordPress", header: http.Header{"Link": {`<https://example.com/wp-json/>; rel="https://api.w.org/"`}}},
	{tech: "WordPress", header: http.Header{"Set-Cookie": {"wordpress_test_cookie=WP%20Cookie%20check; path=/"}}},
	{tech: "WooCommerce", version: "8.5.1", html: `<meta name="generator" content="WooCommerce 8.5.1">`},
	{tech: "WooCommerce", html: `<script src="/wp-content/plugins/woocommerce/assets/js/frontend/cart.min.js"></script>`},
	{tech: "Drupal", version: "10", html: `<meta name="Generator" content="Drupal 10 (https://www.drupal.org)">`},
	{tech: "Drupal", header: http.Header{"X-Drupal-Cache": {"HIT"}}},
	{tech: "Drupal", html: `<script type="application/json" data-drupal-selector="drupal-settings-json">{}</script>`},
	{tech: "Joomla", html: `<meta name="generator" content="Joomla! - Open Source Content Management">`},
	{tech: "Joomla", html: `<script type="application/json" class="joomla-script-options new">{}</script>`},
	{tech: "Shopify", html: `<script src="https://cdn.shopify.com/s/files/1/0001/theme.js"></script>`},
	{tech: "Shopify", header: http.Header{"X-Shopid": {"1234"}}},
	{tech: "Shopify", html: `<script>var Shopify = Shopify || {}; Shopify.shop = "example.myshopify.com";</script>`},
	{tech: "Wix", html: `<meta name="generator" content="Wix.com Website Builder">`},
	{tech: "Wix", header: http.Header{"X-Wix-Request-Id": {"1700000000.1234"}}},
	{tech: "Squarespace", html: `<script src="https://assets.squarespace.com/universal/scripts-compressed/common.js"></script>`},
	{tech: "Squarespace", html: `<script>Static.SQUARESPACE_CONTEXT = {};</script>`},
	{tech: "Ghost", version: "5.75", html: `<meta name="generator" content="Ghost 5.75">`},
	{tech: "Ghost", html: `<script defer src="https://cdn.jsdelivr.net/ghost/portal@~2.37/umd/portal.min.js" data-ghost="https://example.com/"></script>`},
	{tech: "Webflow", html: `<html data-wf-site="5f1e2d3c4b5a697887766554" data-wf-page="5f1e"><body></body></html>`},
	{tech: "HubSpot CMS", html: `<meta name="generator" content="HubSpot">`},
	{tech: "Discourse", version: "3.4.0", html: `<meta name="generator" content="Discourse 3.4.0 - https://github.com/discourse/discourse version 4abee26">`},
	{tech: "MediaWiki", version: "1.41.0", html: `<meta name="generator" content="MediaWiki 1.41.0">`},
	{tech: "Hugo", version: "0.121.1", html: `<meta name="generator" content="Hugo 0.121.1">`},
	{tech: "Jekyll", version: "4.3.2", html: `<meta name="generator" content="Jekyll v4.3.2">`},
	{tech: "Docusaurus", version: "3.1.0", html: `<meta name="generator" content="Docusaurus v3.1.0">`},
	{tech: "Next.js", html: `<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{}</script>`},
	{tech: "Next.js", html: `<script src="/_next/static/chunks/main-abc123.js" defer></script>`},
	{tech: "Next.js", version: "14.1.0", header: http.Header{"X-Powered-By": {"Next.js 14.1.0"}}},
	{tech: "Nuxt", html: `<div id="__nuxt"></div><script>window.__NUXT__={}</script>`},
	{tech: "Nuxt", html: `<script src="/_nuxt/entry.4f2a1b.js" type="module"></script>`},
	{tech: "Gatsby", version: "5.13.3", html: `<meta name="generator" content="Gatsby 5.13.3"><div id="___gatsby"></div>`},
	{tech: "Astro", version: "4.2.1", html: `<meta name="generator" content="Astro v4.2.1">`},
	{tech: "Astro", html: `<astro-island uid="Z1abc" component-url="/_astro/Counter.js"></astro-island>`},
	{tech: "Angular", version: "17.0.8", html: `<app-root ng-version="17.0.8"></app-root>`},
	{tech: "AngularJS", html: `<html ng-app="shop"><body></body></html>`},
	{tech: "AngularJS", html: `<script src="https://ajax.googleapis.com/ajax/libs/angularjs/1.8.2/angular.min.js"></script>`},
	{tech: "ASP.NET", version: "4.0.30319", header: http.Header{"X-Aspnet-Version": {"4.0.30319"}}},
	{tech: "ASP.NET", header: http.Header{"Set-Cookie": {"ASP.NET_SessionId=abc; path=/; HttpOnly"}}},
	{tech: "ASP.NET", html: `<form><input type="hidden" name="__VIEWSTATE" value="x"></form>`},
	{tech: "Express", header: http.Header{"X-Powered-By": {"Express"}}},
	{tech: "Express", header: http.Header{"Set-Cookie": {"connect.sid=s%3Aabc; Path=/; HttpOnly"}}},
	{tech: "Laravel", header: http.Header{"Set-Cookie": {"laravel_session=eyJpdiI6; path=/; httponly"}}},
	{tech: "Django", html: `<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="x"></form>`},
	{tech: "Ruby on Rails", html: `<meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="x">`},
	{tech: "React", html: `<div id="root" data-reactroot=""></div>`},
	{tech: "React", version: "18.2.0", html: `<script src="https://unpkg.com/react@18.2.0/umd/react.production.min.js"></script>`},
	{tech: "Vue", html: `<div data-v-7ba5bd90 class="hero"></div>`},
	{tech: "Vue", version: "3.4.15", html: `<script src="https://unpkg.com/vue@3.4.15/dist/vue.global.prod.js"></script>`},
	{tech: "Svelte", html: `<h1 class="title svelte-1x2y3z">Hi</h1>`},
	{tech: "jQuery", version: "3.7.1", html: `<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script>`},
	{tech: "jQuery", version: "3.6.0", html: `<script src="https://cdnjs.cloudflare.com/ajax/libs/jquery/3.6.0/jquery.min.js"></script>`},
	{tech: "Bootstrap", version: "5.3.2", html: `<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css">`},
	{tech: "Bootstrap", html: `<script src="/assets/js/bootstrap.bundle.min.js"></script>`},
	{tech: "Tailwind CSS", version: "3.4.1", html: `<style>/*! tailwindcss v3.4.1 | MIT License | https://tailwindcss.com */ *,:before{--tw-translate-x:0}</style>`},
	{tech: "Tailwind CSS", html: `<script src="https://cdn.tailwindcss.com"></script>`},
	{tech: "Google Analytics", html: `<script async src="https://www.googletagmanager.com/gtag/js?id=UA-123456-1"></script>`},
	{tech: "Google Analytics", html: `<script>(function(i,s,o,g,r,a,m){})(window,document,'script','https://www.google-analytics.com/analytics.js','ga'); ga('create', 'UA-1-1', 'auto');</script>`},
	{tech: "Google Analytics 4", html: `<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ"></script>`},
	{tech: "Google Analytics 4", html: `<script>gtag('config', 'G-ABC123XYZ');</script>`},
	{tech: "Google Tag Manager", html: `<script>(function(w,d,s,l,i){j.src='https://www.googletagmanager.com/gtm.js?id='+i})(window,document,'script','dataLayer','GTM-ABCD12');</script>`},
	{tech: "Google Tag Manager", html: `<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABCD12"></iframe></noscript>`},
	{tech: "Plausible", html: `<script defer data-domain="example.com" src="https://plausible.io/js/script.js"></script>`},
	{tech: "Matomo", html: `<script>var _paq = window._paq = []; _paq.push(['trackPageView']);</script>`},
	{tech: "Matomo", header: http.Header{"Set-Cookie": {"_pk_id.1.1fff=abc; path=/"}}},
	{tech: "HubSpot", html: `<script id="hs-script-loader" async src="//js.hs-scripts.com/1234567.js"></script>`},
	{tech: "HubSpot", header: http.Header{"Set-Cookie": {"hubspotutk=abc; path=/"}}},
	{tech: "Intercom", html: `<script>window.intercomSettings = { app_id: "abc" };</script>`},
	{tech: "Intercom", html: `<script src="https://widget.intercom.io/widget/abc123"></script>`},
	{tech: "Stripe.js", html: `<script src="https://js.stripe.com/v3/"></script>`},
	{tech: "Cloudflare", header: http.Header{"Server": {"cloudflare"}, "Cf-Ray": {"8512f2a0c9e1d3b4-LHR"}}},
	{tech: "Cloudflare", header: http.Header{"Set-Cookie": {"__cf_bm=abc; path=/; HttpOnly"}}},
	{tech: "Cloudflare", html: `<script src="/cdn-cgi/scripts/5c5dd728/cloudflare-static/email-decode.min.js"></script>`},
	{tech: "Cloudflare Web Analytics", html: `<script defer src="https://static.cloudflareinsights.com/beacon.min.js" data-cf-beacon='{"token": "abc"}'></script>`},
	{tech: "Fastly", header: http.Header{"X-Served-By": {"cache-lhr7321-LHR"}, "X-Cache": {"HIT"}}},
	{tech: "Akamai", header: http.Header{"Server": {"AkamaiGHost"}}},
	{tech: "Akamai", header: http.Header{"X-Akamai-Transformed": {"9 - 0 pmb=mRUM,1"}}},
	{tech: "CloudFront", header: http.Header{"X-Amz-Cf-Id": {"abc=="}, "Via": {"1.1 abc.cloudfront.net (CloudFront)"}}},
	{tech: "Varnish", header: http.Header{"Via": {"1.1 varnish (Varnish/7.1)"}}},
	{tech: "Vercel", header: http.Header{"Server": {"Vercel"}, "X-Vercel-Id": {"lhr1::abc"}}},
	{tech: "Netlify", header: http.Header{"Server": {"Netlify"}, "X-Nf-Request-Id": {"01HABC"}}},
	{tech: "GitHub Pages", header: http.Header{"Server": {"GitHub.com"}}},
	{tech: "Amazon S3", header: http.Header{"Server": {"AmazonS3"}}},
	{tech: "nginx", version: "1.25.3", header: http.Header{"Server": {"nginx/1.25.3"}}},
	{tech: "nginx", header: http.Header{"Server": {"nginx"}}},
	{tech: "OpenResty", version: "1.21.4.3", header: http.Header{"Server": {"openresty/1.21.4.3"}}},
	{tech: "Apache", version: "2.4.58", header: http.Header{"Server": {"Apache/2.4.58 (Ubuntu)"}}},
	{tech: "IIS", version: "10.0", header: http.Header{"Server": {"Microsoft-IIS/10.0"}}},
	{tech: "LiteSpeed", header: http.Header{"Server": {"LiteSpeed"}, "X-Litespeed-Cache": {"hit"}}},
	{tech: "Caddy", header: http.Header{"Server": {"Caddy"}}},
	{tech: "PHP", version: "8.2.12", header: http.Header{"X-Powered-By": {"PHP/8.2.12"}}},
	{tech: "PHP", header: http.Header{"Set-Cookie": {"PHPSESSID=abc; path=/"}}},
}

func TestTechnologyRules(t *testing.T) {
	t.Parallel()
	for _, c := range techCases {
		rep := Analyze(Page{URL: "https://example.com/", Status: 200, Header: c.header, HTML: []byte(c.html)}, nil)
		i := slices.IndexFunc(rep.Technologies, func(tc Technology) bool { return tc.Name == c.tech })
		if i < 0 {
			t.Errorf("%s not found in %.80q %v; found %v", c.tech, c.html, c.header, names(rep.Technologies))
			continue
		}
		got := rep.Technologies[i]
		if got.Version != c.version {
			t.Errorf("%s in %.80q %v: version %q, want %q", c.tech, c.html, c.header, got.Version, c.version)
		}
		if len(got.Evidence) == 0 || got.Category != byName(c.tech).category {
			t.Errorf("%s: %+v", c.tech, got)
		}
	}
}

// TestEveryTechnologyIsTested keeps the table and its cases together.
func TestEveryTechnologyIsTested(t *testing.T) {
	t.Parallel()
	for _, tech := range technologies {
		if !slices.ContainsFunc(techCases, func(c techCase) bool { return c.tech == tech.name }) {
			t.Errorf("%s has no case in techCases", tech.name)
		}
		if !slices.Contains(categoryOrder, tech.category) {
			t.Errorf("%s: category %q is not in categoryOrder", tech.name, tech.category)
		}
		for _, implied := range tech.implies {
			byName(implied) // panics when missing
		}
	}
}

// Pages that name a technology without running it, and near misses of
// the patterns: none may be recognised.
func TestTechnologyRulesAreSpecific(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		header http.Header
		html   string
	}{
		{html: `<p>We moved from WordPress and Drupal to Hugo, behind nginx and Cloudflare, with React and Vue.</p>`},
		{html: `<p>Shopify.shop is how the theme names the store</p><code>window.__NUXT__</code>`}, // text, not code
		{html: `<script src="https://dcf.espn.com/TWDC-DTCI/prod/Bootstrap.js"></script>`},
		{html: `<script src="/js/jquery-migrate.min.js"></script><script src="/js/myjquery.js"></script>`},
		{html: `<script src="/static/reactive.js"></script><script src="/js/vuex.min.js"></script>`},
		{html: `<div id="next"></div><div class="svelte">x</div><div data-v-abc>x</div>`},
		{html: `<meta name="description" content="WordPress 6.4 themes">`},
		{html: `<script type="text/template">Shopify.shop = 1; _paq.push(1)</script>`}, // not run
		{header: http.Header{"Server": {"Apache-Coyote/1.1"}}},
		{header: http.Header{"Server": {"gws"}, "X-Cache": {"HIT"}, "Via": {"1.1 google"}}},
		{header: http.Header{"Set-Cookie": {"session=abc; path=/", "csrftoken=abc"}}},
	} {
		rep := Analyze(Page{URL: "https://example.com/", Header: c.header, HTML: []byte(c.html)}, nil)
		if len(rep.Technologies) > 0 {
			t.Errorf("%.80q %v: recognised %v", c.html, c.header, rep.Technologies)
		}
	}
}

func TestImpliedTechnologies(t *testing.T) {
	t.Parallel()
	rep := Analyze(Page{URL: "https://example.com/", HTML: []byte(`<script src="/wp-content/plugins/woocommerce/assets/js/cart.js"></script>`)}, nil)
	want := []string{"WooCommerce", "WordPress", "PHP"} // ecommerce, cms, language: sorted by category
	slices.Sort(want)
	got := names(rep.Technologies)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("technologies %v, want %v", got, want)
	}
	for _, tc := range rep.Technologies {
		if tc.Name == "PHP" && !slices.Equal(tc.Evidence, []string{"implied by WordPress"}) {
			t.Errorf("PHP evidence %q", tc.Evidence)
		}
		if tc.Name == "WordPress" && tc.Evidence[0] != "script https://example.com/wp-content/plugins/woocommerce/assets/js/cart.js" {
			t.Errorf("WordPress evidence %q", tc.Evidence)
		}
	}
}

func names(techs []Technology) []string {
	out := []string{}
	for _, tc := range techs {
		out = append(out, tc.Name)
	}
	return out
}

func TestEvidenceIsQuotedShort(t *testing.T) {
	t.Parallel()
	long := "https://cdn.shopify.com/" + strings.Repeat("a", 5000) + ".js"
	rep := Analyze(Page{HTML: []byte(`<script src="` + long + `"></script>`)}, nil)
	if len(rep.Technologies) != 1 || len(rep.Technologies[0].Evidence[0]) > maxQuote+len("script ")+len("…") {
		t.Fatalf("%+v", rep.Technologies)
	}
}
