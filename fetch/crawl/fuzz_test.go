package crawl

import (
	"net/url"
	"testing"
)

// FuzzParseSitemap: any body, gzipped or not, parses or fails without a
// panic, and every location visited is an absolute http(s) URL.
func FuzzParseSitemap(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><urlset><url><loc>https://example.com/a</loc></url><url><loc>/b</loc></url></urlset>`))
	f.Add([]byte(`<sitemapindex><sitemap><loc>https://example.com/s.xml.gz</loc></sitemap></sitemapindex>`))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0})
	f.Add([]byte(`<urlset><url><loc>javascript:alert(1)</loc></url><url><loc>//other.example/x#frag</loc></url>`))
	f.Add([]byte("https://example.com/a\nhttps://example.com/b#c\n"))
	base, _ := url.Parse("https://example.com/sitemap.xml")
	f.Fuzz(func(t *testing.T, body []byte) {
		sitemapLocs(body, base, func(u *url.URL, _ bool) bool {
			if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Fragment != "" {
				t.Fatalf("kept %q", u)
			}
			return true
		})
	})
}
