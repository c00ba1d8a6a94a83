package pageinfo

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/internal/testenv"
	"github.com/webinfra/webinfra/internal/wcxb"
)

const countsPage = `<!DOCTYPE html>
<html lang="fr-FR">
<head>
<meta charset="utf-8">
<title>  Le   Site  </title>
<meta name="description" content="Un site">
<meta name="robots" content="noindex, follow">
<meta name="generator" content="Hugo 0.121.1">
<meta name="generator" content="Site Kit by Google 1.170.0">
<meta property="og:locale" content="fr_FR">
<meta property="og:type" content="website">
<meta name="twitter:card" content="summary">
<link rel="canonical" href="/page">
<link rel="alternate" hreflang="en" href="https://example.com/en/page">
<link rel="alternate" hreflang="x-default" href="/page">
<link rel="alternate" type="application/rss+xml" title="Flux" href="/index.xml">
<link rel="apple-touch-icon" href="/apple.png">
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="/style.css">
<style>body{}</style>
<script src="/app.js"></script>
<script>var x = 1;</script>
<script type="application/ld+json">[{"@context":"https://schema.org","@type":"WebSite","name":"S"},{"@type":"Organization","address":{"@type":"PostalAddress"}}]</script>
<script type="application/json">{"data":1}</script>
</head>
<body>
<h1>Titre <span>principal</span></h1><h2>a</h2><h2>b</h2><h3>c</h3><h6>f</h6>
<p>Un deux trois, quatre-cinq 2024.</p>
<a href="/a">1</a>
<a href="https://www.example.com/b">2</a>
<a href="https://other.example.org/c" rel="nofollow sponsored">3</a>
<a href="https://third.example.net/d" rel="UGC">4</a>
<a href="#top">5</a>
<a href="mailto:x@example.com">6</a>
<a href="javascript:void(0)">7</a>
<a>no href</a>
<area href="/map">
<img src="a.png" alt="A"><img src="b.png" alt=""><img src="c.png">
<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">P</span>
  <div itemprop="offers" itemscope itemtype="https://schema.org/Offer"></div></div>
<template><p>not counted words here</p></template>
<noscript><p>Activez JavaScript</p></noscript>
</body>
</html>`

func TestAnalyzeCounts(t *testing.T) {
	t.Parallel()
	header := http.Header{
		"Server":           {"nginx"},
		"Content-Type":     {"text/html; charset=utf-8"},
		"Content-Language": {"fr"},
		"Cache-Control":    {"max-age=600"},
		"Age":              {"42"},
		"Etag":             {`"abc"`},
		"Alt-Svc":          {`h3=":443"; ma=86400, h2=":443"`},
	}
	rep := Analyze(Page{URL: "https://example.com/dir/page", Status: 200, Header: header, HTML: []byte(countsPage)}, nil)
	want := &Report{
		URL: "https://example.com/dir/page", Status: 200,
		Title: "Le Site", Description: "Un site", Language: "fr-FR",
		LanguageSources: LanguageSources{HTMLLang: "fr-FR", ContentLanguage: "fr", OGLocale: "fr_FR"},
		Canonical:       "https://example.com/page", MetaRobots: "noindex, follow",
		Generator: "Hugo 0.121.1", Generators: []string{"Hugo 0.121.1", "Site Kit by Google 1.170.0"},
		Technologies: []Technology{
			{Name: "Hugo", Category: "framework", Version: "0.121.1", Evidence: []string{"meta generator: Hugo 0.121.1"}},
			{Name: "nginx", Category: "server", Evidence: []string{"header Server: nginx"}},
		},
		ServerHeaders: ServerHeaders{Server: "nginx", ContentType: "text/html; charset=utf-8", ContentLanguage: "fr",
			CacheControl: "max-age=600", Age: "42", ETag: true, HTTP3: true},
		Links:       LinkCounts{Total: 8, Internal: 3, External: 2, Other: 3, Nofollow: 1, Sponsored: 1, UGC: 1, UniqueHosts: 4},
		Images:      ImageCounts{Total: 3, WithoutAlt: 1},
		Scripts:     ScriptCounts{External: 1, Inline: 1},
		Stylesheets: StyleCounts{External: 1, Inline: 1},
		Headings:    Headings{H1: 1, H2: 2, H3: 1, H6: 1, H1Text: []string{"Titre principal"}},
		// Titre principal a b c f | Un deux trois quatre cinq 2024 | 1 2 3 4 5 6 7 no href | P | Activez JavaScript
		WordCount: 2 + 4 + 6 + 7 + 2 + 1 + 2,
		StructuredData: StructuredData{Types: []string{"Offer", "Organization", "PostalAddress", "Product", "WebSite"},
			JSONLDBlocks: 1, JSONLDItems: 2, MicrodataItems: 1, OpenGraph: true, OpenGraphType: "website", TwitterCard: "summary"},
		Hreflang: []Alternate{{"en", "https://example.com/en/page"}, {"x-default", "https://example.com/page"}},
		Feeds:    []Feed{{URL: "https://example.com/index.xml", Type: "application/rss+xml", Title: "Flux"}},
		Favicon:  "https://example.com/favicon.svg",
	}
	if g, w := jsonOf(t, rep), jsonOf(t, want); g != w {
		t.Errorf("report\n got %s\nwant %s", g, w)
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

func TestLanguage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		header http.Header
		html   string
		want   string
	}{
		{nil, `<html lang="de"><p>x</p></html>`, "de"},
		{http.Header{"Content-Language": {"en-US, fr"}}, `<p>x</p>`, "en-US"},
		{nil, `<meta http-equiv="content-language" content="es"><p>x</p>`, "es"},
		{nil, `<meta property="og:locale" content="pt_BR"><p>x</p>`, "pt-BR"},
		{nil, `<p>x</p>`, ""},
	} {
		if got := Analyze(Page{Header: c.header, HTML: []byte(c.html)}, nil).Language; got != c.want {
			t.Errorf("%v %q: language %q, want %q", c.header, c.html, got, c.want)
		}
	}
}

