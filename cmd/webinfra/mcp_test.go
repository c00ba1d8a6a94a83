package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webinfra/webinfra/fetch"
	"github.com/webinfra/webinfra/server"
)

// herons serves a small article on loopback.
func herons(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html lang="en"><head><title>Herons return</title></head><body><article><h1>Herons return</h1>
<p>For the first time in ten years, grey herons are nesting again in the reed beds at the edge of the town marsh.</p></article></body></html>`)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// checkLocalTools lists the tools of a stdio session and calls scrape,
// llm-ready and a job: nothing is charged, there is no account to make.
func checkLocalTools(t *testing.T, cs *mcp.ClientSession, page string) {
	t.Helper()
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"scrape", "scrape-llm-ready", "crawl", "extract-clean", "get_job"} {
		if !names[want] {
			t.Errorf("no %s tool among %v", want, names)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "scrape", Arguments: map[string]any{"url": page}})
	if err != nil || res.IsError {
		t.Fatalf("scrape: %v %+v", err, res)
	}
	if md, _ := res.StructuredContent.(map[string]any)["markdown"].(string); !strings.Contains(md, "# Herons return") || res.Meta["credits_charged"] != float64(0) {
		t.Fatalf("scrape: markdown %q, meta %v", md, res.Meta)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "scrape-async", Arguments: map[string]any{"url": page}})
	if err != nil || res.IsError {
		t.Fatalf("scrape-async: %v %+v", err, res)
	}
	id, _ := res.StructuredContent.(map[string]any)["job_id"].(string)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_job", Arguments: map[string]any{"job_id": id}})
	if err != nil || res.IsError || res.StructuredContent.(map[string]any)["job_id"] != id {
		t.Fatalf("get_job: %v %+v", err, res)
	}
	// The SSRF guard stays on unless the flag says otherwise: a tool error.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "scrape", Arguments: map[string]any{"url": "http://169.254.169.254/latest/meta-data/"}})
	if err != nil || !res.IsError {
		t.Fatalf("metadata address: %v %+v", err, res)
	}
}

func TestMCPStdioInProcess(t *testing.T) {
	t.Parallel()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	fetcher, err := fetch.New(&fetch.Options{AllowPrivateNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- serveMCPStdio(ctx, fetcher, server.Options{}, serverSide, io.Discard) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkLocalTools(t, cs, herons(t))
	cs.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serveMCPStdio: %v", err)
	}
}

// The binary itself, as a desktop client starts it: `webinfra mcp` with
// the agent on its stdin and stdout.
func TestMCPStdioBinary(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(webinfraBinary(t), "mcp", "--allow-private-networks")
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkLocalTools(t, cs, herons(t))
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}
