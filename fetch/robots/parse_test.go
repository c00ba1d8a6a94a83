package robots

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestParseGolden: groups, rules, crawl-delays, sitemaps and warnings of an
// annotated file, as the JSON answer carries them.
func TestParseGolden(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile("testdata/annotated.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(Parse(body), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const golden = "testdata/annotated.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Parse(annotated.txt) differs from %s (go test -run TestParseGolden -update rewrites it):\n%s", golden, got)
	}
}

// TestWarnings: each line Parse ignores or corrects is reported with its
// number.
func TestWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		robots string
		line   int
		want   string // a fragment of the warning; "" for none
	}{
		{"user-agent: *\nhost: example.com\n", 2, `unknown directive "host"`},
		{"user-agent: *\nnoise\n", 2, "not a \"key: value\" line"},
		{"user-agent: *\n: /x\n", 2, "not a \"key: value\" line"},
		{"user-agent: *\ndisallow /a b\n", 2, "not a \"key: value\" line"},
		{"user-agent: *\ndisallow /a\n", 2, `no colon after "disallow"`},
		{"user-agent: *\r\nDissallow: /a\r\n", 2, `"Dissallow" read as "disallow"`},
		{"useragent: a\n", 1, `"useragent" read as "user-agent"`},
		{"disallow: /\nuser-agent: *\n", 1, "disallow before any user-agent line"},
		{"crawl-delay: 1\nuser-agent: *\n", 1, "crawl-delay before any user-agent line"},
		{"user-agent: *\ncrawl-delay: -1\n", 2, `crawl-delay "-1" is not a number of seconds`},
		{"user-agent: *\ncrawl-delay: 1e3\n", 2, "is not a number of seconds"},
		{"user-agent: *\ncrawl-delay: 1\ncrawl-delay: 2\n", 3, "second crawl-delay for the same user agents"},
		{"user-agent: *\ncrawl-delay: " + strings.Repeat("9", 400) + "\n", 2, "too large"},
		{"sitemap: /s.xml\n", 1, "not an absolute http(s) URL"},
		{"sitemap: ftp://example.com/s.xml\n", 1, "not an absolute http(s) URL"},
		{"user-agent: Googlebot/2.1\n", 1, `user-agent "Googlebot/2.1" read as "Googlebot"`},
		{"user-agent: /x\n", 1, "names no product token"},
		{"user-agent: *\ndisallow: x\n", 2, "starts with neither"},
		{"user-agent: *\ndisallow: " + strings.Repeat("a", maxLineBytes) + "\n", 2, "line longer than"},
		{"user-agent: *\ndisallow: /x # comment\n\n# only a comment\n", 0, ""},
		{"user-agent: * (all)\n", 1, `user-agent "* (all)" read as "*"`},
		{"\xEF\xBB\xBFuser-agent: *\n", 0, ""},
		{"\xEF\x11\xBFuser-agent: *\n", 1, "unknown directive"},
	}
	for _, tt := range tests {
		t.Run(tt.robots[:min(len(tt.robots), 40)], func(t *testing.T) {
			t.Parallel()
			warnings := Parse([]byte(tt.robots)).Warnings
			if tt.want == "" {
				if len(warnings) > 0 {
					t.Fatalf("warnings %+v, want none", warnings)
				}
				return
			}
			for _, w := range warnings {
				if w.Line == tt.line && strings.Contains(w.Message, tt.want) {
					return
				}
			}
			t.Fatalf("warnings %+v, want %q on line %d", warnings, tt.want, tt.line)
		})
	}
}

// TestWarningsBounded: a file of garbage gets maxWarnings warnings and a
// count of the rest.
func TestWarningsBounded(t *testing.T) {
	t.Parallel()
	r := Parse([]byte(strings.Repeat("garbage\n", 5000)))
	if len(r.Warnings) != maxWarnings+1 || r.Warnings[maxWarnings].Message != "4000 more warnings not listed" {
		t.Fatalf("%d warnings, the last %+v", len(r.Warnings), r.Warnings[len(r.Warnings)-1])
	}
}

// TestSitemaps: absolute sitemap URLs from anywhere in the file, in order,
// once each (Google ID_NonStandardLineExample_Sitemap).
func TestSitemaps(t *testing.T) {
	t.Parallel()
	r := Parse([]byte("Sitemap: http://foo.bar/sitemap.xml\nUser-Agent: foo\nAllow: /some/path\nsitemap:https://foo.bar/b.xml\nSITE-MAP: http://foo.bar/sitemap.xml\nsitemaps: https://foo.bar/c.xml\n"))
	want := []string{"http://foo.bar/sitemap.xml", "https://foo.bar/b.xml", "https://foo.bar/c.xml"}
	if strings.Join(r.Sitemaps, " ") != strings.Join(want, " ") {
		t.Fatalf("sitemaps %q, want %q", r.Sitemaps, want)
	}
}

