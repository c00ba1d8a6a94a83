package llmstxt_test

import (
	"fmt"
	"net/url"

	"github.com/webinfra/webinfra/aeo/llmstxt"
)

// Parse reads an llms.txt file's structure without fetching anything.
func ExampleParse() {
	base, _ := url.Parse("https://example.com/llms.txt")
	s := llmstxt.Parse(`# Example

> A library for widgets.

## Docs

- [Quick start](/docs/start.md): first steps
- Install notes

## Optional

- [Changelog](https://example.com/changelog.md)
`, base)
	fmt.Println(s.Title, "|", s.Summary)
	for _, sec := range s.Sections {
		fmt.Printf("%s: %d link(s), optional %v\n", sec.Title, sec.Links, sec.Optional)
	}
	fmt.Println(s.Links[0].URL)
	for _, p := range s.Problems {
		fmt.Printf("line %d: %s\n", p.Line, p.Code)
	}
	// Output:
	// Example | A library for widgets.
	// Docs: 1 link(s), optional false
	// Optional: 1 link(s), optional true
	// https://example.com/docs/start.md
	// line 7: relative_url
	// line 8: malformed_link
}
