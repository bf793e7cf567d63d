// Package conformance is the fixture catalog the official MCP conformance
// suite (@modelcontextprotocol/conformance) calls by fixed names: test_*
// tools, test:// resources and test_* prompts. It exists to prove package
// mcp against the suite and real SDK clients; it is not part of synaptic.
package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/synaptic-graph/synaptic/mcp"
)

// WatchedURI is the subscribable resource; Run announces an update to it
// every few seconds.
const WatchedURI = "test://watched-resource"

// Minimal media from the suite's own fixture: a 1x1 PNG and a silent WAV.
var (
	imagePNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	audioWAV, _ = base64.StdEncoding.DecodeString("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")
)

// Fixture is the conformance catalog plus the server serving it.
type Fixture struct {
	Server *mcp.Server

	mu          sync.Mutex
	extraTool   bool
	extraPrompt bool
}

// New returns a fixture whose Server serves the conformance catalog.
func New() *Fixture {
	f := &Fixture{}
	f.Server = mcp.NewServer(mcp.Implementation{Name: "synaptic-mcp-conformance", Version: "1.0.0"}, &mcp.ServerOptions{
		Instructions: "Conformance fixture for package mcp.",
		Catalog: mcp.Catalog{
			Tools:             f.tools,
			CallTool:          f.callTool,
			Resources:         resources,
			ResourceTemplates: templates,
			ReadResource:      readResource,
			Prompts:           f.prompts,
			GetPrompt:         getPrompt,
			Complete:          complete,
		},
	})
	return f
}

// Run announces an update of WatchedURI every interval until ctx is done.
func (f *Fixture) Run(ctx context.Context, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			f.Server.NotifyResourceUpdated(WatchedURI)
		}
	}
}

func tool(name, desc string, schema string) mcp.Tool {
	t := mcp.Tool{Name: name, Description: desc}
	if schema != "" {
		t.InputSchema = json.RawMessage(schema)
	}
	return t
}

const jsonSchema202012 = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"$defs": {"address": {"$anchor": "addressDef", "type": "object",
		"properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
	"properties": {
		"name": {"type": "string"},
		"address": {"$ref": "#/$defs/address"},
		"contactMethod": {"type": "string", "enum": ["phone", "email"]},
		"phone": {"type": "string"},
		"email": {"type": "string"}
	},
	"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
	"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
	"then": {"required": ["phone"]},
	"else": {"required": ["email"]},
	"additionalProperties": false
}`

func (f *Fixture) tools(context.Context) []mcp.Tool {
	ts := []mcp.Tool{
		tool("test_simple_text", "Returns simple text content", ""),
		tool("test_image_content", "Returns image content", ""),
		tool("test_audio_content", "Returns audio content", ""),
		tool("test_embedded_resource", "Returns an embedded resource", ""),
		tool("test_multiple_content_types", "Returns text, image and resource content", ""),
		tool("test_tool_with_logging", "Emits log messages while running", ""),
		tool("test_tool_with_progress", "Reports progress while running", ""),
		tool("test_error_handling", "Always fails with a tool error", ""),
		tool("test_sampling", "Asks the client to sample an LLM (legacy)", `{"type":"object","properties":{"prompt":{"type":"string"}},"required":["prompt"]}`),
		tool("test_elicitation", "Asks the user for input (legacy)", `{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
		tool("test_elicitation_sep1034_defaults", "Elicitation with default values (SEP-1034)", ""),
		tool("test_elicitation_sep1330_enums", "Elicitation with enum schemas (SEP-1330)", ""),
		tool("json_schema_2020_12_tool", "Tool whose input schema uses JSON Schema 2020-12 features", jsonSchema202012),
		tool("test_x_mcp_header", "Mirrors its region argument into the Mcp-Param-Region header (SEP-2243)",
			`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"level":{"type":"integer"}}}`),
		tool("test_missing_capability", "Requires the client sampling capability", ""),
		tool("test_streaming_elicitation", "Returns a plain result; its stream carries no requests", ""),
		tool("test_logging_tool", "Logs only when the request set a log level", ""),
		tool("test_trigger_tool_change", "Adds a tool and announces the list change", ""),
		tool("test_trigger_prompt_change", "Adds a prompt and announces the list change", ""),
		tool("test_input_required_result_elicitation", "Asks for the caller's name in band", ""),
		tool("test_input_required_result_sampling", "Asks for an LLM completion in band", ""),
		tool("test_input_required_result_list_roots", "Asks for the client roots in band", ""),
		tool("test_input_required_result_request_state", "Round-trips requestState with an elicitation", ""),
		tool("test_input_required_result_multiple_inputs", "Asks for three inputs in one round", ""),
		tool("test_input_required_result_multi_round", "Two input rounds before completing", ""),
		tool("test_input_required_result_tampered_state", "Rejects a modified requestState", ""),
		tool("test_input_required_result_capabilities", "Asks only for inputs the client can give", ""),
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.extraTool {
		ts = append(ts, tool("transient_tool", "Added by test_trigger_tool_change", ""))
	}
	return ts
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent(s)}}
}