// TestSizeCap: content past 500 KiB is ignored, the line the limit cuts
// through included (RFC 9309 §2.5).
func TestSizeCap(t *testing.T) {
	t.Parallel()
	head := "user-agent: *\ndisallow: /kept\n"
	filler := "# " + strings.Repeat("x", 97) + "\n" // 100 bytes
	body := head + strings.Repeat(filler, MaxBytes/100+1)
	cutLine := "disallow: /cut-through-the-limit\n"
	body = body[:MaxBytes-10] + "\n" + cutLine + "disallow: /after\n"
	r := Parse([]byte(body))
	for _, tt := range []struct {
		path    string
		allowed bool
	}{{"/kept", false}, {"/cut-through-the-limit", true}, {"/cut", true}, {"/after", true}} {
		if got := r.Test("bot", tt.path).Allowed; got != tt.allowed {
			t.Errorf("%s allowed %v, want %v", tt.path, got, tt.allowed)
		}
	}
	last := r.Warnings[len(r.Warnings)-1]
	if !strings.Contains(last.Message, "longer than 500 KiB") || last.Line != strings.Count(body[:MaxBytes-9], "\n")+1 {
		t.Errorf("warnings %+v", r.Warnings)
	}
	// A body of exactly MaxBytes is read whole, without a warning.
	exact := head + strings.Repeat(filler, (MaxBytes-len(head))/100-1)
	exact += "#" + strings.Repeat("x", MaxBytes-len(exact)-len("disallow: /end")-2) + "\ndisallow: /end"
	if len(exact) != MaxBytes {
		t.Fatalf("built %d bytes", len(exact))
	}
	if r := Parse([]byte(exact)); r.Test("bot", "/end").Allowed || len(r.Warnings) > 0 {
		t.Errorf("a body of MaxBytes: /end allowed %v, warnings %+v", r.Test("bot", "/end").Allowed, r.Warnings)
	}
}

// TestCrawlDelay: the delay of the groups applying to an agent.
func TestCrawlDelay(t *testing.T) {
	t.Parallel()
	const robots = "user-agent: *\ncrawl-delay: 0.5\n\nuser-agent: slowbot\ncrawl-delay: 2\ndisallow: /x\n\nuser-agent: slowbot\ncrawl-delay: 10\n\nuser-agent: fastbot\ndisallow: /\n\nuser-agent: hugebot\ncrawl-delay: 99999999999999\n"
	tests := []struct {
		robots string
		agent  string
		want   time.Duration
		ok     bool
	}{
		{robots, "otherbot", 500 * time.Millisecond, true},
		{robots, "SlowBot/1.0", 10 * time.Second, true}, // merged groups: the longest
		{robots, "fastbot", 0, false},                   // in slowbot's group, after its crawl-delay
		{robots, "hugebot", math.MaxInt64, true},
		{robots, "", 500 * time.Millisecond, true},
		// One group for the rules (Google), two runs of agents for the delays.
		{"user-agent: otherbot\ncrawl-delay: 30\n\nuser-agent: *\ncrawl-delay: 0.05\ndisallow: /private/\n", "webinfra", 50 * time.Millisecond, true},
		{"user-agent: otherbot\ncrawl-delay: 30\n\nuser-agent: *\ncrawl-delay: 0.05\ndisallow: /private/\n", "otherbot", 30 * time.Second, true},
		{"user-agent: a\nuser-agent: b\ncrawl-delay: 3\n", "a", 3 * time.Second, true},
		{"user-agent: a\ndisallow: /\ncrawl-delay: 3\n", "a", 3 * time.Second, true},
		{"user-agent: a\nuser-agent: *\ncrawl-delay: 3\n", "a", 3 * time.Second, true},
		{"user-agent: a\ncrawl-delay: 3\nuser-agent: *\ndisallow: /\n", "b", 0, false},
		{"user-agent: *\ndisallow: /\n", "a", 0, false},
	}
	for _, tt := range tests {
		if got, ok := Parse([]byte(tt.robots)).CrawlDelay(tt.agent); got != tt.want || ok != tt.ok {
			t.Errorf("CrawlDelay(%q) = %v, %v; want %v, %v\n%s", tt.agent, got, ok, tt.want, tt.ok, tt.robots)
		}
	}
}

