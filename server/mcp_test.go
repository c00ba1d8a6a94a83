package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/webinfra/webinfra/billing"
	"github.com/webinfra/webinfra/server"
)

// bearer adds an API key to every request of an MCP client.
type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.next.RoundTrip(r)
}

// mcpSession connects the SDK's own client to the server's /mcp.
func (e *env) mcpSession(key string) *mcp.ClientSession {
	e.t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "webinfra-test", Version: "1"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: e.ts.URL + server.MCPPath,
		HTTPClient: &http.Client{Transport: bearer{key: key, next: http.DefaultTransport}}, MaxRetries: -1}
	cs, err := client.Connect(context.Background(), transport, nil)
	if err != nil {
		e.t.Fatalf("connect to /mcp: %v", err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

func TestMCPListsEveryBuiltBillableOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withQueue())
	cs := e.mcpSession(e.signup("mcp-list@example.com"))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		tools[tool.Name] = tool
	}
	for _, op := range e.srv.Operations() {
		tool, listed := tools[op.ID]
		switch {
		case op.Built && op.Billable() && !listed:
			t.Errorf("built billable operation %s is not a tool", op.ID)
		case !op.Built && listed:
			t.Errorf("operation %s answers 501 but is a tool", op.ID)
		case listed && !strings.Contains(tool.Description, "credit"):
			t.Errorf("tool %s does not state its cost: %q", op.ID, tool.Description)
		}
	}
	if tools["get_job"] == nil {
		t.Fatalf("no get_job tool among %d", len(tools))
	}
	// The input schema is the request schema, self-contained.
	raw, _ := json.Marshal(tools["scrape"].InputSchema)
	var schema struct {
		Type       string                    `json:"type"`
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	json.Unmarshal(raw, &schema)
	if schema.Type != "object" || schema.Properties["url"] == nil || !strings.Contains(strings.Join(schema.Required, ","), "url") {
		t.Fatalf("scrape input schema %s", raw)
	}
	if strings.Contains(string(raw), "#/components/") {
		t.Fatalf("scrape input schema refers outside itself: %s", raw)
	}
	raw, _ = json.Marshal(tools["get_job"].InputSchema)
	if !strings.Contains(string(raw), `"job_id"`) {
		t.Fatalf("get_job input schema %s", raw)
	}
}

func TestMCPToolCallsGoThroughThePipeline(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withQueue())
	key := e.signup("mcp-call@example.com")
	cs := e.mcpSession(key)
	ctx := context.Background()
	target := page(t).URL

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "scrape", Arguments: map[string]any{"url": target}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(out), "Hello") || res.Meta["credits_charged"] != float64(1) {
		t.Fatalf("scrape: error %v, meta %v, result %s", res.IsError, res.Meta, out)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "extract-clean", Arguments: map[string]any{
		"html": "<html><head><title>Herons</title></head><body><article><h1>Herons</h1><p>" +
			strings.Repeat("Grey herons stand still in shallow water for a long time, waiting for fish. ", 8) +
			"</p></article></body></html>"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(text, "Grey herons") {
		t.Fatalf("extract-clean: error %v, %s", res.IsError, text)
	}
	if b := e.balance(key); b != 998 {
		t.Fatalf("balance %d after two tool calls, want 998", b)
	}
	e.flushUsage()
	var usage struct {
		Rows []struct {
			Endpoint       string `json:"endpoint"`
			CreditsCharged int64  `json:"credits_charged"`
		} `json:"rows"`
	}
	e.want(e.call("GET", "/v1/me/usage", key, nil), 200).json(t, &usage)
	endpoints := ""
	for _, r := range usage.Rows {
		endpoints += r.Endpoint + ","
	}
	if !strings.Contains(endpoints, "/v1/scrape,") || !strings.Contains(endpoints, "/v1/extract/clean,") {
		t.Fatalf("usage rows %+v", usage.Rows)
	}

	// A job: crawl answers a job id, get_job reads it.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "scrape-async", Arguments: map[string]any{"url": target}})
	if err != nil || res.IsError {
		t.Fatalf("scrape-async: %v %+v", err, res)
	}
	id, _ := res.StructuredContent.(map[string]any)["job_id"].(string)
	j := e.job(key, id)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_job", Arguments: map[string]any{"job_id": id}})
	if err != nil || res.IsError || res.StructuredContent.(map[string]any)["status"] != j.Status {
		t.Fatalf("get_job: %v %+v", err, res)
	}
	res, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_job", Arguments: map[string]any{"job_id": "job_000000000000000000000000"}})
	if !res.IsError {
		t.Fatalf("get_job of an unknown job: %+v", res)
	}
	res, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_job", Arguments: map[string]any{"job": id}})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"job"`) {
		t.Fatalf("get_job with a wrong argument: %+v", res)
	}
}

func TestMCPErrorsAreToolErrorsAndChargeNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withPlan(billing.Plan{Credits: 1, RequestsPerMinute: 100}))
	key := e.signup("mcp-broke@example.com")
	cs := e.mcpSession(key)
	ctx := context.Background()

	// Invalid input: the 422's detail, nothing charged.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "scrape", Arguments: map[string]any{"url": "ftp://example.com/"}})
	if err != nil || !res.IsError {
		t.Fatalf("bad URL: %v %+v", err, res)
	}
	if detail := res.StructuredContent.(map[string]any)["detail"]; res.Content[0].(*mcp.TextContent).Text != detail {
		t.Fatalf("tool error text %q, problem detail %q", res.Content[0].(*mcp.TextContent).Text, detail)
	}

	// No credits left: a tool error naming the cause, no charge.
	target := page(t).URL
	e.want(e.call("POST", "/v1/scrape", key, map[string]any{"url": target}), 200) // the last credit
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "scrape", Arguments: map[string]any{"url": target}})
	if err != nil || !res.IsError {
		t.Fatalf("scrape without credits: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(strings.ToLower(text), "credit") || res.Meta["credits_charged"] != float64(0) {
		t.Fatalf("scrape without credits: %q meta %v", text, res.Meta)
	}
	if b := e.balance(key); b != 0 {
		t.Fatalf("balance %d", b)
	}
}

func TestMCPNeedsAKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, auth := range []string{"", "Bearer osk_" + strings.Repeat("0", 48), "Basic Zm9vOmJhcg=="} {
		req, _ := http.NewRequest("POST", e.ts.URL+server.MCPPath, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := e.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("Authorization %q: status %d, WWW-Authenticate %q", auth, res.StatusCode, res.Header.Get("WWW-Authenticate"))
		}
	}
}
