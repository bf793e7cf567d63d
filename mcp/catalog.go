package mcp

import (
	"context"
	"encoding/json"
	"errors"
)

// Catalog is everything the server serves. Each field is optional: a nil
// func means the feature is absent, and the server neither advertises it
// nor answers its methods. The funcs are called concurrently and must be
// safe for that; list funcs return the full, current list (the server pages
// it) and are called on every list and call, so a catalog may change at
// runtime (then call Server.NotifyListChanged).
type Catalog struct {
	// Tools lists the tools in a stable order. Both Tools and CallTool are
	// needed to serve tools.
	Tools func(ctx context.Context) []Tool
	// CallTool runs a tool. The server has already checked the name is
	// listed and the arguments match its InputSchema. A returned *Error is
	// a protocol error; any other error becomes a result with IsError set.
	CallTool func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error)

	// Resources lists fixed resources; ResourceTemplates lists templates.
	Resources         func(ctx context.Context) []Resource
	ResourceTemplates func(ctx context.Context) []ResourceTemplate
	// ReadResource reads a fixed or templated URI. Return an error wrapping
	// ErrResourceNotFound for an unknown URI: the server answers with the
	// era's resource-not-found error.
	ReadResource func(ctx context.Context, req *ReadResourceRequest) (*ReadResourceResult, error)

	// Prompts lists prompts; GetPrompt renders one. The server has checked
	// the name is listed and required arguments are present.
	Prompts   func(ctx context.Context) []Prompt
	GetPrompt func(ctx context.Context, req *GetPromptRequest) (*GetPromptResult, error)

	// Complete suggests values for a prompt or resource-template argument.
	Complete func(ctx context.Context, req *CompleteRequest) (*CompleteResult, error)

	// Subscribed, when set, is told the URIs a client has just subscribed
	// to (resources/subscribe, or those a subscriptions/listen took), before
	// the client is answered: a catalog that notifies only when a
	// resource's content changes records what it reads now.
	Subscribed func(ctx context.Context, uris []string)
}

// ErrResourceNotFound is wrapped by ReadResource errors for unknown URIs.
var ErrResourceNotFound = errors.New("resource not found")

// CallToolRequest is one tools/call.
type CallToolRequest struct {
	Name      string
	Arguments json.RawMessage // a JSON object; {} when the client sent none
	Retry
	Caller *Caller
}

// CallToolResult is a tool's answer. IsError marks a tool-level failure
// the model should see, as opposed to a protocol error.
type CallToolResult struct {
	Content           []Content
	StructuredContent any
	IsError           bool
	Meta              map[string]any // the result's _meta, when not empty
	InputRequired
}

// ReadResourceRequest is one resources/read.
type ReadResourceRequest struct {
	URI string
	Retry
	Caller *Caller
}

// ReadResourceResult holds a resource's contents.
type ReadResourceResult struct {
	Contents []ResourceContents
	InputRequired
}

// GetPromptRequest is one prompts/get.
type GetPromptRequest struct {
	Name      string
	Arguments map[string]string
	Retry
	Caller *Caller
}

// GetPromptResult is a rendered prompt.
type GetPromptResult struct {
	Description string
	Messages    []PromptMessage
	InputRequired
}

// CompleteRequest is one completion/complete. Ref.Type is "ref/prompt"
// (Ref.Name set) or "ref/resource" (Ref.URI set).
type CompleteRequest struct {
	Ref struct {
		Type string `json:"type"`
		Name string `json:"name,omitempty"`
		URI  string `json:"uri,omitempty"`
	}
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	// Context holds already-resolved arguments, when the client sent them.
	Context map[string]string
	Caller  *Caller
}

// CompleteResult lists at most 100 suggested values; Total and HasMore
// describe any that did not fit.
type CompleteResult struct {
	Values  []string
	Total   int
	HasMore bool
}
