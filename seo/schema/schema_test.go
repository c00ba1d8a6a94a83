package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/extract/structured"
	"github.com/webinfra/webinfra/seo/schema"
)

func TestParseDate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want string // RFC 3339 in UTC, "" when invalid
	}{
		{"2024-05-01", "2024-05-01T00:00:00Z"},
		{"2024-05", "2024-05-01T00:00:00Z"},
		{"2024-05-01T09:30", "2024-05-01T09:30:00Z"},
		{"2024-05-01T09:30:15Z", "2024-05-01T09:30:15Z"},
		{"2024-05-01T09:30:15.123+02:00", "2024-05-01T07:30:15Z"},
		{"2024-05-01T09:30:15+0200", "2024-05-01T07:30:15Z"},
		{"2024-05-01 09:30:15", "2024-05-01T09:30:15Z"},
		{" 2024-05-01 ", "2024-05-01T00:00:00Z"},
		{"May 1, 2024", ""},
		{"01/05/2024", ""},
		{"Wed, 01 May 2024 09:00:00 GMT", ""},
		{"2024-13-01", ""},
		{"2024", ""},
	} {
		got, ok := schema.ParseDate(c.in)
		s := ""
		if ok {
			s = got.UTC().Format("2006-01-02T15:04:05Z07:00")
		}
		if s != c.want {
			t.Errorf("ParseDate(%q) = %q, want %q", c.in, s, c.want)
		}
	}
}

func TestValueKinds(t *testing.T) {
	t.Parallel()
	// Each value is checked through a one-property page.
	for _, c := range []struct {
		json    string // the Offer's or Recipe's extra properties
		invalid string // the property expected invalid, "" for none
	}{
		{`"price": "19.99"`, ""},
		{`"price": 19.99`, ""},
		{`"price": "19,99"`, "price"},
		{`"price": "$19.99"`, "price"},
		{`"price": "1e3"`, "price"},
		{`"price": "0", "priceCurrency": "EUR"`, ""},
		{`"price": "0", "priceCurrency": "eur"`, "priceCurrency"},
		{`"price": "0", "priceCurrency": "EURO"`, "priceCurrency"},
		{`"price": "0", "priceValidUntil": "2025-01-01"`, ""},
		{`"price": "0", "priceValidUntil": "tomorrow"`, "priceValidUntil"},
		{`"price": "0", "url": "https://example.com/x"`, ""},
		{`"price": "0", "url": "/x"`, "url"},
		{`"price": "0", "url": "//example.com/x"`, "url"},
	} {
		page := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Offer",` + c.json + `}</script>`
		r, err := schema.Validate(context.Background(), schema.Input{HTML: page}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, p := range r.Problems {
			if p.Code == "invalid_value" {
				got = p.Property
			}
		}
		if got != c.invalid {
			t.Errorf("%s: invalid %q, want %q", c.json, got, c.invalid)
		}
	}
	for _, c := range []struct {
		duration string
		valid    bool
	}{
		{"PT1H30M", true}, {"PT20M", true}, {"P1DT2H", true}, {"P2W", true}, {"PT1.5S", true},
		{"P1Y2M3DT4H5M6S", true}, {"PT", false}, {"P", false}, {"1 hour", false}, {"PT1H1H", false},
		{"P1H", false}, {"PT30", false}, {"P1DT", false},
	} {
		page := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Soup","image":"https://example.com/s.jpg","cookTime":"` + c.duration + `"}</script>`
		r, err := schema.Validate(context.Background(), schema.Input{HTML: page}, nil)
		if err != nil {
			t.Fatal(err)
		}
		invalid := strings.Contains(problemCodes(r), "invalid_value $[0].cookTime")
		if invalid == c.valid {
			t.Errorf("duration %q: valid %v, want %v", c.duration, !invalid, c.valid)
		}
	}
}

func problemCodes(r *schema.Report) string {
	var b strings.Builder
	for _, p := range r.Problems {
		b.WriteString(p.Code + " " + p.Path + "\n")
	}
	return b.String()
}

// TestRules checks the table: at least 20 rich-result types from at least
// 20 Google pages, every nested rule known, every property spec well formed.
func TestRules(t *testing.T) {
	t.Parallel()
	types, pages := map[string]bool{}, map[string]bool{}
	for _, r := range schema.Rules() {
		if r.RichResult == "" {
			continue
		}
		types[r.Type] = true
		if !strings.HasPrefix(r.Source, "https://developers.google.com/search/docs/appearance/structured-data/") {
			t.Errorf("%s: source %q is not a Google Search Central page", r.Type, r.Source)
		}
		pages[r.Source] = true
		for _, list := range [][]string{r.Required, r.RootRequired, r.Recommended} {
			for _, p := range list {
				if p == "" || strings.Contains(p, "||") || strings.HasPrefix(p, ".") || strings.HasSuffix(p, ".") {
					t.Errorf("%s: bad property spec %q", r.Type, p)
				}
			}
		}
	}
	if len(types) < 20 || len(pages) < 20 {
		t.Errorf("%d rich-result types from %d pages, want 20 or more of each", len(types), len(pages))
	}
}

func TestSubtypesAndTypes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		t, ancestor string
		want        bool
	}{
		{"Restaurant", "LocalBusiness", true}, {"Restaurant", "Organization", true}, {"Recipe", "HowTo", true},
		{"BlogPosting", "Article", true}, {"DiscussionForumPosting", "Article", true}, {"Person", "Organization", false},
		{"ItemPage", "WebPage", true}, {"Unknown", "Thing", false}, {"Car", "Product", true},
	} {
		if got := schema.Is(c.t, c.ancestor); got != c.want {
			t.Errorf("Is(%s, %s) = %v", c.t, c.ancestor, got)
		}
	}
	for in, want := range map[string]string{"https://schema.org/Product": "Product", "http://schema.org/Product/": "Product",
		"schema:Product": "Product", " Product ": "Product", "http://ogp.me/ns#article": "http://ogp.me/ns#article"} {
		if got := schema.ShortType(in); got != want {
			t.Errorf("ShortType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		in    schema.Input
		field string
	}{
		{schema.Input{HTML: "  "}, "html"},
		{schema.Input{HTML: "<p>x</p>", URL: "example.com/page"}, "url"},
		{schema.Input{HTML: "<p>x</p>", URL: "ftp://example.com/"}, "url"},
	} {
		_, err := schema.Validate(ctx, c.in, nil)
		if !errs.Is(err, errs.KindInvalid) || errs.FieldOf(err) != c.field {
			t.Errorf("%+v: %v, want invalid %s", c.in, err, c.field)
		}
	}
	// With the structured data given, no HTML is needed.
	st, err := structured.Extract(ctx, structured.Input{HTML: `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"ACME"}</script>`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := schema.Validate(ctx, schema.Input{}, &schema.Options{Structured: st})
	if err != nil || len(r.Entities) != 1 || r.Entities[0].Rule != "Organization" {
		t.Fatalf("given structured data: %+v, %v", r, err)
	}
}

func TestCaps(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`<script type="application/ld+json">[`)
	for i := range 30 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"@context":"https://schema.org","@type":"Product"}`)
	}
	b.WriteString(`]</script>`)
	r, err := schema.Validate(context.Background(), schema.Input{HTML: b.String()}, &schema.Options{MaxProblems: 10, MaxEntities: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Truncated || len(r.Problems) != 10 || len(r.Entities) != 5 || r.Errors < 10 {
		t.Errorf("truncated %v, %d problems, %d entities, %d errors", r.Truncated, len(r.Problems), len(r.Entities), r.Errors)
	}
}
