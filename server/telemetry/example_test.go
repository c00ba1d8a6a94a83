package telemetry_test

import (
	"context"
	"fmt"

	"github.com/webinfra/webinfra/server/telemetry"
)

// Test reports what a destination is worth before it is stored; a bad
// one is refused without any request.
func ExampleForwarding_Test() {
	f := telemetry.New(nil, nil)
	defer f.Close(context.Background())

	d := telemetry.Destination{
		Endpoint: "https://otlp.example.com/v1/traces?api_key=x",
		Headers:  map[string]string{"Authorization": "Bearer secret"},
	}
	ok, detail := f.Test(context.Background(), d, telemetry.Span{AccountID: 1, Method: "POST", Route: "/v1/scrape", Status: 200})
	fmt.Println(ok, detail)
	// Output: false invalid destination: endpoint: query and fragment are not allowed
}

// Validate names the field at fault, for a 422.
func ExampleDestination_Validate() {
	for _, endpoint := range []string{
		"https://otlp.example.com/v1/traces",
		"ftp://otlp.example.com/v1/traces",
		"https://user:pw@otlp.example.com/v1/traces",
	} {
		fmt.Println(telemetry.Destination{Endpoint: endpoint}.Validate())
	}
	// Output:
	// <nil>
	// endpoint: scheme must be https or http
	// endpoint: credentials in the URL are not allowed; use a header
}
