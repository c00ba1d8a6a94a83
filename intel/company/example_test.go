package company_test

import (
	"fmt"

	"github.com/webinfra/webinfra/intel/company"
	"github.com/webinfra/webinfra/intel/pageinfo"
)

// Profile reads a home page with Organization JSON-LD, social links and
// a footer.
func ExampleProfile() {
	page := pageinfo.Page{URL: "https://www.example.co.uk/", Status: 200, HTML: []byte(`<!doctype html>
<html lang="en-GB"><head><title>Example Ltd | Widgets for everyone</title>
<meta name="twitter:site" content="@examplewidgets">
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Corporation",
  "name": "Example Ltd", "url": "https://www.example.co.uk/", "logo": "/img/logo.svg", "foundingDate": "2009",
  "address": {"@type": "PostalAddress", "addressLocality": "London", "addressCountry": "GB"},
  "sameAs": ["https://www.linkedin.com/company/example-ltd/", "https://twitter.com/examplewidgets"]}</script>
</head><body>
<footer><a href="/about-us">About us</a> <a href="/contact">Contact</a> <a href="https://boards.greenhouse.io/example">We're hiring</a>
<a href="mailto:hello@example.co.uk">hello@example.co.uk</a> · Tel: 020 7946 0958
<a href="https://github.com/example-ltd">GitHub</a></footer>
</body></html>`)}
	rep := company.Profile(page)
	fmt.Println(rep.Name, "|", rep.Type, "|", rep.Logo, "|", rep.Address.Locality, "|", rep.Confidence)
	fmt.Println(rep.Email, rep.Telephone)
	for _, s := range rep.SocialProfiles {
		fmt.Println(s.Network, s.Handle, s.Source)
	}
	for _, c := range rep.ContactPages {
		fmt.Println(c.Kind, c.URL)
	}
	// Output:
	// Example Ltd | Corporation | https://www.example.co.uk/img/logo.svg | London | high
	// hello@example.co.uk +442079460958
	// linkedin example-ltd json-ld
	// x examplewidgets json-ld
	// github example-ltd anchor
	// about https://www.example.co.uk/about-us
	// contact https://www.example.co.uk/contact
	// careers https://boards.greenhouse.io/example
}
