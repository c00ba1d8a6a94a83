package crawl

import (
	"net/url"
	"testing"
)

// FuzzParseSitemap: any body, gzipped or not, parses or fails without a
// panic, and every location kept is an absolute http(s) URL.
func FuzzParseSitemap(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><urlset><url><loc>https://example.com/a</loc></url><url><loc>/b</loc></url></urlset>`))
	f.Add([]byte(`<sitemapindex><sitemap><loc>https://example.com/s.xml.gz</loc></sitemap></sitemapindex>`))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0})
	f.Add([]byte(`<urlset><url><loc>javascript:alert(1)</loc></url><url><loc>//other.example/x#frag</loc></url>`))
	base, _ := url.Parse("https://example.com/sitemap.xml")
	f.Fuzz(func(t *testing.T, body []byte) {
		doc, err := parseSitemap(body)
		if err != nil {
			return
		}
		for _, l := range append(doc.URLs, doc.Sitemaps...) {
			if u := resolveLoc(base, l.Loc); u != nil && (u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Fragment != "") {
				t.Fatalf("kept %q from <loc>%q</loc>", u, l.Loc)
			}
		}
	})
}

// FuzzParseRobots: any status and body give rules that answer for any
// agent and path without a panic; a 4xx allows everything and a 5xx
// forbids everything (RFC 9309 §2.3.1).
func FuzzParseRobots(f *testing.F) {
	f.Add(200, []byte("User-agent: *\nDisallow: /private\nAllow: /private/ok$\n"), "/private/x", "webinfra")
	f.Add(200, []byte("user-agent: webinfra\ndisallow: /*.pdf$\n\nsitemap: https://example.com/s.xml"), "/a.pdf", "WebInfra")
	f.Add(404, []byte("garbage"), "/", "*")
	f.Add(503, []byte(""), "/anything", "bot")
	f.Fuzz(func(t *testing.T, status int, body []byte, path, agent string) {
		data := parseRobots(status, body)
		allowed := data.TestAgent(path, agent)
		switch {
		case status >= 400 && status < 500 && !allowed:
			t.Fatalf("status %d disallowed %q", status, path)
		case status >= 500 && status < 600 && allowed:
			t.Fatalf("status %d allowed %q", status, path)
		}
	})
}
