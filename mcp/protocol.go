package mcp

import (
	"encoding/base64"
	"encoding/json"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// Protocol versions the server speaks, newest first. The first is the
// stateless 2026-07-28 era; the rest are the legacy initialize-handshake era.
const (
	Version20260728 = "2026-07-28"
	Version20251125 = "2025-11-25"
	Version20250618 = "2025-06-18"
	Version20250326 = "2025-03-26"
	Version20241105 = "2024-11-05"
)

var (
	modernVersions    = []string{Version20260728}
	legacyVersions    = []string{Version20251125, Version20250618, Version20250326, Version20241105}
	supportedVersions = append(append([]string{}, modernVersions...), legacyVersions...)
)

func isModernVersion(v string) bool { return contains(modernVersions, v) }
func isLegacyVersion(v string) bool { return contains(legacyVersions, v) }

func contains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

// JSON-RPC and MCP error codes, re-exported for handlers that return an *Error.
const (
	CodeParseError                 = jsonrpc.CodeParseError
	CodeInvalidRequest             = jsonrpc.CodeInvalidRequest
	CodeMethodNotFound             = jsonrpc.CodeMethodNotFound
	CodeInvalidParams              = jsonrpc.CodeInvalidParams
	CodeInternalError              = jsonrpc.CodeInternalError
	CodeResourceNotFound           = jsonrpc.CodeResourceNotFound
	CodeHeaderMismatch             = jsonrpc.CodeHeaderMismatch
	CodeMissingClientCapability    = jsonrpc.CodeMissingClientCapability
	CodeUnsupportedProtocolVersion = jsonrpc.CodeUnsupportedProtocolVersion
)

// Error is a JSON-RPC error. A handler returns one (possibly wrapped) to
// answer with a protocol error instead of the default mapping.
type Error = jsonrpc.Error

// MissingCapabilityError is the -32021 error a handler returns when the
// request needs a client capability the client did not declare, e.g.
// MissingCapabilityError(map[string]any{"sampling": map[string]any{}}).
func MissingCapabilityError(required map[string]any) *Error {
	return &Error{
		Code:    CodeMissingClientCapability,
		Message: "missing required client capability",
		Data:    map[string]any{"requiredCapabilities": required},
	}
}

// Implementation names a client or server.
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
}

// Tool describes one tool. InputSchema defaults to an object schema with no
// properties; the server validates call arguments against it.
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
}

// ToolAnnotations are hints about a tool's behavior. Nil pointers mean
// "unspecified" (the spec's defaults then apply).
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Resource is a fixed, readable resource.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        *int64 `json:"size,omitempty"`
}

// ResourceTemplate advertises a family of resources by RFC 6570 template.
// Reads of matching URIs go to the same Catalog.ReadResource.
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// ResourceContents is the body of one resource: Text, or Blob when non-nil.
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
}

// MarshalJSON writes exactly one of text and blob (blob base64-encoded).
func (c ResourceContents) MarshalJSON() ([]byte, error) {
	w := map[string]any{"uri": c.URI}
	if c.MIMEType != "" {
		w["mimeType"] = c.MIMEType
	}
	if c.Blob != nil {
		w["blob"] = base64.StdEncoding.EncodeToString(c.Blob)
	} else {
		w["text"] = c.Text
	}
	return json.Marshal(w)
}

// Content is one content block of a tool result or prompt message. Build it
// with TextContent, ImageContent, AudioContent, EmbeddedResource or
// ResourceLink.
type Content struct {
	Type        string
	Text        string            // text
	Data        []byte            // image, audio (base64 on the wire)
	MIMEType    string            // image, audio, resource_link
	Resource    *ResourceContents // resource
	URI         string            // resource_link
	Name        string            // resource_link
	Description string            // resource_link
}

// TextContent is a text block.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// ImageContent is an image block of raw bytes.
func ImageContent(data []byte, mimeType string) Content {
	return Content{Type: "image", Data: data, MIMEType: mimeType}
}

// AudioContent is an audio block of raw bytes.
func AudioContent(data []byte, mimeType string) Content {
	return Content{Type: "audio", Data: data, MIMEType: mimeType}
}

// EmbeddedResource is a block carrying a resource's contents inline.
func EmbeddedResource(rc ResourceContents) Content { return Content{Type: "resource", Resource: &rc} }

// ResourceLink is a block pointing at a resource by URI.
func ResourceLink(uri, name, mimeType string) Content {
	return Content{Type: "resource_link", URI: uri, Name: name, MIMEType: mimeType}
}

// MarshalJSON writes the fields the block's type defines, and no others.
func (c Content) MarshalJSON() ([]byte, error) {
	w := map[string]any{"type": c.Type}
	switch c.Type {
	case "text":
		w["text"] = c.Text
	case "image", "audio":
		w["data"] = base64.StdEncoding.EncodeToString(c.Data)
		w["mimeType"] = c.MIMEType
	case "resource":
		if c.Resource != nil {
			w["resource"] = c.Resource
		}
	case "resource_link":
		w["uri"], w["name"] = c.URI, c.Name
		if c.MIMEType != "" {
			w["mimeType"] = c.MIMEType
		}
		if c.Description != "" {
			w["description"] = c.Description
		}
	}
	return json.Marshal(w)
}

// Prompt describes one prompt template.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt; the server rejects a
// prompts/get missing a Required one.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string  `json:"role"` // "user" or "assistant"
	Content Content `json:"content"`
}

// InputRequest asks the client for input in a 2026-07-28 multi-round-trip
// exchange: Method is elicitation/create, sampling/createMessage or
// roots/list, Params that request's params.
type InputRequest struct {
	Method string
	Params any
}

// MarshalJSON always writes params, as {} when nil (roots/list has none).
func (r InputRequest) MarshalJSON() ([]byte, error) {
	p := r.Params
	if p == nil {
		p = struct{}{}
	}
	return json.Marshal(struct {
		Method string `json:"method"`
		Params any    `json:"params"`
	}{r.Method, p})
}

// InputRequired is embedded in results that may ask the client for more
// input (2026-07-28 only). A result with InputRequests or RequestState set
// is sent as resultType "input_required" instead of its ordinary fields;
// the client retries the request with the answers and the state. The server
// integrity-protects RequestState, so handlers see exactly what they set.
type InputRequired struct {
	InputRequests map[string]InputRequest
	RequestState  string
}

func (r *InputRequired) needsInput() bool {
	return r != nil && (len(r.InputRequests) > 0 || r.RequestState != "")
}

// Retry is embedded in requests that can be retries of an input_required
// answer: the client's InputResponses (by key) and the RequestState the
// handler set, already verified.
type Retry struct {
	InputResponses map[string]json.RawMessage
	RequestState   string
}
