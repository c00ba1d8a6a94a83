package contacts

import (
	"context"
	"slices"
	"testing"
)

func TestEmails(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want []string // address/source
	}{
		{"plain", Input{Text: "Write to John.Doe@Example.COM today."}, []string{"John.Doe@example.com/text"}},
		{"subdomain and ccTLD", Input{Text: "sales@mail.example.co.uk"}, []string{"sales@mail.example.co.uk/text"}},
		{"plus and dash", Input{Text: "<first-last+tag@ex-ample.io>"}, []string{"first-last+tag@ex-ample.io/text"}},
		{"punycode TLD", Input{Text: "info@example.xn--p1ai"}, []string{"info@example.xn--p1ai/text"}},
		{"sentence end", Input{Text: "Mail me at me@example.org."}, []string{"me@example.org/text"}},
		{"mailto", Input{HTML: `<a href="mailto:Info@Example.com?subject=Hello%20there&body=x">Mail</a>`}, []string{"Info@example.com/mailto"}},
		{"mailto percent-encoded, several, cc", Input{HTML: `<a href="MAILTO:a%40example.com,b@example.com?cc=c@example.com">x</a>`},
			[]string{"a@example.com/mailto", "b@example.com/mailto", "c@example.com/mailto"}},
		{"entity in html", Input{HTML: `<p>name&#64;example.com</p>`}, []string{"name@example.com/text"}},
		{"entity in text", Input{Text: `name&#x40;example.com`}, []string{"name@example.com/text"}},
		{"split over spans", Input{HTML: `<p><span>jane</span><span>@</span><span>example.net</span></p>`}, []string{"jane@example.net/text"}},
		{"cloudflare attribute", Input{HTML: `<span class="__cf_email__" data-cfemail="543d3a323b14312c35392438317a373b39">[email&#160;protected]</span>`}, []string{"info@example.com/mailto"}},
		{"cloudflare link", Input{HTML: `<a href="/cdn-cgi/l/email-protection#543d3a323b14312c35392438317a373b39">x</a>`}, []string{"info@example.com/mailto"}},
		{"[at] [dot]", Input{Text: "name [at] domain [dot] com"}, []string{"name@domain.com/obfuscated"}},
		{"(at) (dot)", Input{Text: "name(at)domain(dot)co(dot)uk"}, []string{"name@domain.co.uk/obfuscated"}},
		{"{at} and plain dot", Input{Text: "name {at} domain.com"}, []string{"name@domain.com/obfuscated"}},
		{"[@]", Input{Text: "name[@]domain.com"}, []string{"name@domain.com/obfuscated"}},
		{"@ with [.]", Input{Text: "name@domain[.]com"}, []string{"name@domain.com/obfuscated"}},
		{"[at] with spaced dot", Input{Text: "name [AT] domain dot com"}, []string{"name@domain.com/obfuscated"}},
		{"AT DOT shouted", Input{Text: "john AT example DOT com"}, []string{"john@example.com/obfuscated"}},
		{"at dot after e-mail label", Input{Text: "E-mail: john at example dot com"}, []string{"john@example.com/obfuscated"}},
		{"at dot after contact label", Input{Text: "Contact us: info at example dot org"}, []string{"info@example.org/obfuscated"}},
		{"case-insensitive dedupe", Input{Text: "A@Example.com, a@example.com and a@EXAMPLE.COM"}, []string{"A@example.com/text"}},

		// Traps.
		{"prose at dot", Input{Text: "We looked at google dot com and laughed at it."}, nil},
		{"shouted at with plain dot", Input{Text: "MEET AT EXAMPLE.COM"}, nil},
		{"at with plain dot after label", Input{Text: "Email: john at example.com"}, nil},
		{"retina images", Input{HTML: `<img src="logo@2x.png" srcset="icon@3x.jpg 3x"> logo@2x.png icon@3x.jpg hero@2x.webp`}, nil},
		{"package versions", Input{Text: "npm i foo@1.2.3 react@18.2.0 @babel/core@7.24.0-beta.1"}, nil},
		{"no dot", Input{Text: "root@localhost and user@intranet"}, nil},
		{"css at-rules", Input{HTML: `<style>@media (max-width:600px){a{color:red}}</style><p>a{}@media screen{} @import url(x.css);</p>`}, nil},
		{"url userinfo", Input{Text: "https://abc123@o123.ingest.sentry.io/4 and ftp://user@ftp.example.com"}, nil},
		{"fediverse handle", Input{Text: "Follow @alice@mastodon.social"}, nil},
		{"numeric TLD", Input{Text: "x@10.0.0.1"}, nil},
		{"double dot", Input{Text: "a..b@example.com"}, nil},
		{"script content", Input{HTML: `<script>var e = "hidden@example.com";</script>`}, nil},
		{"across lines", Input{HTML: `<p>name [at]</p><p>domain [dot] com</p>`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Extract(context.Background(), tt.in, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range res.Emails {
				got = append(got, e.Address+"/"+e.Source)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEmailCounts(t *testing.T) {
	in := Input{HTML: `<p>b@example.com</p><a href="mailto:a@example.com">a@example.com</a><p>B@Example.com</p>`}
	res, err := Extract(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Email{{"b@example.com", SourceText, 2}, {"a@example.com", SourceMailto, 2}}
	if !slices.Equal(res.Emails, want) {
		t.Errorf("got %+v, want %+v", res.Emails, want)
	}
}
