package contacts

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// benchPage builds a realistic page of about size bytes: head metadata,
// navigation, articles with prose, dates, prices and versions, product
// tables, a few contacts, share buttons, scripts and a footer of profiles.
func benchPage(size int) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8">
<title>Example Ltd — Contact</title><link rel="canonical" href="https://www.example.co.uk/contact">
<meta name="twitter:site" content="@example"><style>@media (max-width:600px){.nav{display:none}}</style>
<script>window.dataLayer=[];function gtag(){dataLayer.push(arguments)};gtag("config","G-123",{v:"1.2.3"});</script>
</head><body><nav class="nav"><a href="/">Home</a> <a href="/about">About</a> <a href="/blog">Blog</a></nav>`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<article><h2>Update %d: release v2.%d.%d</h2>
<p>Posted on 2024-01-%02d by <a href="/authors/%d">an author</a>. Lorem ipsum dolor sit amet, consectetur
adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. We looked at the
numbers for 2019-2024 and the server at 192.168.%d.1 answered in %d ms. <img src="img/hero-%d@2x.png"></p>
<table><tr><td>SKU-%06d</td><td>£%d.99</td><td>%d in stock</td><td>15/01/2024</td></tr></table>
<p>Questions? Write to support+%d@example.co.uk or call 020 7946 %04d (Mon–Fri).</p>
<p><a href="https://twitter.com/intent/tweet?url=https%%3A%%2F%%2Fexample.co.uk%%2F%d">Tweet</a>
<a href="https://www.facebook.com/sharer/sharer.php?u=https://example.co.uk/%d">Share</a>
<a href="https://www.linkedin.com/sharing/share-offsite/?url=https://example.co.uk/%d">Post</a></p></article>
`, i, i%10, i%7, i%28+1, i, i%256, i*7, i, i, i%100+1, i%50, i%20, i%10000, i, i, i)
	}
	b.WriteString(`<footer><p>Example Ltd, 1 High Street, London. Tel: +44 20 7946 0000 · sales [at] example [dot] co [dot] uk
<a href="mailto:hello@example.co.uk">hello@example.co.uk</a> · <a href="tel:+442079460001">Fax</a></p>
<a href="https://www.linkedin.com/company/example">LinkedIn</a> <a href="https://x.com/example">X</a>
<a href="https://www.instagram.com/example/">Instagram</a> <a href="https://github.com/example">GitHub</a>
<a href="https://www.youtube.com/@example">YouTube</a> <a href="https://mastodon.social/@example">Mastodon</a>
<p>© 2010-2024 Example Ltd. Company No. 01234567. VAT No. GB 123 4567 89.</p></footer></body></html>`)
	return b.String()
}

func BenchmarkExtract(b *testing.B) {
	page := benchPage(100 << 10)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Extract(context.Background(), Input{HTML: page}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The benchmark page's traps find nothing; its contacts are all found.
func TestBenchPage(t *testing.T) {
	res, err := Extract(context.Background(), Input{HTML: benchPage(100 << 10)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Region != "GB" {
		t.Errorf("region %q, want GB", res.Region)
	}
	for _, e := range res.Emails {
		if !strings.HasSuffix(e.Address, "@example.co.uk") {
			t.Errorf("unexpected email %+v", e)
		}
	}
	for _, p := range res.Phones {
		if !strings.HasPrefix(p.E164, "+4420794") {
			t.Errorf("unexpected phone %+v", p)
		}
	}
	// The footer's contacts, besides support+0..19@ and one number per
	// article.
	if n := len(res.Emails); n != 22 {
		t.Errorf("got %d emails, want 22: %+v", n, res.Emails)
	}
	for _, want := range []string{"sales@example.co.uk", "hello@example.co.uk"} {
		if !slices.ContainsFunc(res.Emails, func(e Email) bool { return e.Address == want }) {
			t.Errorf("no %s in %+v", want, res.Emails)
		}
	}
	for _, want := range []string{"+442079460000", "+442079460001"} {
		if !slices.ContainsFunc(res.Phones, func(p Phone) bool { return p.E164 == want }) {
			t.Errorf("no %s among %d phones", want, len(res.Phones))
		}
	}
	if len(res.Social) != 6 {
		t.Errorf("got %d profiles, want 6: %+v", len(res.Social), res.Social)
	}
}
