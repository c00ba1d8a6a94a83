// Command mcpclient is an agent's side of Webinfra's MCP tool server: it
// connects to /mcp over streamable HTTP with an API key, lists the tools
// with their costs, and calls scrape on a URL.
//
//	go run ./examples/mcpclient -server http://127.0.0.1:8080/mcp -key osk_... https://example.com/
//
// Any MCP client does the same; this one uses the official Go SDK.
package main
