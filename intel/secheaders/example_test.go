package secheaders_test

import (
	"fmt"
	"net/http"

	"github.com/webinfra/webinfra/intel/secheaders"
)

// Grade judges the headers of an answer already in hand.
func ExampleGrade() {
	rep := secheaders.Grade(secheaders.Page{
		URL:    "https://example.com/",
		Status: 200,
		Header: http.Header{
			"Strict-Transport-Security": {"max-age=31536000; includeSubDomains"},
			"Content-Security-Policy":   {"default-src 'self'; frame-ancestors 'none'"},
			"X-Content-Type-Options":    {"nosniff"},
			"Server":                    {"Apache/2.4.58"},
		},
	})
	fmt.Println(rep.Score, rep.Grade)
	for _, c := range rep.Checks[:5] {
		fmt.Printf("%-22s %-4s %+d\n", c.ID, c.Result, c.Points)
	}
	// Output:
	// 100 A+
	// hsts                   pass +0
	// csp                    pass +5
	// x_content_type_options pass +0
	// clickjacking           pass +5
	// referrer_policy        info +0
}

// ParseHSTS reads a Strict-Transport-Security value.
func ExampleParseHSTS() {
	h := secheaders.ParseHSTS("max-age=15552000; includeSubDomains")
	result, points, problem, _ := secheaders.HSTSAdvice(h)
	fmt.Println(h.MaxAge, h.IncludeSubDomains, result, points, problem)
	// Output: 15552000 true fail -10 hsts_short_max_age
}
