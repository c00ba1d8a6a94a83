package redirects_test

import (
	"fmt"
	"net/url"

	"github.com/webinfra/webinfra/seo/redirects"
)

// ParseRefresh reads a meta refresh or Refresh header as browsers do.
func ExampleParseRefresh() {
	page, _ := url.Parse("https://example.com/old/page")
	for _, content := range []string{"0; URL='/new/page'", "5", "3, next"} {
		r := redirects.ParseRefresh(content, page)
		fmt.Printf("%q: after %d s to %q\n", content, r.DelaySeconds, r.URL)
	}
	// Output:
	// "0; URL='/new/page'": after 0 s to "https://example.com/new/page"
	// "5": after 5 s to ""
	// "3, next": after 3 s to "https://example.com/old/next"
}
