package crawl

import (
	"fmt"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/errs"
	"github.com/webinfra/webinfra/fetch"
)

func TestRequestValidate(t *testing.T) {
	t.Parallel()
	seed := []string{"https://example.com/"}
	many := make([]string, MaxSeeds+1)
	for i := range many {
		many[i] = "https://example.com/"
	}
	tests := []struct {
		name      string
		req       Request
		wantField string // "" means valid
	}{
		{"minimal", Request{Seeds: seed}, ""},
		{"everything", Request{Seeds: seed, MaxPages: 10000, MaxDepth: 1000, Include: []string{`/docs/`}, Exclude: []string{`\.pdf$`},
			AllowSubdomains: true, IgnoreRobots: true, Sitemap: true, RatePerHost: 1000, Format: "FULL"}, ""},
		{"no seeds", Request{}, "seeds"},
		{"too many seeds", Request{Seeds: many}, "seeds"},
		{"relative seed", Request{Seeds: []string{"https://example.com/", "/about"}}, "seeds[1]"},
		{"ftp seed", Request{Seeds: []string{"ftp://example.com/"}}, "seeds[0]"},
		{"seed with credentials", Request{Seeds: []string{"https://u:p@example.com/"}}, "seeds[0]"},
		{"unparsable seed", Request{Seeds: []string{"http://[::1"}}, "seeds[0]"},
		{"negative max_pages", Request{Seeds: seed, MaxPages: -1}, "max_pages"},
		{"max_pages over the cap", Request{Seeds: seed, MaxPages: 10001}, "max_pages"},
		{"negative max_depth", Request{Seeds: seed, MaxDepth: -1}, "max_depth"},
		{"max_depth over the cap", Request{Seeds: seed, MaxDepth: 1001}, "max_depth"},
		{"bad include", Request{Seeds: seed, Include: []string{`ok`, `a(b`}}, "include[1]"},
		{"bad exclude", Request{Seeds: seed, Exclude: []string{`[z-a]`}}, "exclude[0]"},
		{"long pattern", Request{Seeds: seed, Include: []string{strings.Repeat("a", MaxPatternLength+1)}}, "include[0]"},
		{"too many patterns", Request{Seeds: seed, Exclude: make([]string, MaxPatterns+1)}, "exclude"},
		{"negative rate", Request{Seeds: seed, RatePerHost: -1}, "rate_per_host"},
		{"rate over the cap", Request{Seeds: seed, RatePerHost: 1001}, "rate_per_host"},
		{"NaN rate", Request{Seeds: seed, RatePerHost: math.NaN()}, "rate_per_host"},
		{"unknown format", Request{Seeds: seed, Format: "pdf"}, "format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.req.Validate()
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if errs.KindOf(err) != errs.KindInvalid || errs.FieldOf(err) != tt.wantField {
				t.Fatalf("got %v (field %q), want invalid %q", err, errs.FieldOf(err), tt.wantField)
			}
		})
	}
}

func TestRequestDefaultsAndCredits(t *testing.T) {
	t.Parallel()
	r := Request{Seeds: []string{"https://example.com/#top"}}
	p, err := r.plan()
	if err != nil {
		t.Fatal(err)
	}
	if p.maxPages != DefaultMaxPages || p.maxDepth != DefaultMaxDepth || p.rate != DefaultRatePerHost || p.format != FormatMarkdown || p.seeds[0].String() != "https://example.com/" {
		t.Errorf("defaults: %+v", p)
	}
	for _, tt := range []struct{ maxPages, credits int }{{0, 100}, {1, 1}, {250, 250}, {10000, 10000}, {20000, 10000}, {-5, 100}} {
		r := Request{MaxPages: tt.maxPages}
		if got := r.CreditItems(); got != tt.credits {
			t.Errorf("CreditItems with max_pages %d = %d, want %d", tt.maxPages, got, tt.credits)
		}
	}
	if r.TargetURL() != "https://example.com/#top" || (&Request{}).TargetURL() != "" {
		t.Errorf("TargetURL %q", r.TargetURL())
	}
}

