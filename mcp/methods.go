package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// handleFeature serves the catalog methods both eras share.
func (s *Server) handleFeature(ctx context.Context, method string, params json.RawMessage, c *Caller) (any, error) {
	cat := s.opts.Catalog
	hasTools := cat.Tools != nil && cat.CallTool != nil
	hasResources := cat.ReadResource != nil
	hasPrompts := cat.Prompts != nil && cat.GetPrompt != nil
	switch {
	case method == "tools/list" && hasTools:
		return listPage(s, params, "tools", toolsForVersion(cat.Tools(ctx), c.ProtocolVersion))
	case method == "tools/call" && hasTools:
		return s.callTool(ctx, params, c)
	case method == "resources/list" && hasResources:
		var rs []Resource
		if cat.Resources != nil {
			rs = cat.Resources(ctx)
		}
		return listPage(s, params, "resources", rs)
	case method == "resources/templates/list" && hasResources:
		var ts []ResourceTemplate
		if cat.ResourceTemplates != nil {
			ts = cat.ResourceTemplates(ctx)
		}
		return listPage(s, params, "resourceTemplates", ts)
	case method == "resources/read" && hasResources:
		return s.readResource(ctx, params, c)
	case method == "prompts/list" && hasPrompts:
		return listPage(s, params, "prompts", cat.Prompts(ctx))
	case method == "prompts/get" && hasPrompts:
		return s.getPrompt(ctx, params, c)
	case method == "completion/complete" && cat.Complete != nil:
		return s.complete(ctx, params, c)
	}
	return nil, methodNotFound(method)
}

// listPage returns one page of items under key, with an opaque nextCursor
// when more remain.
func listPage[T any](s *Server, params json.RawMessage, key string, items []T) (any, error) {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	start := 0
	if p.Cursor != nil && *p.Cursor != "" {
		n, ok := decodeCursor(*p.Cursor)
		if !ok || n > len(items) {
			return nil, invalidParams("invalid cursor")
		}
		start = n
	}
	end := min(start+s.opts.PageSize, len(items))
	page := items[start:end]
	if page == nil {
		page = []T{}
	}
	r := map[string]any{key: page}
	if end < len(items) {
		r["nextCursor"] = encodeCursor(end)
	}
	return r, nil
}

func encodeCursor(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(offset)))
}

