package freshness_test

import (
	"context"
	"fmt"
	"time"

	"github.com/webinfra/webinfra/aeo/freshness"
)

func ExampleCheck() {
	page := `<html><head>
<meta property="article:published_time" content="2025-01-10T08:00:00Z">
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Article",
 "datePublished": "2025-01-10T08:00:00Z", "dateModified": "2025-04-02T10:00:00Z"}</script>
</head><body><p>Last updated: April 2, 2025</p><footer>© 2024 Example</footer></body></html>`
	r, err := freshness.Check(context.Background(), freshness.Input{
		HTML: page,
		Now:  time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC),
	}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Score, r.Grade)
	fmt.Println(r.Reason)
	for _, s := range r.Signals {
		fmt.Println(s.Source, s.Property, s.Date, *s.AgeDays)
	}
	for _, in := range r.Inconsistencies {
		fmt.Println(in.Code)
	}
	// Output:
	// 88 B
	// newest in-page date: json_ld dateModified (2025-04-02T10:00:00Z), 59 days old; 1 inconsistency cost 5 points
	// json_ld dateModified 2025-04-02T10:00:00Z 59
	// json_ld datePublished 2025-01-10T08:00:00Z 141
	// meta article:published_time 2025-01-10T08:00:00Z 141
	// visible_text Last updated 2025-04-02 60
	// copyright © 2024 152
	// copyright_outdated
}
