package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	endpoint := flag.String("server", "http://127.0.0.1:8080/mcp", "the server's MCP endpoint")
	key := flag.String("key", os.Getenv("WEBINFRA_API_KEY"), "API key (WEBINFRA_API_KEY)")
	flag.Parse()
	if flag.NArg() != 1 || *key == "" {
		fmt.Fprintln(os.Stderr, "usage: mcpclient -server URL -key osk_... PAGE_URL")
		os.Exit(2)
	}
	if err := run(context.Background(), *endpoint, *key, flag.Arg(0), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcpclient:", err)
		os.Exit(1)
	}
}

// run lists the server's tools and scrapes page with the scrape tool.
func run(ctx context.Context, endpoint, key, page string, out io.Writer) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpclient-example", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: withKey{key: key, next: http.DefaultTransport}},
	}, nil)
	if err != nil {
		return err
	}
	defer session.Close()

	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tool %s: %s\n", tool.Name, tool.Description)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "scrape", Arguments: map[string]any{"url": page}})
	if err != nil {
		return err
	}
	if res.IsError {
		// The text of a tool error is the API's problem detail.
		return errors.New(res.Content[0].(*mcp.TextContent).Text)
	}
	result, _ := res.StructuredContent.(map[string]any)
	fmt.Fprintf(out, "scrape %s: status %v, %v credit(s) charged\n%v\n", page, result["status_code"], res.Meta["credits_charged"], result["markdown"])
	return nil
}

// withKey sends the API key with every request, as Bearer auth.
type withKey struct {
	key  string
	next http.RoundTripper
}

func (k withKey) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+k.key)
	return k.next.RoundTrip(r)
}
