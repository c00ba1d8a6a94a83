package sitemap_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/intel/sitemap"
)

// Decode reads one file, here a urlset with an image extension.
func ExampleDecode() {
	body := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod><priority>1.0</priority></url>
  <url><loc>https://example.com/herons</loc><image:image><image:loc>https://example.com/heron.jpg</image:loc></image:image></url>
</urlset>`)
	dec, err := sitemap.Decode(body, nil, func(it sitemap.Item) bool {
		fmt.Printf("%s lastmod=%q priority=%q images=%d\n", it.Loc, it.Lastmod, it.Priority, it.Images)
		return true
	})
	fmt.Println(dec.Kind, dec.Items, err)
	// Output:
	// https://example.com/ lastmod="2024-05-01" priority="1.0" images=0
	// https://example.com/herons lastmod="" priority="" images=1
	// urlset 2 <nil>
}

// Read finds a site's sitemaps through its robots.txt and reads them.
func ExampleRead() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\n", origin)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<urlset><url><loc>%[1]s/a</loc><lastmod>2024-05-30</lastmod></url>
<url><loc>%[1]s/b</loc><lastmod>2024-13-01</lastmod></url><url><loc>%[1]s/a</loc></url></urlset>`, origin)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	f, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true}) // the test site is on loopback
	if err != nil {
		log.Fatal(err)
	}
	now := func() time.Time { return time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC) }
	rep, err := sitemap.Read(context.Background(), f, sitemap.Input{URL: site.URL + "/"}, &sitemap.Options{Now: now})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Sitemaps[0].Source, rep.Sitemaps[0].Kind, rep.URLCount, "URLs,", rep.Lastmod.Last7Days, "changed in the last 7 days")
	for _, p := range rep.Problems {
		fmt.Println(p.Code)
	}
	// Output:
	// robots.txt urlset 2 URLs, 1 changed in the last 7 days
	// duplicate_url
	// invalid_lastmod
}
