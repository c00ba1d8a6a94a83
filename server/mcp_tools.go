package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpTool is a catalog operation offered as an MCP tool: its input schema
// is the operation's request (the JSON body, or the path and query
// parameters), resolved into one self-contained JSON Schema.
type mcpTool struct {
	op     *Operation
	tool   mcp.Tool
	params []*huma.Param // path and query parameters, for operations without a body
}

// toolName is the tool an operation is offered as: its own Tool name, or
// its operation id when it is built and billable; "" when it is not a tool.
func (o *Operation) toolName() string {
	switch {
	case !o.Built:
		return "" // a 501 is not offered to an agent
	case o.Tool != "":
		return o.Tool
	case o.Billable():
		return o.ID
	}
	return ""
}

// toolDescription says what the tool does and what it costs.
func (o *Operation) toolDescription() string {
	var b strings.Builder
	b.WriteString(o.Summary)
	if !strings.HasSuffix(o.Summary, ".") {
		b.WriteByte('.')
	}
	if o.Description != "" {
		b.WriteString(" " + o.Description)
	}
	credits := fmt.Sprintf("%d credits", o.Price.Credits)
	if o.Price.Credits == 1 {
		credits = "1 credit"
	}
	switch {
	case !o.Billable():
		b.WriteString(" Free.")
	case o.Price.PerItem:
		b.WriteString(" Costs " + credits + " per URL or page.")
	default:
		b.WriteString(" Costs " + credits + " a call.")
	}
	if o.Tag == tagJobs && o.Method == http.MethodPost {
		b.WriteString(" Runs as a job: read its result with get_job and the job_id answered.")
	}
	return b.String()
}

// buildTools derives the tool list from the catalog and the OpenAPI
// document generated from it, so a capability added to the catalog is a
// tool with no further code.
func buildTools(ops []Operation, doc *huma.OpenAPI) ([]*mcpTool, error) {
	var tools []*mcpTool
	for i := range ops {
		op := &ops[i]
		name := op.toolName()
		if name == "" {
			continue
		}
		hop := documented(doc, op)
		if hop == nil {
			return nil, fmt.Errorf("mcp: %s %s is not in the OpenAPI document", op.Method, op.Path)
		}
		schema, params, err := toolInputSchema(doc, hop)
		if err != nil {
			return nil, fmt.Errorf("mcp: tool %s: %w", name, err)
		}
		tools = append(tools, &mcpTool{op: op, params: params, tool: mcp.Tool{
			Name: name, Title: op.Summary, Description: op.toolDescription(), InputSchema: schema,
			Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(op.Billable()), ReadOnlyHint: !op.Billable()},
		}})
	}
	return tools, nil
}

