package company

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/intel/pageinfo"
	"github.com/webinfra/webinfra/internal/wcxb"
)

// yoastHome is a WordPress home page as Yoast SEO writes its JSON-LD: a
// @graph whose WebSite points to the Organization by @id.
const yoastHome = `<!DOCTYPE html>
<html lang="de-DE"><head>
<meta charset="UTF-8">
<title>Bäckerei Beispiel – Brot aus Berlin</title>
<meta name="description" content="Handwerksbäckerei in Berlin seit 1921.">
<meta property="og:site_name" content="Bäckerei Beispiel">
<meta property="article:publisher" content="https://www.facebook.com/baeckerei.beispiel">
<meta name="twitter:site" content="@baeckerei_bsp">
<link rel="icon" href="/wp-content/uploads/icon-32x32.png" sizes="32x32">
<link rel="apple-touch-icon" href="/wp-content/uploads/icon-180x180.png">
<script type="application/ld+json" class="yoast-schema-graph">{"@context":"https://schema.org","@graph":[
 {"@type":"WebPage","@id":"https://baeckerei-beispiel.de/","url":"https://baeckerei-beispiel.de/","name":"Bäckerei Beispiel","isPartOf":{"@id":"https://baeckerei-beispiel.de/#website"}},
 {"@type":"WebSite","@id":"https://baeckerei-beispiel.de/#website","url":"https://baeckerei-beispiel.de/","name":"Bäckerei Beispiel","publisher":{"@id":"https://baeckerei-beispiel.de/#organization"}},
 {"@type":["Organization","Bakery"],"@id":"https://baeckerei-beispiel.de/#organization","name":"Bäckerei Beispiel","legalName":"Bäckerei Beispiel GmbH",
  "alternateName":["Beispiel Brot"],"url":"https://baeckerei-beispiel.de/",
  "logo":{"@type":"ImageObject","@id":"https://baeckerei-beispiel.de/#/schema/logo/image/","url":"https://baeckerei-beispiel.de/wp-content/uploads/logo.png","contentUrl":"https://baeckerei-beispiel.de/wp-content/uploads/logo.png"},
  "foundingDate":"1921-03-01","founder":{"@type":"Person","name":"Anna Beispiel"},"numberOfEmployees":{"@type":"QuantitativeValue","minValue":11,"maxValue":50},
  "address":{"@type":"PostalAddress","streetAddress":"Brotstraße 1","addressLocality":"Berlin","postalCode":"10115","addressCountry":{"@type":"Country","name":"DE"}},
  "contactPoint":[{"@type":"ContactPoint","contactType":"customer service","telephone":"+49 30 1234567","availableLanguage":["German","English"]}],
  "sameAs":["https://www.facebook.com/baeckerei.beispiel","https://x.com/baeckerei_bsp","https://www.instagram.com/baeckerei.beispiel/","https://de.wikipedia.org/wiki/B%C3%A4ckerei_Beispiel"]}
]}</script>
</head><body>
<header><nav><a href="/">Start</a> <a href="/ueber-uns/">Über uns</a> <a href="/kontakt/">Kontakt</a></nav></header>
<main><h1>Brot aus Berlin</h1><p>Wir backen seit 1921.</p>
<p>Ein Rezept von <a href="https://www.instagram.com/chefkoch_anna/">@chefkoch_anna</a>.</p></main>
<footer><p>Telefon: 030 1234567 · <a href="mailto:info@baeckerei-beispiel.de">info@baeckerei-beispiel.de</a> · presse@agentur.example</p>
<a href="/impressum/">Impressum</a> <a href="/karriere/">Karriere</a> <a href="/datenschutz/">Datenschutz</a>
<a href="https://www.facebook.com/baeckerei.beispiel">Facebook</a> <a href="https://www.youtube.com/@baeckereibeispiel">YouTube</a>
<a href="https://www.facebook.com/sharer.php?u=https://baeckerei-beispiel.de/">Teilen</a></footer>
</body></html>`