// TestFromStatus: the status rules (RFC 9309 §2.3.1; Google's 429).
func TestFromStatus(t *testing.T) {
	t.Parallel()
	body := []byte("user-agent: *\ndisallow: /private\n")
	tests := []struct {
		status  int
		blanket Blanket
		public  bool // /public allowed
	}{
		{200, "", true},
		{206, "", true},
		{301, AllowAllURLs, true},
		{304, AllowAllURLs, true},
		{401, AllowAllURLs, true},
		{403, AllowAllURLs, true},
		{404, AllowAllURLs, true},
		{410, AllowAllURLs, true},
		{429, DisallowAllURLs, false},
		{500, DisallowAllURLs, false},
		{503, DisallowAllURLs, false},
		{0, DisallowAllURLs, false},
		{102, DisallowAllURLs, false},
		{999, DisallowAllURLs, false},
	}
	for _, tt := range tests {
		r := FromStatus(tt.status, body)
		if r.Status != tt.status || r.Blanket != tt.blanket || r.Test("bot", "/public").Allowed != tt.public {
			t.Errorf("FromStatus(%d): status %d, blanket %q, /public allowed %v", tt.status, r.Status, r.Blanket, r.Test("bot", "/public").Allowed)
		}
		if !r.Test("bot", "/robots.txt").Allowed {
			t.Errorf("FromStatus(%d): /robots.txt disallowed", tt.status)
		}
	}
	if r := FromStatus(200, body); r.Test("bot", "/private/x").Allowed {
		t.Error("FromStatus(200) did not parse the body")
	}
	if d := DisallowAll().Test("bot", "/x"); d.Allowed || d.MatchedRule != nil {
		t.Errorf("DisallowAll: %+v", d)
	}
	if d := AllowAll().Test("bot", "/x"); !d.Allowed || d.MatchedRule != nil {
		t.Errorf("AllowAll: %+v", d)
	}
}

// TestProductToken: a crawler name or User-Agent header reduced to the
// token matched against groups.
func TestProductToken(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]string{
		"Googlebot":       "Googlebot",
		"Googlebot/2.1":   "Googlebot",
		"Google-Extended": "Google-Extended",
		"Foo_Bar":         "Foo_Bar",
		"  FooBot ":       "FooBot",
		"FooBot Bar":      "FooBot",
		"Foobot*":         "Foobot",
		"Mozilla/5.0 (compatible; Bingbot/2.0; +http://www.bing.com/bingbot.htm)":                                "Bingbot",
		"Mozilla/5.0 (COMPATIBLE;\tClaudeBot/1.0)":                                                               "ClaudeBot",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)": "GPTBot",
		"Mozilla/5.0 (X11; Linux x86_64)":                                                                        "Mozilla",
		"ツ":                                                                                                      "",
		"*":                                                                                                      "",
		"":                                                                                                       "",
	} {
		if got := ProductToken(ua); got != want {
			t.Errorf("ProductToken(%q) = %q, want %q", ua, got, want)
		}
	}
}

// TestRequestPath: what Test matches of a URL (Google TestGetPathParamsQuery,
// plus normalisation).
func TestRequestPath(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"":                         "/",
		"http://www.example.com":   "/",
		"http://www.example.com/":  "/",
		"http://www.example.com/a": "/a",
		"http://www.example.com/a/b?c=http://d.e/":    "/a/b?c=http://d.e/",
		"http://www.example.com/a/b?c=d&e=f#fragment": "/a/b?c=d&e=f",
		"example.com":                        "/",
		"example.com/a/":                     "/a/",
		"a":                                  "/",
		"a/b":                                "/b",
		"/a":                                 "/a",
		"example.com?a":                      "/?a",
		"example.com/a;b#c":                  "/a;b",
		"//a/b/c":                            "/b/c",
		"http://x.example#frag/a":            "/",
		"https://x.example/caf%c3%a9?q=é":    "/caf%C3%A9?q=%C3%A9",
		"https://x.example/a%2fb":            "/a%2Fb",
		"https://user:pw@x.example:8080/p?q": "/p?q",
		"/a?b=http://c/d":                    "/a?b=http://c/d",
		"/p%zz":                              "/p%zz",
	} {
		if got := requestPath(raw); got != want {
			t.Errorf("requestPath(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestNormalise: pattern normalisation (Google TestMaybeEscapePattern).
func TestNormalise(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://www.example.com": "http://www.example.com",
		"/a/b/c":                 "/a/b/c",
		"á":                      "%C3%A1",
		"%aa":                    "%AA",
		"/%2f%2F":                "/%2F%2F",
		"%":                      "%",
		"%a":                     "%a",
		"%zz":                    "%zz",
		"/x%e3%83%84ツ":           "/x%E3%83%84%E3%83%84",
	} {
		if got := normalise(in); got != want {
			t.Errorf("normalise(%q) = %q, want %q", in, got, want)
		}
	}
}