func (f *Fixture) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c := req.Caller
	switch req.Name {
	case "test_simple_text", "transient_tool":
		return text("This is a simple text response for testing."), nil
	case "test_image_content":
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.ImageContent(imagePNG, "image/png")}}, nil
	case "test_audio_content":
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.AudioContent(audioWAV, "audio/wav")}}, nil
	case "test_embedded_resource":
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.EmbeddedResource(mcp.ResourceContents{
			URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."})}}, nil
	case "test_multiple_content_types":
		return &mcp.CallToolResult{Content: []mcp.Content{
			mcp.TextContent("Multiple content types test:"),
			mcp.ImageContent(imagePNG, "image/png"),
			mcp.EmbeddedResource(mcp.ResourceContents{URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`}),
		}}, nil
	case "test_tool_with_logging":
		for i, m := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
			if i > 0 {
				sleep(ctx, 50*time.Millisecond)
			}
			c.Log("info", "", m)
		}
		return text("Tool with logging executed successfully"), nil
	case "test_tool_with_progress":
		for _, p := range []float64{0, 50, 100} {
			c.Progress(p, 100, fmt.Sprintf("Completed step %.0f of 100", p))
			sleep(ctx, 50*time.Millisecond)
		}
		var token any
		_ = json.Unmarshal(c.ProgressToken(), &token)
		return text(fmt.Sprint(token)), nil
	case "test_error_handling":
		return nil, fmt.Errorf("This tool intentionally returns an error for testing")
	case "test_sampling":
		var a struct{ Prompt string }
		_ = json.Unmarshal(req.Arguments, &a)
		raw, err := c.Request(ctx, "sampling/createMessage", map[string]any{
			"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": a.Prompt}}},
			"maxTokens": 100,
		})
		if err != nil {
			return nil, fmt.Errorf("sampling failed: %w", err)
		}
		return text("LLM response: " + samplingText(raw)), nil
	case "test_elicitation":
		var a struct{ Message string }
		_ = json.Unmarshal(req.Arguments, &a)
		return elicit(ctx, c, a.Message, map[string]any{
			"type":       "object",
			"properties": map[string]any{"username": map[string]any{"type": "string", "description": "Your preferred username"}},
			"required":   []string{"username"},
		}, "User response")
	case "test_elicitation_sep1034_defaults":
		return elicit(ctx, c, "Test defaults for primitives", map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
				"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
				"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
				"status":   map[string]any{"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
				"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
			},
		}, "Elicitation completed")
	case "test_elicitation_sep1330_enums":
		titled := []map[string]any{{"const": "value1", "title": "First Option"}, {"const": "value2", "title": "Second Option"}, {"const": "value3", "title": "Third Option"}}
		return elicit(ctx, c, "Test enum schemas", map[string]any{
			"type": "object",
			"properties": map[string]any{
				"untitledSingle": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}},
				"titledSingle":   map[string]any{"type": "string", "oneOf": titled},
				"legacyEnum":     map[string]any{"type": "string", "enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"Option One", "Option Two", "Option Three"}},
				"untitledMulti":  map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}}},
				"titledMulti":    map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"type": "string", "anyOf": titled}},
			},
		}, "Elicitation completed")
	case "json_schema_2020_12_tool":
		return text("JSON Schema 2020-12 tool called with: " + string(req.Arguments)), nil
	case "test_x_mcp_header":
		var a struct{ Region string }
		_ = json.Unmarshal(req.Arguments, &a)
		return text("region=" + a.Region), nil
	case "test_missing_capability":
		if !c.HasCapability("sampling") {
			return nil, mcp.MissingCapabilityError(map[string]any{"sampling": map[string]any{}})
		}
		return text("Client declared the sampling capability; tool executed."), nil
	case "test_streaming_elicitation":
		return text("stream observed: result frames only, no top-level requests"), nil
	case "test_logging_tool":
		c.Log("info", "", "test_logging_tool executed")
		return text("Log attempted; it is sent only when the request set a log level."), nil
	case "test_trigger_tool_change":
		f.mu.Lock()
		f.extraTool = true
		f.mu.Unlock()
		f.Server.NotifyListChanged(mcp.ToolList)
		return text("tools_list_changed published"), nil
	case "test_trigger_prompt_change":
		f.mu.Lock()
		f.extraPrompt = true
		f.mu.Unlock()
		f.Server.NotifyListChanged(mcp.PromptList)
		return text("prompts_list_changed published"), nil
	}
	if strings.HasPrefix(req.Name, "test_input_required_result_") {
		return inputRequiredTool(req)
	}
	return nil, fmt.Errorf("tool %s is listed but not implemented", req.Name)
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// elicit asks the client (legacy) for input and reports its answer.
func elicit(ctx context.Context, c *mcp.Caller, message string, schema map[string]any, label string) (*mcp.CallToolResult, error) {
	raw, err := c.Request(ctx, "elicitation/create", map[string]any{"message": message, "requestedSchema": schema})
	if err != nil {
		return nil, fmt.Errorf("elicitation failed: %w", err)
	}
	var r struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &r)
	return text(fmt.Sprintf("%s: action=%s, content=%s", label, r.Action, r.Content)), nil
}

// samplingText extracts the first text of a sampling result, whose content
// is one block or (newer clients) an array of blocks.
func samplingText(raw json.RawMessage) string {
	var r struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return ""
	}
	type block struct {
		Type, Text string
	}
	var one block
	if json.Unmarshal(r.Content, &one) == nil && one.Type != "" {
		return one.Text
	}
	var many []block
	_ = json.Unmarshal(r.Content, &many)
	for _, b := range many {
		if b.Type == "text" {
			return b.Text
		}
	}
	return "(non-text response)"
}

// accepted returns the content of an accepted elicitation response.
func accepted(r mcp.Retry, key string) map[string]any {
	var e struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if raw, ok := r.InputResponses[key]; !ok || json.Unmarshal(raw, &e) != nil || e.Action != "accept" {
		return nil
	}
	return e.Content
}

func elicitation(message string, props map[string]any, required ...string) mcp.InputRequest {
	return mcp.InputRequest{Method: "elicitation/create", Params: map[string]any{
		"message":         message,
		"requestedSchema": map[string]any{"type": "object", "properties": props, "required": required},
	}}
}

func sampling(prompt string, maxTokens int) mcp.InputRequest {
	return mcp.InputRequest{Method: "sampling/createMessage", Params: map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": prompt}}},
		"maxTokens": maxTokens,
	}}
}

var (
	askName  = elicitation("What is your name?", map[string]any{"name": map[string]any{"type": "string"}}, "name")
	askRoots = mcp.InputRequest{Method: "roots/list"}
)

func needs(state string, reqs map[string]mcp.InputRequest) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequired: mcp.InputRequired{InputRequests: reqs, RequestState: state}}
}

// inputRequiredTool implements the multi-round-trip (SEP-2322) tools.
func inputRequiredTool(req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r := req.Retry
	_, hasSampling := r.InputResponses["capital_question"]
	switch strings.TrimPrefix(req.Name, "test_input_required_result_") {
	case "elicitation":
		if name, _ := accepted(r, "user_name")["name"].(string); name != "" {
			return text("Hello, " + name + "!"), nil
		}
		return needs("", map[string]mcp.InputRequest{"user_name": askName}), nil
	case "sampling":
		if hasSampling {
			return text("Sampling response: " + samplingText(r.InputResponses["capital_question"])), nil
		}
		return needs("", map[string]mcp.InputRequest{"capital_question": sampling("What is the capital of France?", 100)}), nil
	case "list_roots":
		if raw, ok := r.InputResponses["client_roots"]; ok {
			var roots struct {
				Roots []struct{ URI string } `json:"roots"`
			}
			_ = json.Unmarshal(raw, &roots)
			return text(fmt.Sprintf("Client exposed %d root(s)", len(roots.Roots))), nil
		}
		return needs("", map[string]mcp.InputRequest{"client_roots": askRoots}), nil
	case "request_state", "tampered_state":
		// The server rejects modified state before this handler runs.
		if accepted(r, "confirm") != nil && r.RequestState != "" {
			return text("state-ok: requestState received and confirmation accepted"), nil
		}
		return needs(req.Name, map[string]mcp.InputRequest{
			"confirm": elicitation("Please confirm", map[string]any{"ok": map[string]any{"type": "boolean"}}, "ok"),
		}), nil
	case "multiple_inputs":
		name, _ := accepted(r, "user_name")["name"].(string)
		_, hasGreeting := r.InputResponses["greeting"]
		_, hasRoots := r.InputResponses["client_roots"]
		if name != "" && hasGreeting && hasRoots {
			return text(samplingText(r.InputResponses["greeting"]) + " " + name), nil
		}
		return needs("multiple_inputs", map[string]mcp.InputRequest{
			"user_name": askName, "greeting": sampling("Generate a greeting", 50), "client_roots": askRoots,
		}), nil
	case "multi_round":
		switch {
		case r.RequestState == "":
			return needs("round=1", map[string]mcp.InputRequest{
				"step1": elicitation("Step 1: What is your name?", map[string]any{"name": map[string]any{"type": "string"}}, "name"),
			}), nil
		case r.RequestState == "round=1":
			name, _ := accepted(r, "step1")["name"].(string)
			if name == "" {
				name = "unknown"
			}
			return needs("round=2;name="+name, map[string]mcp.InputRequest{
				"step2": elicitation("Step 2: What is your favorite color?", map[string]any{"color": map[string]any{"type": "string"}}, "color"),
			}), nil
		default:
			color, _ := accepted(r, "step2")["color"].(string)
			if color == "" {
				color = "unknown"
			}
			return text(fmt.Sprintf("Multi-round complete: %s likes %s", strings.TrimPrefix(r.RequestState, "round=2;name="), color)), nil
		}
	case "capabilities":
		if len(r.InputResponses) > 0 {
			return text("Capability-aware input requests fulfilled"), nil
		}
		c, reqs := req.Caller, map[string]mcp.InputRequest{}
		if c.HasCapability("elicitation") {
			reqs["user_name"] = askName
		}
		if c.HasCapability("sampling") {
			reqs["greeting"] = sampling("Generate a short greeting", 50)
		}
		if c.HasCapability("roots") {
			reqs["client_roots"] = askRoots
		}
		if len(reqs) == 0 {
			return text("No declared client capability supports an in-band input request"), nil
		}
		return needs("", reqs), nil
	}
	return nil, fmt.Errorf("unknown input-required tool %s", req.Name)
}

func resources(context.Context) []mcp.Resource {
	return []mcp.Resource{
		{URI: "test://static-text", Name: "static-text", Description: "A static text resource", MIMEType: "text/plain"},
		{URI: "test://static-binary", Name: "static-binary", Description: "A static binary resource (PNG image)", MIMEType: "image/png"},
		{URI: WatchedURI, Name: "watched-resource", Description: "A subscribable resource that changes periodically", MIMEType: "text/plain"},
	}
}

func templates(context.Context) []mcp.ResourceTemplate {
	return []mcp.ResourceTemplate{{URITemplate: "test://template/{id}/data", Name: "template", Description: "A templated JSON resource", MIMEType: "application/json"}}
}

func readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	one := func(rc mcp.ResourceContents) (*mcp.ReadResourceResult, error) {
		rc.URI = req.URI
		return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{rc}}, nil
	}
	switch req.URI {
	case "test://static-text":
		return one(mcp.ResourceContents{MIMEType: "text/plain", Text: "This is the content of the static text resource."})
	case "test://static-binary":
		return one(mcp.ResourceContents{MIMEType: "image/png", Blob: imagePNG})
	case WatchedURI:
		return one(mcp.ResourceContents{MIMEType: "text/plain", Text: "Watched resource content"})
	}
	if rest, ok := strings.CutPrefix(req.URI, "test://template/"); ok {
		if id, ok := strings.CutSuffix(rest, "/data"); ok && id != "" && !strings.Contains(id, "/") {
			b, _ := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
			return one(mcp.ResourceContents{MIMEType: "application/json", Text: string(b)})
		}
	}
	return nil, fmt.Errorf("%w: %s", mcp.ErrResourceNotFound, req.URI)
}

func (f *Fixture) prompts(context.Context) []mcp.Prompt {
	ps := []mcp.Prompt{
		{Name: "test_simple_prompt", Title: "Simple Test Prompt", Description: "A simple prompt without arguments"},
		{Name: "test_prompt_with_arguments", Title: "Prompt With Arguments", Description: "A prompt with required arguments", Arguments: []mcp.PromptArgument{
			{Name: "arg1", Description: "First test argument", Required: true},
			{Name: "arg2", Description: "Second test argument", Required: true},
		}},
		{Name: "test_prompt_with_embedded_resource", Title: "Prompt With Embedded Resource", Description: "A prompt that embeds a resource", Arguments: []mcp.PromptArgument{
			{Name: "resourceUri", Description: "URI of the resource to embed", Required: true},
		}},
		{Name: "test_prompt_with_image", Title: "Prompt With Image", Description: "A prompt that includes an image"},
		{Name: "test_input_required_result_prompt", Description: "Asks for context in band before rendering"},
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.extraPrompt {
		ps = append(ps, mcp.Prompt{Name: "transient_prompt", Description: "Added by test_trigger_prompt_change"})
	}
	return ps
}

func user(c mcp.Content) mcp.PromptMessage { return mcp.PromptMessage{Role: "user", Content: c} }

func getPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	switch req.Name {
	case "test_simple_prompt", "transient_prompt":
		return &mcp.GetPromptResult{Description: "A simple test prompt", Messages: []mcp.PromptMessage{user(mcp.TextContent("This is a simple prompt for testing."))}}, nil
	case "test_prompt_with_arguments":
		return &mcp.GetPromptResult{Description: "A prompt with arguments", Messages: []mcp.PromptMessage{
			user(mcp.TextContent(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", req.Arguments["arg1"], req.Arguments["arg2"]))),
		}}, nil
	case "test_prompt_with_embedded_resource":
		return &mcp.GetPromptResult{Description: "A prompt with an embedded resource", Messages: []mcp.PromptMessage{
			user(mcp.EmbeddedResource(mcp.ResourceContents{URI: req.Arguments["resourceUri"], MIMEType: "text/plain", Text: "Embedded resource content for testing."})),
			user(mcp.TextContent("Please process the embedded resource above.")),
		}}, nil
	case "test_prompt_with_image":
		return &mcp.GetPromptResult{Description: "A prompt with an image", Messages: []mcp.PromptMessage{
			user(mcp.ImageContent(imagePNG, "image/png")),
			user(mcp.TextContent("Please analyze the image above.")),
		}}, nil
	case "test_input_required_result_prompt":
		if ctx, _ := accepted(req.Retry, "user_context")["context"].(string); ctx != "" {
			return &mcp.GetPromptResult{Description: "A prompt with elicited context", Messages: []mcp.PromptMessage{user(mcp.TextContent("Context: " + ctx))}}, nil
		}
		return &mcp.GetPromptResult{InputRequired: mcp.InputRequired{InputRequests: map[string]mcp.InputRequest{
			"user_context": elicitation("Please provide context for the prompt", map[string]any{"context": map[string]any{"type": "string"}}, "context"),
		}}}, nil
	}
	return nil, fmt.Errorf("prompt %s is listed but not implemented", req.Name)
}

func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	var out []string
	for _, v := range []string{"hello", "help", "world"} {
		if strings.HasPrefix(v, req.Argument.Value) {
			out = append(out, v)
		}
	}
	return &mcp.CompleteResult{Values: out, Total: len(out)}, nil
}