func TestProfileYoastHome(t *testing.T) {
	t.Parallel()
	rep := Profile(pageinfo.Page{URL: "https://baeckerei-beispiel.de/", Status: 200, HTML: []byte(yoastHome)})
	want := &Report{
		PageURL: "https://baeckerei-beispiel.de/", Name: "Bäckerei Beispiel", LegalName: "Bäckerei Beispiel GmbH",
		AlternateNames: []string{"Beispiel Brot"}, Type: "Bakery", Description: "Handwerksbäckerei in Berlin seit 1921.",
		URL: "https://baeckerei-beispiel.de/", Logo: "https://baeckerei-beispiel.de/wp-content/uploads/logo.png",
		FoundingDate: "1921-03-01", Founders: []string{"Anna Beispiel"}, Employees: "11-50",
		Address:   &Address{Street: "Brotstraße 1", Locality: "Berlin", PostalCode: "10115", Country: "DE"},
		Telephone: "+49301234567", Email: "info@baeckerei-beispiel.de",
		ContactPoints: []ContactPoint{{Type: "customer service", Telephone: "+49 30 1234567", Languages: []string{"German", "English"}}},
		SameAs: []string{"https://www.facebook.com/baeckerei.beispiel", "https://x.com/baeckerei_bsp",
			"https://www.instagram.com/baeckerei.beispiel/", "https://de.wikipedia.org/wiki/B%C3%A4ckerei_Beispiel"},
		SocialProfiles: []SocialProfile{
			{Network: "facebook", URL: "https://www.facebook.com/baeckerei.beispiel", Handle: "baeckerei.beispiel", Source: "json-ld"},
			{Network: "x", URL: "https://x.com/baeckerei_bsp", Handle: "baeckerei_bsp", Source: "json-ld"},
			{Network: "instagram", URL: "https://www.instagram.com/baeckerei.beispiel", Handle: "baeckerei.beispiel", Source: "json-ld"},
			{Network: "instagram", URL: "https://www.instagram.com/chefkoch_anna", Handle: "chefkoch_anna", Source: "anchor"},
			{Network: "youtube", URL: "https://www.youtube.com/@baeckereibeispiel", Handle: "baeckereibeispiel", Source: "anchor"},
		},
		ContactPages: []ContactPage{
			{Kind: "about", URL: "https://baeckerei-beispiel.de/ueber-uns/", Text: "Über uns"},
			{Kind: "contact", URL: "https://baeckerei-beispiel.de/kontakt/", Text: "Kontakt"},
			{Kind: "imprint", URL: "https://baeckerei-beispiel.de/impressum/", Text: "Impressum"},
			{Kind: "careers", URL: "https://baeckerei-beispiel.de/karriere/", Text: "Karriere"},
		},
		Sources: map[string]string{"name": "json-ld", "legal_name": "json-ld", "alternate_names": "json-ld", "founders": "json-ld", "contact_points": "json-ld", "type": "json-ld", "description": "meta description",
			"url": "json-ld", "logo": "json-ld", "founding_date": "json-ld", "employees": "json-ld", "address": "json-ld",
			"same_as": "json-ld", "telephone": "text", "email": "mailto: link"},
		Confidence: "high",
	}
	// The page's contacts are extract/contacts' own answer: checked apart.
	if len(rep.Emails) != 2 || rep.Emails[0].Address != "info@baeckerei-beispiel.de" || rep.Emails[1].Address != "presse@agentur.example" {
		t.Errorf("emails %+v", rep.Emails)
	}
	if len(rep.Phones) != 1 || rep.Phones[0].E164 != "+49301234567" {
		t.Errorf("phones %+v", rep.Phones)
	}
	rep.Emails, rep.Phones = want.Emails, want.Phones
	if g, w := jsonOf(t, rep), jsonOf(t, want); g != w {
		t.Errorf("profile\n got %s\nwant %s", g, w)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestProfileMicrodataLocalBusiness(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Home - Joe's Plumbing</title></head><body>
<div itemscope itemtype="https://schema.org/Plumber">
  <img itemprop="logo" src="/logo.png" alt="Joe's">
  <h1 itemprop="name">Joe's Plumbing</h1>
  <span itemprop="telephone">(415) 555-2671</span>
  <div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress">
    <span itemprop="streetAddress">1 Pipe St</span>, <span itemprop="addressLocality">San Francisco</span>,
    <span itemprop="addressRegion">CA</span> <span itemprop="postalCode">94103</span></div>
  <link itemprop="sameAs" href="https://www.facebook.com/joesplumbingsf">
</div></body></html>`
	rep := Profile(pageinfo.Page{URL: "https://joesplumbing.example/", HTML: []byte(page)})
	if rep.Name != "Joe's Plumbing" || rep.Type != "Plumber" || rep.Logo != "https://joesplumbing.example/logo.png" ||
		rep.Telephone != "(415) 555-2671" || rep.Sources["name"] != "microdata" || rep.Confidence != "high" {
		t.Errorf("%+v", rep)
	}
	if a := rep.Address; a == nil || a.Street != "1 Pipe St" || a.Locality != "San Francisco" || a.Region != "CA" || a.PostalCode != "94103" {
		t.Errorf("address %+v", rep.Address)
	}
	if len(rep.SocialProfiles) != 1 || rep.SocialProfiles[0].Source != "json-ld" { // sameAs, whatever the syntax
		t.Errorf("social %+v", rep.SocialProfiles)
	}
}

// The organization used is the site's, not the others a page describes.
func TestProfileChoosesTheSitesOrganization(t *testing.T) {
	t.Parallel()
	ld := func(blocks ...string) string {
		var b strings.Builder
		for _, s := range blocks {
			b.WriteString(`<script type="application/ld+json">` + s + `</script>`)
		}
		return `<html><head><title>Page | Shop</title>` + b.String() + `</head><body><p>x</p></body></html>`
	}
	for _, c := range []struct {
		name, url, html string
		want            string // the name, "" for none from the data
		confidence      string
		note            string
	}{
		{"a product's brand", "https://shop.example/p/1",
			ld(`{"@context":"https://schema.org","@type":"Product","name":"Shoe","brand":{"@type":"Organization","name":"Nike","url":"https://nike.com/"},
			"manufacturer":{"@type":"Corporation","name":"Nike Inc."}}`), "", "low", "no organization data"},
		{"the site's own brand", "https://shop.example/p/1",
			ld(`{"@context":"https://schema.org","@type":"Product","name":"Shoe","brand":{"@type":"Organization","name":"Shop","url":"https://www.shop.example/"}}`),
			"Shop", "high", ""},
		{"a list of companies and the publisher", "https://news.example/best-movers",
			ld(`{"@type":"MovingCompany","name":"A Movers","url":"https://news.example/a-review","telephone":"1","address":"x","sameAs":"https://a.example"}`,
				`{"@type":"MovingCompany","name":"B Movers","url":"https://news.example/b-review","telephone":"2","address":"y","sameAs":"https://b.example"}`,
				`{"@type":"MovingCompany","name":"C Movers","url":"https://news.example/c-review","telephone":"3","address":"z","sameAs":"https://c.example"}`,
				`{"@graph":[{"@type":"Organization","@id":"https://news.example/#organization","name":"News Example"},
				 {"@type":"Article","headline":"Best movers","publisher":{"@id":"https://news.example/#organization"}}]}`),
			"News Example", "high", "describes 4 organizations"},
		{"an organization of another site", "https://blog.example/",
			ld(`{"@type":"Organization","name":"Other Corp","url":"https://other.example/"}`), "Other Corp", "medium", "another site"},
		{"merged by @id", "https://acme.example/",
			ld(`{"@graph":[{"@type":"Organization","@id":"#org","name":"Acme"},{"@type":"WebSite","publisher":{"@type":"Organization","@id":"#org","logo":"/l.png"}}]}`),
			"Acme", "high", ""},
	} {
		rep := Profile(pageinfo.Page{URL: c.url, HTML: []byte(c.html)})
		got := rep.Name
		if rep.Sources["name"] != "json-ld" {
			got = ""
		}
		if got != c.want || rep.Confidence != c.confidence || (c.note != "" && !strings.Contains(strings.Join(rep.Notes, "\n"), c.note)) {
			t.Errorf("%s: name %q (%s), confidence %s, notes %q; want %q, %s, a note with %q", c.name, rep.Name, rep.Sources["name"], rep.Confidence, rep.Notes, c.want, c.confidence, c.note)
		}
		if c.name == "merged by @id" && rep.Logo != "https://acme.example/l.png" {
			t.Errorf("%s: logo %q", c.name, rep.Logo)
		}
	}
}

func TestProfileWithoutOrganizationData(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, url, head, body string
		wantName, source      string
		confidence            string
	}{
		{"og:site_name", "https://acme.example/", `<title>Welcome | Acme Widgets</title><meta property="og:site_name" content="Acme">`,
			`<a href="https://github.com/acme">GitHub</a>`, "Acme", "og:site_name", "medium"},
		{"title spelling the domain", "https://www.acme-widgets.co.uk/", `<title>Acme Widgets Ltd: the finest widgets since 1901</title>`,
			`<a href="mailto:sales@acme-widgets.co.uk">Mail</a>`, "Acme Widgets", "title", "medium"},
		{"title on an inner page", "https://example.org/news", `<title>News | National Widget Council</title>`, ``,
			"National Widget Council", "title", "low"},
		{"nothing", "https://example.org/", ``, `<p>hello</p>`, "", "", "low"},
	} {
		rep := Profile(pageinfo.Page{URL: c.url, HTML: []byte("<html><head>" + c.head + "</head><body>" + c.body + "</body></html>")})
		if rep.Name != c.wantName || rep.Sources["name"] != c.source || rep.Confidence != c.confidence || len(rep.Notes) == 0 {
			t.Errorf("%s: name %q from %q, confidence %s, notes %q; want %q from %q, %s", c.name, rep.Name, rep.Sources["name"], rep.Confidence, rep.Notes, c.wantName, c.source, c.confidence)
		}
		if u, _ := url.Parse(c.url); rep.URL != u.Scheme+"://"+u.Host+"/" || rep.Sources["url"] != "page" {
			t.Errorf("%s: url %q from %s, want the page's origin", c.name, rep.URL, rep.Sources["url"])
		}
	}
}

func TestCleanTitle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		title, site string
		home        bool
		want        string
	}{
		{"Postman API Platform | Sign Up for Free", "postman.com", true, "Postman"},
		{"DigitalOcean: AI-Powered Cloud", "digitalocean.com", true, "DigitalOcean"},
		{"HR Cloud: All-in-One HRIS", "hrcloud.com", true, "HR Cloud"},
		{"Home - Joe's Plumbing", "joesplumbing.example", true, "Joe's Plumbing"},
		{"Widgets for everyone — Zed", "zed.example", true, "Zed"},
		{"Widgets for everyone — Zedcorp", "other.example", true, "Zedcorp"},
		{"Blog post title that is long | Zedcorp", "other.example", false, "Zedcorp"},
		{"About us", "other.example", false, ""},
		{"", "", true, ""},
	} {
		if got := cleanTitle(c.title, c.site, c.home); got != c.want {
			t.Errorf("%q on %s: %q, want %q", c.title, c.site, got, c.want)
		}
	}
}

func TestProfileLimits(t *testing.T) {
	t.Parallel()
	// A page over contacts' 5 MiB input cap: its footer is still read.
	filler := "<!--" + strings.Repeat("lorem ipsum dolor sit amet ", 6<<20/27) + "-->"
	big := "<html><head><title>Big | Bigco</title></head><body>" + filler + `<footer><a href="mailto:hi@bigco.example">hi</a></footer></body></html>`
	rep := Profile(pageinfo.Page{URL: "https://bigco.example/", HTML: []byte(big)})
	if len(rep.Emails) != 1 || rep.Email != "hi@bigco.example" {
		t.Errorf("big page: emails %+v", rep.Emails)
	}
	huge := Profile(pageinfo.Page{URL: "https://bigco.example/", HTML: []byte(strings.Repeat(big, 2))})
	if !strings.Contains(strings.Join(huge.Notes, " "), "larger than 10 MiB") {
		t.Errorf("huge page: notes %q", huge.Notes)
	}
	deep := Profile(pageinfo.Page{URL: "https://deep.example/", HTML: []byte(strings.Repeat("<div>", 600))})
	if !strings.Contains(strings.Join(deep.Notes, " "), "parser refused") {
		t.Errorf("deep page: notes %q", deep.Notes)
	}
	for _, p := range []pageinfo.Page{{}, {URL: "not a url", HTML: []byte("<p>x</p>")}, {URL: "https://x.example/", Status: 404}} {
		rep := Profile(p)
		if rep.Confidence != "low" || rep.SocialProfiles == nil || rep.Emails == nil || rep.ContactPages == nil {
			t.Errorf("%+v: %+v", p, rep)
		}
	}
	// Many organizations, many sameAs links: the lists stay capped.
	var b strings.Builder
	b.WriteString(`<script type="application/ld+json">[`)
	for i := range 200 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"@type":"Organization","name":"O","sameAs":[`)
		for j := range 100 {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"https://github.com/o` + strings.Repeat("x", j%30) + `"`)
		}
		b.WriteString("]}")
	}
	b.WriteString("]</script>")
	rep = Profile(pageinfo.Page{URL: "https://many.example/", HTML: []byte(b.String())})
	if len(rep.SameAs) > maxSameAs || len(rep.SocialProfiles) > maxProfiles {
		t.Errorf("caps: %d sameAs, %d profiles", len(rep.SameAs), len(rep.SocialProfiles))
	}
}

// TestRealPages profiles pages of the WCXB development set.
func TestRealPages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		id, name, source, confidence string
		social                       []string // network:handle(source)
		pages                        []string // kinds
	}{
		{"0009", "It's All Trip To Me", "json-ld", "high", []string{"facebook:itsalltriptome(json-ld)", "x:itsalltriptome(json-ld)"}, []string{"about", "contact"}},
		{"0056", "Freightwaves Checkpoint", "json-ld", "high", nil, nil},
		{"2835", "DigitalOcean", "title", "medium", []string{"github:digitalocean(anchor)"}, []string{"about", "careers"}},
		{"2849", "Plausible Analytics", "og:site_name", "medium", []string{"x:plausiblehq(anchor)"}, []string{"about", "contact", "imprint"}},
		{"4467", "OpenProject.org", "og:site_name", "medium", []string{"github:opf(anchor)"}, []string{"contact", "about", "careers", "imprint"}},
	} {
		rep := Profile(readWCXB(t, c.id))
		if rep.Name != c.name || rep.Sources["name"] != c.source || rep.Confidence != c.confidence {
			t.Errorf("%s: name %q from %s, %s; want %q from %s, %s", c.id, rep.Name, rep.Sources["name"], rep.Confidence, c.name, c.source, c.confidence)
		}
		var social, kinds []string
		for _, s := range rep.SocialProfiles {
			social = append(social, s.Network+":"+s.Handle+"("+s.Source+")")
		}
		for _, p := range rep.ContactPages {
			kinds = append(kinds, p.Kind)
		}
		for _, s := range c.social {
			if !slices.Contains(social, s) {
				t.Errorf("%s: social %v, want %s", c.id, social, s)
			}
		}
		for _, k := range c.pages {
			if !slices.Contains(kinds, k) {
				t.Errorf("%s: contact pages %v, want %s", c.id, kinds, k)
			}
		}
		if rep.Logo == "" || rep.URL == "" {
			t.Errorf("%s: logo %q url %q", c.id, rep.Logo, rep.URL)
		}
	}
}

// readWCXB reads one WCXB page and its URL; the test is skipped when the
// set is not there.
func readWCXB(t *testing.T, id string) pageinfo.Page {
	t.Helper()
	p := wcxb.LoadPage(t, id)
	return pageinfo.Page{URL: p.URL, Status: 200, Header: http.Header{}, HTML: p.HTML}
}
