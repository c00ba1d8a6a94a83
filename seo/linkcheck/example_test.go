package linkcheck_test

import (
	"fmt"
	"net/url"

	"github.com/webinfra/webinfra/internal/htmltag"
	"github.com/webinfra/webinfra/seo/linkcheck"
)

// Collect reads a page's links without fetching anything: absolute
// against the page and its <base href>, fragments dropped, duplicates
// merged, non-web links counted as skipped.
func ExampleCollect() {
	doc, _ := htmltag.Parse(`<base href="https://example.com/docs/">
<a href="intro">Intro</a> <a href="intro#setup">Setup</a>
<a href="https://other.example/">Elsewhere</a>
<a href="mailto:team@example.com">Mail</a> <a href="#top">Top</a>
<img src="/logo.png" alt="Logo">`, "html")
	page, _ := url.Parse("https://www.example.com/")
	links, skipped, _ := linkcheck.Collect(doc, page, true)
	for _, l := range links {
		fmt.Printf("%-6s %-5v %d %s\n", l.Kind, l.Internal, l.Occurrences, l.URL)
	}
	fmt.Printf("skipped: %d mailto, %d fragment\n", skipped.Mailto, skipped.Fragment)
	// Output:
	// a      true  2 https://example.com/docs/intro
	// a      false 1 https://other.example/
	// img    true  1 https://example.com/logo.png
	// skipped: 1 mailto, 1 fragment
}