func TestScope(t *testing.T) {
	t.Parallel()
	parse := func(s string) *url.URL {
		u, err := url.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	tests := []struct {
		seeds      []string
		subdomains bool
		in, out    []string
	}{
		{[]string{"https://www.example.com/"}, false,
			[]string{"https://www.example.com/a", "http://www.example.com/", "https://WWW.Example.com:443/", "http://www.example.com:80/x"},
			[]string{"https://example.com/", "https://blog.www.example.com/", "https://www.example.com:8443/", "ftp://www.example.com/", "https://example.org/"}},
		{[]string{"https://www.example.com/"}, true,
			[]string{"https://example.com/", "https://blog.example.com/", "https://a.b.example.com/", "https://www.example.com/"},
			[]string{"https://notexample.com/", "https://example.com:8080/", "https://example.com.evil.org/"}},
		{[]string{"http://127.0.0.1:8080/", "http://127.0.0.1:9090/"}, false,
			[]string{"http://127.0.0.1:8080/a", "http://127.0.0.1:9090/b"},
			[]string{"http://127.0.0.1/", "http://127.0.0.1:8081/", "http://localhost:8080/"}},
	}
	for _, tt := range tests {
		var seeds []*url.URL
		for _, s := range tt.seeds {
			seeds = append(seeds, parse(s))
		}
		sc := newScope(seeds, tt.subdomains)
		for _, s := range tt.in {
			if !sc.contains(parse(s)) {
				t.Errorf("seeds %v (subdomains %v): %s should be in scope", tt.seeds, tt.subdomains, s)
			}
		}
		for _, s := range tt.out {
			if sc.contains(parse(s)) {
				t.Errorf("seeds %v (subdomains %v): %s should be out of scope", tt.seeds, tt.subdomains, s)
			}
		}
	}
}

// The crawler's default User-Agent matches robots.txt groups for
// webinfra-crawler (fetch.RobotsAgent's own cases are in package fetch).
func TestRobotsAgent(t *testing.T) {
	t.Parallel()
	if got := fetch.RobotsAgent(DefaultUserAgent); got != "webinfra-crawler" {
		t.Errorf("fetch.RobotsAgent(DefaultUserAgent) = %q, want webinfra-crawler", got)
	}
}

func TestCanonicalKey(t *testing.T) {
	t.Parallel()
	same := [][]string{
		{"HTTP://Example.COM:80", "http://example.com/", "http://example.com/#frag"},
		{"https://example.com:443/a?b=1", "https://EXAMPLE.com/a?b=1#x"},
		{"http://[::1]:8080/x", "http://[::1]:8080/x#y"},
	}
	for _, group := range same {
		var keys []string
		for _, s := range group {
			u, err := url.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, canonicalKey(u))
		}
		for _, k := range keys[1:] {
			if k != keys[0] {
				t.Errorf("%v: keys %q differ", group, keys)
			}
		}
	}
	a, _ := url.Parse("http://example.com:8080/")
	b, _ := url.Parse("http://example.com/")
	if canonicalKey(a) == canonicalKey(b) {
		t.Error("different ports share a key")
	}
}

// TestRequestSchema checks the struct tags make the HTTP schema the
// server publishes: what huma derives from Request.
func TestRequestSchema(t *testing.T) {
	t.Parallel()
	reg := huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)
	s := reg.Schema(reflect.TypeFor[Request](), false, "")
	if !slices.Equal(s.Required, []string{"seeds"}) {
		t.Errorf("required %v, want only seeds", s.Required)
	}
	seeds, pages, format := s.Properties["seeds"], s.Properties["max_pages"], s.Properties["format"]
	if seeds == nil || pages == nil || format == nil {
		t.Fatalf("properties %v", s.Properties)
	}
	if *seeds.MinItems != 1 || *seeds.MaxItems != MaxSeeds || *pages.Maximum != MaxPagesLimit || fmt.Sprint(pages.Default) != fmt.Sprint(DefaultMaxPages) {
		t.Errorf("seeds %+v, max_pages %+v", seeds, pages)
	}
	if !slices.Equal(format.Enum, []any{FormatMarkdown, FormatHTML, FormatFull}) {
		t.Errorf("format enum %v", format.Enum)
	}
}