func TestLinksWithBaseAndWithoutPageURL(t *testing.T) {
	t.Parallel()
	page := `<base href="https://cdn.example.net/base/"><a href="x">1</a><a href="https://example.com/y">2</a>`
	if got := Analyze(Page{URL: "https://example.com/", HTML: []byte(page)}, nil).Links; got.Internal != 1 || got.External != 1 || got.UniqueHosts != 2 {
		t.Errorf("with <base>: %+v; want x resolved against the base (external), y internal", got)
	}
	page = `<a href="/a">1</a><a href="b">2</a><a href="#c">3</a><a href="https://example.org/">4</a>`
	if got := Analyze(Page{HTML: []byte(page)}, nil).Links; got.Internal != 2 || got.Other != 1 || got.External != 1 {
		t.Errorf("without a page URL: %+v; want relative links internal", got)
	}
}

func TestAnalyzeLimits(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("<div>", 600) + "x"
	for _, c := range []struct {
		name string
		page Page
		opts *Options
		note string
	}{
		{"empty body", Page{Header: http.Header{"Server": {"nginx"}}}, nil, "no body"},
		{"too deep", Page{Header: http.Header{"Server": {"nginx"}}, HTML: []byte(deep)}, nil, "refused"},
		{"over the cap", Page{Header: http.Header{"Server": {"nginx"}}, HTML: []byte("<title>é</title>" + strings.Repeat("<p>mot</p>", 100))}, &Options{MaxHTMLBytes: 15}, "first 15 bytes"},
	} {
		rep := Analyze(c.page, c.opts)
		if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], c.note) {
			t.Errorf("%s: notes %q, want one with %q", c.name, rep.Notes, c.note)
		}
		if len(rep.Technologies) != 1 || rep.Technologies[0].Name != "nginx" {
			t.Errorf("%s: the headers were not read: %v", c.name, rep.Technologies)
		}
	}
	if rep := Analyze(Page{HTML: []byte("<title>é</title>" + strings.Repeat("<p>mot</p>", 100))}, &Options{MaxHTMLBytes: 15}); rep.WordCount != 0 || !strings.HasPrefix(rep.Title, "é") {
		t.Errorf("cut page: title %q, %d words", rep.Title, rep.WordCount)
	}
	if rep := Analyze(Page{}, nil); rep.Technologies == nil || rep.StructuredData.Types != nil {
		t.Errorf("zero page: %+v", rep) // technologies is [] in JSON; structured data absent
	}
}

func TestFromResponse(t *testing.T) {
	t.Parallel()
	res := &fetch.Response{URL: "http://example.com", FinalURL: "https://example.com/", StatusCode: 200,
		Header: http.Header{"Server": {"Caddy"}}, Body: []byte("<title>T</title>")}
	p := FromResponse(res)
	if p.URL != "https://example.com/" || p.Status != 200 || p.Header.Get("Server") != "Caddy" || string(p.HTML) != "<title>T</title>" {
		t.Errorf("%+v", p)
	}
}

