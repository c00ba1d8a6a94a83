package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
)

func gz(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func decodeAll(body []byte, opts *DecodeOptions) ([]Item, Decoded, error) {
	var items []Item
	dec, err := Decode(body, opts, func(it Item) bool { items = append(items, it); return true })
	return items, dec, err
}

func TestDecode(t *testing.T) {
	t.Parallel()
	latin1, _ := charmap.ISO8859_1.NewEncoder().String(`<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://example.com/caf%C3%A9?q=é</loc></url></urlset>`)
	for _, c := range []struct {
		name  string
		body  []byte
		kind  string
		locs  []string
		err   error
		check func(*testing.T, []Item)
	}{
		{name: "urlset", kind: KindURLSet, locs: []string{"https://example.com/a", "https://example.com/b"},
			body: []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
 <url><loc> https://example.com/a </loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq><priority>0.8</priority>
  <image:image><image:loc>https://example.com/1.jpg</image:loc></image:image><image:image><image:loc>https://example.com/2.jpg</image:loc></image:image>
  <video:video><video:title>V</video:title></video:video><news:news><news:title>N</news:title></news:news></url>
 <url><loc>https://example.com/b</loc></url>
</urlset>`),
			check: func(t *testing.T, items []Item) {
				a := items[0]
				if a.Lastmod != "2024-05-01" || a.Changefreq != "daily" || a.Priority != "0.8" || a.Images != 2 || a.Videos != 1 || a.News != 1 {
					t.Errorf("first item %+v", a)
				}
			}},
		{name: "index", kind: KindIndex, locs: []string{"https://example.com/s1.xml.gz"},
			body: []byte(`<sitemapindex><sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2024-01-01T00:00:00Z</lastmod></sitemap></sitemapindex>`),
			check: func(t *testing.T, items []Item) {
				if !items[0].Sitemap || items[0].Lastmod != "2024-01-01T00:00:00Z" {
					t.Errorf("%+v", items[0])
				}
			}},
		{name: "gzip", kind: KindURLSet, locs: []string{"https://example.com/z"}, body: gz(t, `<urlset><url><loc>https://example.com/z</loc></url></urlset>`)},
		{name: "latin-1 in gzip", kind: KindURLSet, locs: []string{"https://example.com/caf%C3%A9?q=é"}, body: gz(t, latin1)},
		{name: "declared latin-1 but UTF-8 (converted by the fetcher)", kind: KindURLSet, locs: []string{"https://example.com/é"},
			body: []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://example.com/é</loc></url></urlset>`)},
		{name: "unescaped ampersand", kind: KindURLSet, locs: []string{"https://example.com/?a=1&b=2"},
			body: []byte(`<urlset><url><loc>https://example.com/?a=1&b=2</loc></url></urlset>`)},
		{name: "text", kind: KindText, locs: []string{"https://example.com/1", "http://example.com/2", "not a url"},
			body: []byte("\uFEFF https://example.com/1\r\n\r\nhttp://example.com/2\nnot a url\n")},
		{name: "rss", kind: KindRSS, locs: []string{"https://example.com/post-1", "https://example.com/post-2"},
			body: []byte(`<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>T</title>
<atom:link href="https://example.com/feed" rel="self"/>
<item><title>1</title><link>https://example.com/post-1</link><pubDate>Wed, 01 May 2024 10:00:00 +0000</pubDate></item>
<item><atom:link href="https://example.com/post-2"/></item></channel></rss>`),
			check: func(t *testing.T, items []Item) {
				if !items[0].Feed || items[0].Lastmod != "Wed, 01 May 2024 10:00:00 +0000" {
					t.Errorf("%+v", items[0])
				}
			}},
		{name: "atom", kind: KindAtom, locs: []string{"https://example.com/e1"},
			body: []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://example.com/"/><entry><link rel="edit" href="https://example.com/edit/1"/><link href="https://example.com/e1"/><updated>2024-05-01T10:00:00Z</updated></entry></feed>`)},
		{name: "html page", err: ErrNotSitemap, body: []byte(`<!DOCTYPE html><html><head><title>Not found</title></head><body>Oops</body></html>`)},
		{name: "other xml", err: ErrNotSitemap, body: []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>`)},
		{name: "json", err: ErrNotSitemap, body: []byte(`{"urls": ["https://example.com/"]}`)},
		{name: "empty", err: ErrNotSitemap, body: []byte(" \n ")},
		{name: "broken xml after an entry", kind: KindURLSet, locs: []string{"https://example.com/a"}, err: ErrMalformed,
			body: []byte(`<urlset><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</lo`)},
		{name: "broken gzip", kind: KindURLSet, err: ErrMalformed, body: gz(t, `<urlset><url><loc>https://example.com/a</loc></url></urlset>`)[:30]},
		{name: "gzip magic only", err: ErrMalformed, body: []byte{0x1f, 0x8b, 8}},
	} {
		items, dec, err := decodeAll(c.body, nil)
		if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.err)
		}
		if dec.Kind != c.kind {
			t.Errorf("%s: kind %q, want %q", c.name, dec.Kind, c.kind)
		}
		var locs []string
		for _, it := range items {
			locs = append(locs, it.Loc)
		}
		if strings.Join(locs, " ") != strings.Join(c.locs, " ") {
			t.Errorf("%s: locs %q, want %q", c.name, locs, c.locs)
		}
		if c.check != nil && len(items) > 0 {
			c.check(t, items)
		}
		if dec.Gzipped != (len(c.body) > 1 && c.body[0] == 0x1f && c.body[1] == 0x8b) {
			t.Errorf("%s: gzipped %v", c.name, dec.Gzipped)
		}
	}
}

func TestDecodeCaps(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("<urlset>")
	for range 10 {
		b.WriteString("<url><loc>https://example.com/x</loc></url>")
	}
	b.WriteString("</urlset>")
	items, dec, err := decodeAll([]byte(b.String()), &DecodeOptions{MaxItems: 4})
	if err != nil || len(items) != 4 || !dec.TooMany || dec.TooLarge {
		t.Errorf("item cap: %d items, %+v, %v", len(items), dec, err)
	}

	// A gzip bomb: 4 MiB of white space inside a urlset, from a few KiB.
	bomb := gz(t, "<urlset><url><loc>https://example.com/a</loc></url>"+strings.Repeat(" ", 4<<20)+"<url><loc>https://example.com/b</loc></url></urlset>")
	items, dec, err = decodeAll(bomb, &DecodeOptions{MaxBytes: 1 << 20})
	if err != nil || len(items) != 1 || !dec.TooLarge || dec.Bytes != 1<<20 {
		t.Errorf("byte cap: %d items, %+v, %v", len(items), dec, err)
	}
	items, dec, err = decodeAll([]byte(strings.Repeat("https://example.com/a\n", 100_000)), &DecodeOptions{MaxBytes: 1 << 20, MaxItems: 1e6})
	if err != nil || len(items) != (1<<20)/22 || !dec.TooLarge {
		t.Errorf("byte cap, text: %d items, %+v, %v", len(items), dec, err)
	}

	n := 0
	dec, err = Decode([]byte(b.String()), nil, func(Item) bool { n++; return n < 3 })
	if err != nil || n != 3 || !dec.Stopped || dec.TooMany {
		t.Errorf("stopped by visit: %d, %+v, %v", n, dec, err)
	}
}

func TestParseLastmod(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want string // RFC 3339 UTC, "" for invalid
	}{
		{"2024", "2024-01-01T00:00:00Z"},
		{"2024-05", "2024-05-01T00:00:00Z"},
		{"2024-05-01", "2024-05-01T00:00:00Z"},
		{"2024-05-01T10:00+02:00", "2024-05-01T08:00:00Z"},
		{"2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"},
		{"2024-05-01T10:00:00.123-05:00", "2024-05-01T15:00:00Z"},
		{"2024-05-01T10:00:00", ""}, // a time needs a zone
		{"2024-05-01 10:00:00", ""},
		{"01/05/2024", ""},
		{"2024-13-01", ""},
		{"yesterday", ""},
		{"", ""},
	} {
		got, ok := ParseLastmod(c.in)
		if s := got.Truncate(time.Second).Format(time.RFC3339); ok != (c.want != "") || ok && s != c.want {
			t.Errorf("%q: %v %s, want %q", c.in, ok, s, c.want)
		}
	}
	if _, ok := parseFeedDate("Wed, 01 May 2024 10:00:00 GMT"); !ok {
		t.Error("RFC 1123 feed date not read")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`<urlset><url><loc>https://example.com/a</loc><image:image/></url></urlset>`))
	f.Add([]byte(`<sitemapindex><sitemap><loc>https://example.com/s.xml.gz</loc></sitemap></sitemapindex>`))
	f.Add([]byte(`<rss><channel><item><link>https://example.com/</link></item></channel></rss>`))
	f.Add([]byte("https://example.com/a\nhttps://example.com/b"))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, body []byte) {
		n := 0
		dec, err := Decode(body, &DecodeOptions{MaxBytes: 1 << 20, MaxItems: 100}, func(Item) bool { n++; return true })
		if n != dec.Items || n > 100 || dec.Bytes > 1<<20 {
			t.Fatalf("%d items visited, %+v", n, dec)
		}
		if err != nil && !errors.Is(err, ErrNotSitemap) && !errors.Is(err, ErrMalformed) {
			t.Fatalf("unclassified error %v", err)
		}
	})
}