func decodeCursor(c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	rest, ok := strings.CutPrefix(string(b), "offset:")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

// toolsForVersion fills the default input schema and drops fields older
// legacy versions do not define.
func toolsForVersion(tools []Tool, version string) []Tool {
	out := make([]Tool, len(tools))
	for i, t := range tools {
		if len(t.InputSchema) == 0 {
			t.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		if version == Version20250326 || version == Version20241105 {
			t.OutputSchema = nil
		}
		out[i] = t
	}
	return out
}

func findTool(tools []Tool, name string) (Tool, bool) {
	for _, t := range tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// retryParams are the multi-round-trip fields a retried request carries.
type retryParams struct {
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   *string                    `json:"requestState"`
}

func (s *Server) retry(p retryParams) (Retry, error) {
	r := Retry{InputResponses: p.InputResponses}
	if p.RequestState != nil && *p.RequestState != "" {
		st, ok := s.openState(*p.RequestState)
		if !ok {
			return r, invalidParams("invalid requestState: it was not issued by this server or was modified")
		}
		r.RequestState = st
	}
	return r, nil
}

func (s *Server) callTool(ctx context.Context, params json.RawMessage, c *Caller) (any, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		retryParams
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Name == "" {
		return nil, invalidParams("tools/call: missing tool name")
	}
	tool, ok := findTool(s.opts.Catalog.Tools(ctx), p.Name)
	if !ok {
		return nil, invalidParams("unknown tool %q", p.Name)
	}
	args := p.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if !isJSONObject(args) {
		return nil, invalidParams("invalid arguments for tool %q: arguments must be a JSON object", p.Name)
	}
	if err := validateArguments(tool.InputSchema, args); err != nil {
		// Arguments that break the schema are a tool execution error, not a
		// protocol error: the model sees what was wrong and can retry
		// (MCP 2025-11-25, SEP-1303).
		return map[string]any{"isError": true, "content": []Content{
			TextContent(fmt.Sprintf("invalid arguments for tool %q: %v", p.Name, err)),
		}}, nil
	}
	rt, err := s.retry(p.retryParams)
	if err != nil {
		return nil, err
	}
	res, err := s.opts.Catalog.CallTool(ctx, &CallToolRequest{Name: p.Name, Arguments: args, Retry: rt, Caller: c})
	if err != nil {
		var rpcErr *Error
		if errors.As(err, &rpcErr) || ctx.Err() != nil {
			return nil, err
		}
		res = &CallToolResult{Content: []Content{TextContent(err.Error())}, IsError: true}
	}
	if res == nil {
		res = &CallToolResult{}
	}
	if res.needsInput() {
		return s.inputRequired(&res.InputRequired, c)
	}
	content := res.Content
	if content == nil {
		content = []Content{}
	}
	w := map[string]any{"content": content}
	if res.IsError {
		w["isError"] = true
	}
	if res.StructuredContent != nil && structuredAllowed(res.StructuredContent, c) {
		w["structuredContent"] = res.StructuredContent
	}
	if len(res.Meta) > 0 {
		w["_meta"] = res.Meta
	}
	return w, nil
}

// structuredAllowed reports whether structuredContent can be sent: any
// JSON in 2026-07-28, an object in 2025-06-18 and 2025-11-25, never before.
func structuredAllowed(v any, c *Caller) bool {
	if c.modern {
		return true
	}
	if c.ProtocolVersion != Version20251125 && c.ProtocolVersion != Version20250618 {
		return false
	}
	b, err := json.Marshal(v)
	return err == nil && isJSONObject(b)
}

// inputRequired renders an input_required result (2026-07-28 only).
func (s *Server) inputRequired(ir *InputRequired, c *Caller) (any, error) {
	if !c.modern {
		return nil, &Error{Code: CodeInternalError, Message: "this request needs more client input, which requires protocol version " + Version20260728}
	}
	w := map[string]any{"resultType": "input_required"}
	if len(ir.InputRequests) > 0 {
		w["inputRequests"] = ir.InputRequests
	}
	if ir.RequestState != "" {
		w["requestState"] = s.sealState(ir.RequestState)
	}
	return w, nil
}

// maxEchoURI bounds how much of a client's URI an error repeats, so a
// 3 MB URI does not come back as a 6 MB error.
const maxEchoURI = 200

// resourceNotFound names the URI once, in data.uri (as the MCP spec's
// example does), cut to maxEchoURI characters.
func resourceNotFound(uri string, c *Caller) *Error {
	code := CodeResourceNotFound
	if c.modern {
		code = CodeInvalidParams
	}
	data := map[string]any{"uri": truncateRunes(uri, maxEchoURI)}
	if len(uri) > maxEchoURI {
		data["uriLength"] = len(uri)
	}
	return &Error{Code: code, Message: "resource not found (see data.uri; resources/list and resources/templates/list name what exists)", Data: data}
}

// truncateRunes cuts s to at most n runes, marking a cut with "…".
func truncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

func (s *Server) readResource(ctx context.Context, params json.RawMessage, c *Caller) (any, error) {
	var p struct {
		URI string `json:"uri"`
		retryParams
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.URI == "" {
		return nil, invalidParams("resources/read: missing uri")
	}
	rt, err := s.retry(p.retryParams)
	if err != nil {
		return nil, err
	}
	res, err := s.opts.Catalog.ReadResource(ctx, &ReadResourceRequest{URI: p.URI, Retry: rt, Caller: c})
	if errors.Is(err, ErrResourceNotFound) {
		return nil, resourceNotFound(p.URI, c)
	}
	if err != nil {
		return nil, err
	}
	if res != nil && res.needsInput() {
		return s.inputRequired(&res.InputRequired, c)
	}
	if res == nil || len(res.Contents) == 0 {
		return nil, resourceNotFound(p.URI, c)
	}
	return map[string]any{"contents": res.Contents}, nil
}

func (s *Server) getPrompt(ctx context.Context, params json.RawMessage, c *Caller) (any, error) {
	var p struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
		retryParams
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	var prompt *Prompt
	for _, pr := range s.opts.Catalog.Prompts(ctx) {
		if pr.Name == p.Name {
			prompt = &pr
			break
		}
	}
	if prompt == nil {
		return nil, invalidParams("unknown prompt %q", p.Name)
	}
	args := make(map[string]string, len(p.Arguments))
	for k, raw := range p.Arguments {
		var v string
		if jsonrpc.Unmarshal(raw, &v) != nil {
			return nil, invalidParams("prompt %q: argument %q must be a string", p.Name, k)
		}
		args[k] = v
	}
	for _, a := range prompt.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			return nil, invalidParams("prompt %q: missing required argument %q", p.Name, a.Name)
		}
	}
	rt, err := s.retry(p.retryParams)
	if err != nil {
		return nil, err
	}
	res, err := s.opts.Catalog.GetPrompt(ctx, &GetPromptRequest{Name: p.Name, Arguments: args, Retry: rt, Caller: c})
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = &GetPromptResult{}
	}
	if res.needsInput() {
		return s.inputRequired(&res.InputRequired, c)
	}
	msgs := res.Messages
	if msgs == nil {
		msgs = []PromptMessage{}
	}
	w := map[string]any{"messages": msgs}
	if res.Description != "" {
		w["description"] = res.Description
	}
	return w, nil
}

// maxCompletions is the spec's cap on completion values per answer.
const maxCompletions = 100

func (s *Server) complete(ctx context.Context, params json.RawMessage, c *Caller) (any, error) {
	var p struct {
		Ref      json.RawMessage `json:"ref"`
		Argument json.RawMessage `json:"argument"`
		Context  struct {
			Arguments map[string]string `json:"arguments"`
		} `json:"context"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	req := &CompleteRequest{Context: p.Context.Arguments, Caller: c}
	if jsonrpc.Unmarshal(p.Ref, &req.Ref) != nil || (req.Ref.Type != "ref/prompt" && req.Ref.Type != "ref/resource") {
		return nil, invalidParams(`completion/complete: ref.type must be "ref/prompt" or "ref/resource"`)
	}
	if jsonrpc.Unmarshal(p.Argument, &req.Argument) != nil || req.Argument.Name == "" {
		return nil, invalidParams("completion/complete: missing argument.name")
	}
	res, err := s.opts.Catalog.Complete(ctx, req)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = &CompleteResult{}
	}
	values, total, more := res.Values, res.Total, res.HasMore
	if values == nil {
		values = []string{}
	}
	if len(values) > maxCompletions {
		total, more, values = max(total, len(values)), true, values[:maxCompletions]
	}
	comp := map[string]any{"values": values}
	if total > 0 {
		comp["total"] = total
	}
	if more {
		comp["hasMore"] = true
	}
	return map[string]any{"completion": comp}, nil
}