// TestRealPages reads pages of the WCXB development set, as fetched.
func TestRealPages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		id           string
		techs        []string // name or name@version
		types        []string
		lang         string
		generator    string
		minLinks     int
		minWords     int
		feeds, h1Any bool
	}{
		{id: "0006", techs: []string{"WordPress@6.9", "jQuery@3.7.1", "PHP"}, types: []string{"BlogPosting", "Organization"},
			lang: "en-US", generator: "WordPress 6.9", minLinks: 100, minWords: 2000, feeds: true, h1Any: true},
		{id: "0082", techs: []string{"Drupal@10", "PHP"}, generator: "Drupal 10 (https://www.drupal.org)", minLinks: 20, minWords: 100},
		{id: "0580", techs: []string{"Shopify"}, minLinks: 50, minWords: 100},
		{id: "0026", techs: []string{"Next.js", "React"}, minLinks: 20, minWords: 500},
		{id: "0037", techs: []string{"Gatsby@5.14.1", "React"}, minWords: 500},
		{id: "0091", techs: []string{"Nuxt", "Vue"}, minWords: 300},
		{id: "0198", techs: []string{"Ghost@6.10"}, minWords: 300},
	} {
		page := readWCXB(t, c.id)
		rep := Analyze(page, nil)
		for _, want := range c.techs {
			name, version, _ := strings.Cut(want, "@")
			i := slices.IndexFunc(rep.Technologies, func(tc Technology) bool { return tc.Name == name })
			if i < 0 || rep.Technologies[i].Version != version {
				t.Errorf("%s (%s): want %s, got %+v", c.id, page.URL, want, rep.Technologies)
			}
		}
		for _, typ := range c.types {
			if !slices.Contains(rep.StructuredData.Types, typ) {
				t.Errorf("%s: types %v, want %s", c.id, rep.StructuredData.Types, typ)
			}
		}
		if c.lang != "" && rep.Language != c.lang || c.generator != "" && rep.Generator != c.generator {
			t.Errorf("%s: language %q generator %q", c.id, rep.Language, rep.Generator)
		}
		if rep.Links.Total < c.minLinks || rep.WordCount < c.minWords || rep.Title == "" {
			t.Errorf("%s: %d links, %d words, title %q", c.id, rep.Links.Total, rep.WordCount, rep.Title)
		}
		if c.feeds && len(rep.Feeds) == 0 || c.h1Any && len(rep.Headings.H1Text) == 0 {
			t.Errorf("%s: feeds %v, h1 %v", c.id, rep.Feeds, rep.Headings.H1Text)
		}
	}
}

// TestCorpusInvariants analyses a slice of the WCXB pages and checks what
// must hold of every report.
func TestCorpusInvariants(t *testing.T) {
	t.Parallel()
	step := 8
	if testing.Short() || testenv.Race {
		step = 60
	}
	files, _ := filepath.Glob(filepath.Join(wcxb.Dir(), "html", "*.html.gz"))
	if len(files) == 0 {
		t.Skipf("WCXB development set not found at %s", wcxb.Dir())
	}
	for i := 0; i < len(files); i += step {
		id := strings.TrimSuffix(filepath.Base(files[i]), ".html.gz")
		rep := Analyze(readWCXB(t, id), nil)
		l := rep.Links
		if l.Internal+l.External+l.Other != l.Total || l.UniqueHosts > l.Internal+l.External {
			t.Errorf("%s: links %+v", id, l)
		}
		if rep.Images.WithoutAlt > rep.Images.Total {
			t.Errorf("%s: images %+v", id, rep.Images)
		}
		if !slices.IsSorted(rep.StructuredData.Types) || len(slices.Compact(slices.Clone(rep.StructuredData.Types))) != len(rep.StructuredData.Types) {
			t.Errorf("%s: types %v", id, rep.StructuredData.Types)
		}
		for _, tc := range rep.Technologies {
			if len(tc.Evidence) == 0 || !slices.Contains(categoryOrder, tc.Category) {
				t.Errorf("%s: %+v", id, tc)
			}
			for _, e := range tc.Evidence {
				if len(e) > 200 {
					t.Errorf("%s: evidence of %s is %d bytes", id, tc.Name, len(e))
				}
			}
		}
	}
}

// readWCXB reads one WCXB page and its URL; the test is skipped when the
// set is not there.
func readWCXB(t *testing.T, id string) Page {
	t.Helper()
	p := wcxb.LoadPage(t, id)
	return Page{URL: p.URL, Status: 200, Header: http.Header{}, HTML: p.HTML}
}
