package redirects

import (
	"net/url"
	"testing"
)

func TestCanonicalisation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ from, to, want string }{
		{"http://example.com/a", "https://example.com/a", "https"},
		{"http://example.com:80/a", "https://example.com:443/a", "https"},
		{"https://example.com/a", "https://www.example.com/a", "www"},
		{"https://www.example.com/a", "https://example.com/a", "no_www"},
		{"http://example.com", "https://www.example.com/", "https+www"},
		{"https://example.com/a", "https://example.com/a/", "trailing_slash"},
		{"https://example.com/a/", "https://example.com/a", "no_trailing_slash"},
		{"https://Example.com/About", "https://example.com/about", "lowercase"},
		{"http://www.example.com/a?x=1", "https://example.com/a/?x=1", "https+no_www+trailing_slash"},
		{"https://example.com/a", "http://example.com/a", ""},           // a downgrade
		{"https://example.com/a", "https://example.com/b", ""},          // another page
		{"https://example.com/a", "https://example.org/a", ""},          // another site
		{"https://example.com/a?x=1", "https://example.com/a?x=2", ""},  // another query
		{"https://example.com/a", "https://example.com:8443/a", ""},     // another port
		{"https://example.com/a", "https://example.com/a", ""},          // nothing changed
		{"https://shop.example.com/a", "https://www.example.com/a", ""}, // another subdomain
	} {
		from, _ := url.Parse(c.from)
		to, _ := url.Parse(c.to)
		if got := canonicalisation(from, to); got != c.want {
			t.Errorf("%s → %s: %q, want %q", c.from, c.to, got, c.want)
		}
	}
}

func TestParseRefresh(t *testing.T) {
	t.Parallel()
	base, _ := url.Parse("https://example.com/dir/page")
	for _, c := range []struct {
		content string
		ok      bool
		delay   int
		url     string
	}{
		{"0; url=https://example.org/", true, 0, "https://example.org/"},
		{"0;URL='next'", true, 0, "https://example.com/dir/next"},
		{`5 ; URL = "/next"`, true, 5, "https://example.com/next"},
		{"3, /next", true, 3, "https://example.com/next"},
		{"3.9; url=/next", true, 3, "https://example.com/next"},
		{".5; url=/next", true, 0, "https://example.com/next"},
		{"30", true, 30, ""},
		{"  10;  ", true, 10, ""},
		{"1 junk", true, 1, ""},
		{"url=/next", false, 0, ""},
		{"", false, 0, ""},
		{"99999999999; url=/x", true, 1<<31 - 1, "https://example.com/x"},
	} {
		r := ParseRefresh(c.content, base)
		if (r != nil) != c.ok {
			t.Errorf("%q: parsed %v, want %v", c.content, r != nil, c.ok)
			continue
		}
		if r != nil && (r.DelaySeconds != c.delay || r.URL != c.url) {
			t.Errorf("%q: delay %d url %q; want %d %q", c.content, r.DelaySeconds, r.URL, c.delay, c.url)
		}
	}
}
