package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPPath is where the remote MCP tool server answers (streamable HTTP).
const MCPPath = "/mcp"

// mcpCaller is who a tool call runs as: the API key's Authorization
// header and the peer's address, exactly as an HTTP call would carry them.
type mcpCaller struct {
	authorization string
	remoteAddr    string
}

// MCPServer returns an MCP tool server whose calls run as the holder of
// apiKey: each tool call is the matching HTTP call, through the whole
// pipeline (rate limit, credit hold and settle, usage log). `webinfra mcp`
// serves it over stdio with a local key.
func (s *Server) MCPServer(apiKey string) *mcp.Server {
	return s.mcpServer(mcpCaller{authorization: "Bearer " + apiKey, remoteAddr: "127.0.0.1:0"})
}

func (s *Server) mcpServer(caller mcpCaller) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "webinfra", Title: "Webinfra", Version: s.api.OpenAPI().Info.Version},
		&mcp.ServerOptions{Instructions: mcpInstructions, Logger: s.log})
	for _, t := range s.tools {
		srv.AddTool(&t.tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.callTool(ctx, caller, t, req.Params.Arguments), nil
		})
	}
	return srv
}

const mcpInstructions = "Webinfra fetches web pages and turns them into what an agent needs: " +
	"markdown, article text, chunks for embedding, structured data, tables, contacts. " +
	"Each tool is one /v1 endpoint and costs what it says in its description; " +
	"job tools answer a job_id to read with get_job."

// serveMCP answers the MCP endpoint. Every request needs an API key (401
// without, spending the client IP's bucket like any failed key). Protocol
// requests other than tool calls spend the account's bucket here; a tool
// call spends it in the pipeline it runs through.
func (s *Server) serveMCP(rw *recorder, r *http.Request, c *call) {
	ctx := r.Context()
	if !s.admitKey(rw, r, c) {
		return
	}
	p := c.principal
	// A tool call carries at most a page and its JSON escaping.
	body, err := s.readBodyInTime(rw, r, 2*s.opts.MaxPageBytes+s.opts.MaxBodyBytes)
	if err != nil {
		s.fail(rw, c, err)
		return
	}
	var msg struct {
		Method string `json:"method"`
	}
	json.Unmarshal(body, &msg)
	if msg.Method != "tools/call" && !s.admitRate(rw, ctx, c, "acct:"+strconv.FormatInt(p.account.ID, 10), p.plan.RequestsPerMinute, false) {
		return
	}
	caller := mcpCaller{authorization: r.Header.Get("Authorization"), remoteAddr: r.RemoteAddr}
	s.mcpHandler(caller).ServeHTTP(rw, r)
}

// mcpHandler is the SDK's streamable HTTP transport, stateless: each POST
// is answered on its own (JSON, not a stream), so no session outlives a
// request and nothing accumulates per client. DNS-rebinding protection is
// off because every request must carry an API key, which a rebinding page
// cannot know; with it on, a server behind a local reverse proxy would
// refuse its own Host name.
func (s *Server) mcpHandler(caller mcpCaller) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcpServer(caller) },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: s.log,
			DisableLocalhostProtection: true, MaxRequestBodyBytes: -1}) // serveMCP has read and bounded the body
}

// callTool runs one tool call as its HTTP call, in process, and turns the
// answer into a tool result: a success's JSON as structured content (and
// as text), an error's problem body as a tool error whose text is its
// detail. The request id and the credits charged ride in _meta.
func (s *Server) callTool(ctx context.Context, caller mcpCaller, t *mcpTool, args json.RawMessage) *mcp.CallToolResult {
	method, target, body, err := t.request(args)
	if err != nil {
		return toolError("invalid arguments: "+err.Error(), nil)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return toolError("could not build the request: "+err.Error(), nil)
	}
	req.RemoteAddr = caller.remoteAddr
	req.Header.Set("Authorization", caller.authorization)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	w := &bufferedResponse{header: http.Header{}}
	s.ServeHTTP(w, req)

	meta := mcp.Meta{"request_id": w.header.Get("X-Request-Id"), "status": w.status}
	if charged, err := strconv.ParseInt(w.header.Get("X-Credits-Charged"), 10, 64); err == nil {
		meta["credits_charged"] = charged
	}
	var structured map[string]any
	decodeErr := json.Unmarshal(w.body.Bytes(), &structured)
	if w.status < 200 || w.status > 299 {
		detail := http.StatusText(w.status)
		if d, ok := structured["detail"].(string); ok && d != "" {
			detail = d
		}
		res := toolError(detail, structured)
		res.Meta = meta
		return res
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: w.body.String()}}, Meta: meta}
	if decodeErr == nil {
		res.StructuredContent = structured
	}
	return res
}

func toolError(detail string, problem map[string]any) *mcp.CallToolResult {
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: detail}}}
	if problem != nil {
		res.StructuredContent = problem
	}
	return res
}

// bufferedResponse holds an in-process call's answer.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}
