package contacts_test

import (
	"context"
	"fmt"
	"log"

	"github.com/webinfra/webinfra/extract/contacts"
)

func ExampleExtract() {
	page := `<html lang="en-GB"><body>
<p>Write to sales [at] example [dot] co [dot] uk or
   <a href="mailto:info@example.co.uk?subject=Hello">info@example.co.uk</a>.</p>
<p>Tel: 020 7946 0958 · <a href="tel:+44-20-7946-0959">Fax</a></p>
<p><a href="https://twitter.com/intent/tweet?url=https%3A%2F%2Fexample.co.uk">Share</a>
   <a href="https://x.com/Example">@Example</a>
   <a href="https://www.linkedin.com/company/example/">LinkedIn</a></p>
<footer>© 2019-2024 Example Ltd · v1.2.3 · <img src="logo@2x.png"> 192.168.0.1</footer>
</body></html>`
	res, err := contacts.Extract(context.Background(), contacts.Input{HTML: page}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("region:", res.Region, "from", res.RegionSource)
	for _, e := range res.Emails {
		fmt.Println("email:", e.Address, e.Source, e.Count)
	}
	for _, p := range res.Phones {
		fmt.Println("phone:", p.E164, p.Raw, p.Type, p.Source)
	}
	for _, s := range res.Social {
		fmt.Println("social:", s.Network, s.URL, s.Handle)
	}
	// Output:
	// region: GB from lang
	// email: sales@example.co.uk obfuscated 1
	// email: info@example.co.uk mailto 2
	// phone: +442079460958 020 7946 0958 fixed_line text
	// phone: +442079460959 +44-20-7946-0959 fixed_line tel_link
	// social: x https://x.com/example example
	// social: linkedin https://www.linkedin.com/company/example example
}
