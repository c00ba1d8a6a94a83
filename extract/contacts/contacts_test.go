package contacts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
)

func TestExtractErrors(t *testing.T) {
	tests := []struct {
		name  string
		in    Input
		opts  *Options
		kind  errs.Kind
		field string
	}{
		{"empty", Input{}, nil, errs.KindInvalid, "html"},
		{"blank", Input{HTML: " \n", Text: "\t"}, nil, errs.KindInvalid, "html"},
		{"html too large", Input{HTML: strings.Repeat("a", 11)}, &Options{MaxInputBytes: 10}, errs.KindTooLarge, "html"},
		{"text too large", Input{Text: strings.Repeat("a", 11)}, &Options{MaxInputBytes: 10}, errs.KindTooLarge, "text"},
		{"together too large", Input{HTML: "aaaaaa", Text: "aaaaaa"}, &Options{MaxInputBytes: 10}, errs.KindTooLarge, ""},
		{"unknown region", Input{Text: "x", DefaultRegion: "XX"}, nil, errs.KindInvalid, "default_region"},
		{"region not alpha-2", Input{Text: "x", DefaultRegion: "GBR"}, nil, errs.KindInvalid, "default_region"},
		{"base_url scheme", Input{Text: "x", BaseURL: "ftp://example.com/"}, nil, errs.KindInvalid, "base_url"},
		{"base_url host", Input{Text: "x", BaseURL: "https:///path"}, nil, errs.KindInvalid, "base_url"},
		{"base_url syntax", Input{Text: "x", BaseURL: "http://[::1"}, nil, errs.KindInvalid, "base_url"},
		{"negative max input", Input{Text: "x"}, &Options{MaxInputBytes: -1}, errs.KindInvalid, "options.max_input_bytes"},
		{"negative max items", Input{Text: "x"}, &Options{MaxItems: -1}, errs.KindInvalid, "options.max_items"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Extract(context.Background(), tt.in, tt.opts)
			if errs.KindOf(err) != tt.kind || errs.FieldOf(err) != tt.field {
				t.Errorf("got %v (kind %s, field %q), want kind %s, field %q", err, errs.KindOf(err), errs.FieldOf(err), tt.kind, tt.field)
			}
		})
	}
}

func TestExtractCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Extract(ctx, Input{Text: "a@example.com"}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestRegionInference(t *testing.T) {
	tests := []struct {
		name   string
		in     Input
		region string
		source string
	}{
		{"explicit wins", Input{HTML: `<html lang="en-GB">`, DefaultRegion: "us", BaseURL: "https://example.de/"}, "US", "default_region"},
		{"base_url ccTLD before lang", Input{HTML: `<html lang="en-US">x`, BaseURL: "https://example.co.uk/"}, "GB", "tld"},
		{"generic ccTLD ignored", Input{HTML: `<html lang="de-AT">x`, BaseURL: "https://example.io/"}, "AT", "lang"},
		{"<base>", Input{HTML: `<base href="https://example.fr/">x`}, "FR", "tld"},
		{"canonical", Input{HTML: `<link rel="canonical" href="https://www.example.es/contacto">x`}, "ES", "tld"},
		{"og:url", Input{HTML: `<meta property="og:url" content="https://example.it/">x`}, "IT", "tld"},
		{"og:locale", Input{HTML: `<html lang="en"><meta property="og:locale" content="en_AU">x`}, "AU", "lang"},
		{"script subtag", Input{HTML: `<html lang="zh-Hant-TW">x`}, "TW", "lang"},
		{"language only", Input{HTML: `<html lang="de">x`, BaseURL: "https://example.com/"}, "", ""},
		{"text only", Input{Text: "x"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Extract(context.Background(), tt.in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Region != tt.region || res.RegionSource != tt.source {
				t.Errorf("got %q from %q, want %q from %q", res.Region, res.RegionSource, tt.region, tt.source)
			}
		})
	}
}

func TestExtractHTMLAndText(t *testing.T) {
	in := Input{
		HTML: `<p>html@example.com</p>`,
		Text: "text@example.com html@example.com",
	}
	res, err := Extract(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Emails) != 2 || res.Emails[0].Address != "html@example.com" || res.Emails[0].Count != 2 || res.Emails[1].Address != "text@example.com" {
		t.Errorf("got %+v", res.Emails)
	}
}

func TestMaxItems(t *testing.T) {
	var b strings.Builder
	for _, c := range "abcdef" {
		b.WriteString(string(c) + "@example.com https://x.com/user" + string(c) + " +44 20 7946 095" + string('0'+c%10) + "\n")
	}
	res, err := Extract(context.Background(), Input{Text: b.String()}, &Options{MaxItems: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Emails) != 3 || len(res.Phones) != 3 || len(res.Social) != 3 {
		t.Errorf("truncated %t, %d emails, %d phones, %d profiles; want true and 3 each", res.Truncated, len(res.Emails), len(res.Phones), len(res.Social))
	}
}

// Nothing found is empty lists, not nulls, in the JSON response.
func TestEmptyResultJSON(t *testing.T) {
	res, err := Extract(context.Background(), Input{Text: "nothing here"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"emails":[],"phones":[],"social":[]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Hostile input stays linear: deep nesting, endless digit and address
// runs, unclosed tags.
func TestHostileInput(t *testing.T) {
	for name, in := range map[string]Input{
		"deep nesting":   {HTML: strings.Repeat("<div><span>", 100000) + "a@example.com"},
		"digit run":      {Text: strings.Repeat("1 2-3.", 200000), DefaultRegion: "US"},
		"address run":    {Text: strings.Repeat("a.", 200000) + "@" + strings.Repeat("b.", 200000) + "com"},
		"at separators":  {Text: strings.Repeat("x [at] ", 100000)},
		"unclosed tag":   {HTML: "<a href=\"" + strings.Repeat("x", 1<<20)},
		"url run":        {Text: "https://" + strings.Repeat("a.", 200000) + "com/" + strings.Repeat("b", 100000)},
		"fediverse runs": {Text: strings.Repeat("@a@b.", 100000)},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Extract(context.Background(), in, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}
