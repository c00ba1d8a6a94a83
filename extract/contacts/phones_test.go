package contacts

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

func TestPhones(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want []string // e164 (or raw:Raw when not normalized)/valid/source
	}{
		{"international", Input{Text: "Call +44 20 7946 0958 now"}, []string{"+442079460958/true/text"}},
		{"international 00", Input{Text: "Phone: 0044 20 7946 0958"}, []string{"+442079460958/true/text"}},
		{"international with (0)", Input{Text: "+44 (0)20 7946 0958"}, []string{"+442079460958/true/text"}},
		{"national with region", Input{Text: "Our office: 020 7946 0958", DefaultRegion: "gb"}, []string{"+442079460958/true/text"}},
		{"US formats", Input{Text: "(415) 555-2671, 415.555.2672 or 1-415-555-2673", DefaultRegion: "US"},
			[]string{"+14155552671/true/text", "+14155552672/true/text", "+14155552673/true/text"}},
		{"French dots", Input{Text: "01.23.45.67.89", DefaultRegion: "FR"}, []string{"+33123456789/true/text"}},
		{"German slash", Input{Text: "Telefon: 030/12345678", DefaultRegion: "DE"}, []string{"+493012345678/true/text"}},
		{"German (0)", Input{Text: "+49 (0)30 12345678"}, []string{"+493012345678/true/text"}},
		{"(+44)", Input{Text: "(+44) 20 7946 0958"}, []string{"+442079460958/true/text"}},
		{"+1 (415)", Input{Text: "+1 (415) 555-2671"}, []string{"+14155552671/true/text"}},
		{"other country than region", Input{Text: "+33 1 23 45 67 89", DefaultRegion: "GB"}, []string{"+33123456789/true/text"}},
		{"extension", Input{Text: "+1 415-555-2671 ext. 12"}, []string{"+14155552671;12/true/text"}},
		{"unformatted after label", Input{Text: "Tel: 02079460958", DefaultRegion: "GB"}, []string{"+442079460958/true/text"}},
		{"label across blocks", Input{HTML: "<dl><dt>Telephone</dt><dd>0207 946 0958</dd></dl>", DefaultRegion: "GB"}, []string{"+442079460958/true/text"}},
		{"two numbers run together", Input{Text: "T: 020 7946 0958 / 020 7946 0959", DefaultRegion: "GB"}, []string{"+442079460958/true/text", "+442079460959/true/text"}},
		{"raw without region after label", Input{Text: "Phone: (555) 010-9999"}, []string{"raw:(555) 010-9999/false/text"}},
		{"tel link", Input{HTML: `<a href="tel:+1-415-555-2671">Call</a>`}, []string{"+14155552671/true/tel_link"}},
		{"tel link percent-encoded with ext", Input{HTML: `<a href="tel:%2B44%2020%207946%200958;ext=7">x</a>`}, []string{"+442079460958;7/true/tel_link"}},
		{"tel link national with region", Input{HTML: `<a href="tel:02079460958">x</a>`, DefaultRegion: "GB"}, []string{"+442079460958/true/tel_link"}},
		{"tel link national raw", Input{HTML: `<a href="tel:0207-946-0958">x</a>`}, []string{"raw:0207-946-0958/false/tel_link"}},
		{"tel link possible but invalid", Input{HTML: `<a href="tel:+1-555-555-0100">x</a>`}, []string{"+15555550100/false/tel_link"}},
		{"region from html lang", Input{HTML: `<html lang="en-GB"><body><p>020 7946 0958</p></body></html>`}, []string{"+442079460958/true/text"}},
		{"region from base_url ccTLD", Input{Text: "030 12345678", BaseURL: "https://www.example.de/kontakt"}, []string{"+493012345678/true/text"}},
		{"dedupe link and text", Input{HTML: `<a href="tel:+442079460958">+44 20 7946 0958</a>`}, []string{"+442079460958/true/tel_link"}},

		// Traps.
		{"IP and versions", Input{Text: "Server 192.168.0.1, DNS 1.2.3.4, v10.15.7 and 2.4.1", DefaultRegion: "US"}, nil},
		{"dates", Input{Text: "2024-01-15, 15/01/2024, 01.02.2024, 2024-01-15 10:30", DefaultRegion: "DE"}, nil},
		{"year range", Input{Text: "© 2019-2024 Example. Active 2019 – 2024.", DefaultRegion: "DE"}, nil},
		{"ISBN", Input{Text: "ISBN 978-3-16-148410-0", DefaultRegion: "DE"}, nil},
		{"long ids", Input{Text: "Tracking 123456789012345678 ref 4155552671", DefaultRegion: "US"}, nil},
		{"unformatted without label", Input{Text: "Ticket 4155552671 and 4155552671", DefaultRegion: "US"}, nil},
		{"mis-grouped without label", Input{Text: "Order 2024-0001-12 and 202 4000 112", DefaultRegion: "US"}, nil},
		{"prices", Input{Text: "Now $415 555 2671 or 1.234.567,89 € or 415 555 2671€", DefaultRegion: "US"}, nil},
		{"in urls and ids", Input{Text: "/products/4155552671 id=4155552671 #4155552671 SKU-4155552671", DefaultRegion: "US"}, nil},
		{"VAT number", Input{Text: "VAT No. 123 4567 89", DefaultRegion: "GB"}, nil},
		{"mis-grouped national", Input{Text: "0207 946 0958", DefaultRegion: "GB"}, nil},
		{"national without region or label", Input{Text: "020 7946 0958"}, nil},
		{"too short", Input{Text: "Tel: 12 34", DefaultRegion: "GB"}, nil},
		{"resolution", Input{Text: "1920x1080", DefaultRegion: "US"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Extract(context.Background(), tt.in, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range res.Phones {
				id := p.E164
				if id == "" {
					id = "raw:" + p.Raw
				}
				if p.Extension != "" {
					id += ";" + p.Extension
				}
				got = append(got, fmt.Sprintf("%s/%t/%s", id, p.Valid, p.Source))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPhoneFields(t *testing.T) {
	res, err := Extract(context.Background(), Input{Text: "Mobile: 07400 123456, again 07400 123456", DefaultRegion: "GB"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Phone{{E164: "+447400123456", Raw: "07400 123456", Region: "GB", Type: "mobile", Valid: true, Source: SourceText, Count: 2}}
	if !slices.Equal(res.Phones, want) {
		t.Errorf("got %+v, want %+v", res.Phones, want)
	}
}
