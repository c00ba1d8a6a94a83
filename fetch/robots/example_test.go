package robots_test

import (
	"fmt"

	"github.com/webinfra/webinfra/fetch/robots"
)

func ExampleParse() {
	r := robots.Parse([]byte(`User-agent: *
Disallow: /private/
Allow: /private/press-kit$
Crawl-delay: 2

User-agent: GPTBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`))
	for _, u := range []string{"https://example.com/private/press-kit", "https://example.com/private/notes", "https://example.com/blog"} {
		d := r.Test("Mozilla/5.0 (compatible; webinfra/1.0)", u)
		if d.MatchedRule != nil {
			fmt.Printf("%s allowed=%v by line %d (%s: %s)\n", u, d.Allowed, d.MatchedRule.Line, d.MatchedRule.Directive, d.MatchedRule.Pattern)
		} else {
			fmt.Printf("%s allowed=%v by no rule\n", u, d.Allowed)
		}
	}
	fmt.Println("GPTBot on /blog:", r.Test("GPTBot/1.1", "https://example.com/blog").Allowed)
	delay, _ := r.CrawlDelay("webinfra")
	fmt.Println("crawl delay:", delay, "sitemaps:", r.Sitemaps)
	// Output:
	// https://example.com/private/press-kit allowed=true by line 3 (allow: /private/press-kit$)
	// https://example.com/private/notes allowed=false by line 2 (disallow: /private/)
	// https://example.com/blog allowed=true by no rule
	// GPTBot on /blog: false
	// crawl delay: 2s sitemaps: [https://example.com/sitemap.xml]
}

func ExampleFromStatus() {
	for _, status := range []int{404, 503} {
		r := robots.FromStatus(status, nil)
		fmt.Println(status, r.Blanket, r.Test("webinfra", "/page").Allowed)
	}
	// Output:
	// 404 allow_all true
	// 503 disallow_all false
}