// documented is op's entry in the OpenAPI document.
func documented(doc *huma.OpenAPI, op *Operation) *huma.Operation {
	item := doc.Paths[op.Path]
	if item == nil {
		return nil
	}
	switch op.Method {
	case http.MethodGet:
		return item.Get
	case http.MethodPost:
		return item.Post
	case http.MethodPut:
		return item.Put
	case http.MethodPatch:
		return item.Patch
	case http.MethodDelete:
		return item.Delete
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

const componentRef = "#/components/schemas/"

// toolInputSchema is the operation's request as one JSON Schema object:
// the JSON body's schema, or an object of the path and query parameters.
// References to OpenAPI components become references into $defs, which
// holds every component reachable from the root, so the schema stands
// alone (an MCP client cannot resolve the OpenAPI document's refs).
func toolInputSchema(doc *huma.OpenAPI, hop *huma.Operation) (json.RawMessage, []*huma.Param, error) {
	var root map[string]any
	var params []*huma.Param
	switch body := hop.RequestBody; {
	case body != nil && len(hop.Parameters) > 0:
		return nil, nil, fmt.Errorf("operations with both parameters and a body are not offered as tools")
	case body != nil:
		media := body.Content["application/json"]
		if media == nil || media.Schema == nil {
			return nil, nil, fmt.Errorf("request body has no application/json schema")
		}
		if err := remarshal(media.Schema, &root); err != nil {
			return nil, nil, err
		}
	default:
		props, required := map[string]any{}, []string{}
		for _, p := range hop.Parameters {
			if p.In != "path" && p.In != "query" {
				continue
			}
			var ps map[string]any
			if err := remarshal(p.Schema, &ps); err != nil {
				return nil, nil, err
			}
			if p.Description != "" {
				ps["description"] = p.Description
			}
			props[p.Name] = ps
			if p.Required || p.In == "path" {
				required = append(required, p.Name)
			}
			params = append(params, p)
		}
		root = map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	}
	components := map[string]any{}
	if err := remarshal(doc.Components.Schemas.Map(), &components); err != nil {
		return nil, nil, err
	}
	defs := map[string]any{}
	for {
		name, isRef := refName(root)
		if !isRef {
			break
		}
		inner, ok := components[name].(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("unknown schema %q", name)
		}
		root = clone(inner)
	}
	if err := collectDefs(root, components, defs); err != nil {
		return nil, nil, err
	}
	if root["type"] != "object" {
		return nil, nil, fmt.Errorf("request schema is not an object")
	}
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	raw, err := json.Marshal(rewriteRefs(root))
	return raw, params, err
}

// refName is the component a {"$ref": ...} schema points to.
func refName(schema map[string]any) (string, bool) {
	ref, ok := schema["$ref"].(string)
	if !ok || !strings.HasPrefix(ref, componentRef) {
		return "", false
	}
	return strings.TrimPrefix(ref, componentRef), true
}

// collectDefs adds every component v refers to, directly or through other
// components, to defs (each once, so recursive schemas end).
func collectDefs(v any, components, defs map[string]any) error {
	switch t := v.(type) {
	case map[string]any:
		if name, ok := refName(t); ok {
			if _, seen := defs[name]; seen {
				return nil
			}
			inner, ok := components[name].(map[string]any)
			if !ok {
				return fmt.Errorf("unknown schema %q", name)
			}
			defs[name] = clone(inner)
			return collectDefs(defs[name], components, defs)
		}
		for _, child := range t {
			if err := collectDefs(child, components, defs); err != nil {
				return err
			}
		}
	case []any:
		for _, child := range t {
			if err := collectDefs(child, components, defs); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewriteRefs points OpenAPI component references at $defs, in place.
func rewriteRefs(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if name, ok := refName(t); ok {
			t["$ref"] = "#/$defs/" + name
		}
		for _, child := range t {
			rewriteRefs(child)
		}
	case []any:
		for _, child := range t {
			rewriteRefs(child)
		}
	}
	return v
}

func clone(m map[string]any) map[string]any {
	var out map[string]any
	raw, _ := json.Marshal(m)
	json.Unmarshal(raw, &out)
	return out
}

func remarshal(from, to any) error {
	raw, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, to)
}

// request is the HTTP request a tool call stands for: the arguments are
// the JSON body, or fill the path and query parameters.
func (t *mcpTool) request(args json.RawMessage) (method, target string, body []byte, err error) {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if t.params == nil {
		return t.op.Method, t.op.Path, args, nil
	}
	var values map[string]any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber() // 12345678 stays 12345678, not 1.2345678e+07
	if err := dec.Decode(&values); err != nil || values == nil {
		return "", "", nil, fmt.Errorf("arguments must be a JSON object")
	}
	for name := range values {
		if !slices.ContainsFunc(t.params, func(p *huma.Param) bool { return p.Name == name }) {
			return "", "", nil, fmt.Errorf("unknown argument %q", name)
		}
	}
	path, query := t.op.Path, url.Values{}
	for _, p := range t.params {
		v, ok := values[p.Name]
		if !ok {
			if p.In == "path" {
				return "", "", nil, fmt.Errorf("argument %q is required", p.Name)
			}
			continue
		}
		text := fmt.Sprint(v)
		if p.In == "path" {
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(text))
		} else {
			query.Set(p.Name, text)
		}
	}
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	return t.op.Method, path, nil, nil
}
