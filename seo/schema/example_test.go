package schema_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/seo/schema"
)

func ExampleValidate() {
	page := `<html><head><script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Product", "name": "Executive Anvil",
 "image": "https://example.com/anvil.jpg", "description": "A sleek anvil.", "brand": "ACME", "sku": "A1",
 "offers": {"@type": "Offer", "price": "$119.99", "priceCurrency": "USD",
  "availability": "https://schema.org/InStock", "priceValidUntil": "2025-12-31"}}
</script></head><body></body></html>`
	r, err := schema.Validate(context.Background(), schema.Input{HTML: page, URL: "https://example.com/anvil"}, nil)
	if err != nil {
		panic(err)
	}
	for _, p := range r.Problems {
		fmt.Println(p.Severity, p.Path, p.Code, p.Value)
	}
	fmt.Println("eligible:", r.Eligible)
	// Output:
	// error $[0].offers.price invalid_value $119.99
	// eligible: []
}
