package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/mcp"
)

// toolset is what MCP's tools/list and tools/call are answered from: the
// full catalog or its compact view.
type toolset interface {
	Tools() []tools.Tool
	Call(ctx context.Context, name string, args json.RawMessage) (tools.Result, error)
}

// catalogModeKey carries a request's catalog mode (HTTP ?catalog=…).
type catalogModeKey struct{}

func withCatalogMode(ctx context.Context, m tools.CatalogMode) context.Context {
	return context.WithValue(ctx, catalogModeKey{}, m)
}

// mcpCatalog adapts the protocol-neutral tool catalog to the MCP server.
// This is the only place the two meet. mode is the default catalog; a
// request context can ask for the other (withCatalogMode).
func mcpCatalog(c *tools.Catalog, mode tools.CatalogMode) mcp.Catalog {
	compact := c.Compact()
	pick := func(ctx context.Context) toolset {
		m, ok := ctx.Value(catalogModeKey{}).(tools.CatalogMode)
		if !ok {
			m = mode
		}
		if m == tools.CompactCatalog {
			return compact
		}
		return c
	}
	return mcp.Catalog{
		Tools: func(ctx context.Context) []mcp.Tool {
			var out []mcp.Tool
			for _, t := range pick(ctx).Tools() {
				a := t.Annotations
				out = append(out, mcp.Tool{
					Name: t.Name, Title: t.Title, Description: t.Description,
					InputSchema: t.InputSchema, OutputSchema: t.OutputSchema,
					Annotations: &mcp.ToolAnnotations{
						Title:           t.Title,
						ReadOnlyHint:    &a.ReadOnlyHint,
						DestructiveHint: &a.DestructiveHint,
						IdempotentHint:  &a.IdempotentHint,
						OpenWorldHint:   &a.OpenWorldHint,
					},
				})
			}
			return out
		},
		CallTool: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := pick(ctx).Call(ctx, req.Name, req.Arguments)
			var ae *tools.ArgsError
			switch {
			case errors.Is(err, tools.ErrUnknownTool):
				return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "unknown tool: " + req.Name}
			case errors.As(err, &ae):
				// The same channel as the MCP server's own schema check:
				// bad arguments are a tool error the model can read and fix
				// (MCP 2025-11-25, SEP-1303), not a protocol error.
				return &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent(ae.Error())}, IsError: true}, nil
			case err != nil:
				return nil, err
			}
			return &mcp.CallToolResult{
				Content:           []mcp.Content{mcp.TextContent(res.Text)},
				StructuredContent: res.Structured,
				IsError:           res.IsError,
				Meta:              res.Meta,
			}, nil
		},
		Resources: func(context.Context) []mcp.Resource {
			var out []mcp.Resource
			for _, r := range c.Resources() {
				out = append(out, mcp.Resource{URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType})
			}
			return out
		},
		ResourceTemplates: func(context.Context) []mcp.ResourceTemplate {
			var out []mcp.ResourceTemplate
			for _, r := range c.Templates() {
				out = append(out, mcp.ResourceTemplate{URITemplate: r.URITemplate, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType})
			}
			return out
		},
		ReadResource: func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			text, mime, err := c.ReadResource(ctx, req.URI)
			if errors.Is(err, tools.ErrResourceNotFound) {
				return nil, fmt.Errorf("%w: %v", mcp.ErrResourceNotFound, err)
			}
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{{URI: req.URI, MIMEType: mime, Text: text}}}, nil
		},
		Prompts: func(context.Context) []mcp.Prompt {
			var out []mcp.Prompt
			for _, p := range c.Prompts() {
				mp := mcp.Prompt{Name: p.Name, Description: p.Description}
				for _, a := range p.Arguments {
					mp.Arguments = append(mp.Arguments, mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
				}
				out = append(out, mp)
			}
			return out
		},
		GetPrompt: func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			p, msgs, err := c.GetPrompt(ctx, req.Name, req.Arguments)
			if errors.Is(err, tools.ErrUnknownPrompt) {
				return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "unknown prompt: " + req.Name}
			}
			if err != nil {
				return nil, err
			}
			res := &mcp.GetPromptResult{Description: p.Description}
			for _, m := range msgs {
				res.Messages = append(res.Messages, mcp.PromptMessage{Role: m.Role, Content: mcp.TextContent(m.Text)})
			}
			return res, nil
		},
		Complete: func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			ref := tools.Ref{Kind: strings.TrimPrefix(req.Ref.Type, "ref/"), Name: req.Ref.Name}
			if ref.Kind == "resource" {
				ref.Name = req.Ref.URI
			}
			vals, total, more := c.Complete(ctx, ref, req.Argument.Name, req.Argument.Value)
			return &mcp.CompleteResult{Values: vals, Total: total, HasMore: more}, nil
		},
	}
}
