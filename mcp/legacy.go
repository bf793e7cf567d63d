package mcp

import (
	"context"
	"encoding/json"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// handleLegacy serves one request of the initialize-handshake era.
func (s *Server) handleLegacy(ctx context.Context, in *inbound) (any, error) {
	se := in.sess
	var meta struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = jsonrpc.Unmarshal(in.msg.Params, &meta)
	se.mu.Lock()
	caller := &Caller{
		ProtocolVersion: se.version,
		Info:            se.info,
		Capabilities:    se.caps,
		out:             in.out,
		sess:            se,
		logLevel:        se.level,
	}
	se.mu.Unlock()
	if caller.Capabilities == nil {
		caller.Capabilities = json.RawMessage("{}")
	}
	if t := meta.Meta.ProgressToken; len(t) > 0 && string(t) != "null" {
		caller.progressToken = t
	}

	switch in.msg.Method {
	case "initialize":
		return s.initialize(in)
	case "ping":
		return struct{}{}, nil
	case "logging/setLevel":
		var p struct {
			Level string `json:"level"`
		}
		if err := decodeParams(in.msg.Params, &p); err != nil {
			return nil, err
		}
		n, ok := levelRank[p.Level]
		if !ok {
			return nil, invalidParams("unknown log level %q", p.Level)
		}
		se.mu.Lock()
		se.logLevel = n
		se.mu.Unlock()
		return struct{}{}, nil
	case "resources/subscribe", "resources/unsubscribe":
		if s.opts.Catalog.ReadResource == nil || se.stdio {
			return nil, methodNotFound(in.msg.Method)
		}
		var p struct {
			URI string `json:"uri"`
		}
		if err := decodeParams(in.msg.Params, &p); err != nil {
			return nil, err
		}
		if p.URI == "" {
			return nil, invalidParams("missing uri")
		}
		if !se.stored {
			return nil, &Error{Code: CodeInvalidRequest, Message: "resource subscriptions need a session: send initialize first and then Mcp-Session-Id"}
		}
		if in.msg.Method == "resources/subscribe" {
			if err := s.subscribe(ctx, se, p.URI, caller); err != nil {
				return nil, err
			}
			return struct{}{}, nil
		}
		se.mu.Lock()
		delete(se.subs, p.URI)
		se.mu.Unlock()
		return struct{}{}, nil
	case "server/discover", "subscriptions/listen":
		return nil, methodNotFound(in.msg.Method)
	}
	return s.handleFeature(ctx, in.msg.Method, in.msg.Params, caller)
}

// initialize negotiates a legacy session: echo a supported requested
// version, otherwise offer the newest legacy one.
func (s *Server) initialize(in *inbound) (any, error) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      *Implementation `json:"clientInfo"`
	}
	if err := decodeParams(in.msg.Params, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion == "" {
		return nil, invalidParams("initialize: missing protocolVersion")
	}
	version := p.ProtocolVersion
	if !isLegacyVersion(version) {
		version = legacyVersions[0]
	}
	se := in.sess
	se.mu.Lock()
	se.version, se.info, se.caps = version, p.ClientInfo, p.Capabilities
	se.initialized = true
	se.mu.Unlock()
	r := map[string]any{
		"protocolVersion": version,
		"capabilities":    s.capabilities(version, se.stdio),
		"serverInfo":      s.info,
	}
	if s.opts.Instructions != "" {
		r["instructions"] = s.opts.Instructions
	}
	return r, nil
}

// capabilities advertises what the catalog and era support. Legacy stdio
// gets no resource subscriptions (there is no channel to push them on
// besides the one in use, and the spec of the product says so).
func (s *Server) capabilities(version string, stdio bool) map[string]any {
	c, caps := s.opts.Catalog, map[string]any{}
	legacy := isLegacyVersion(version)
	if c.Tools != nil && c.CallTool != nil {
		caps["tools"] = map[string]any{"listChanged": true}
	}
	if c.ReadResource != nil {
		r := map[string]any{"listChanged": true}
		if !legacy || !stdio {
			r["subscribe"] = true
		}
		caps["resources"] = r
	}
	if c.Prompts != nil && c.GetPrompt != nil {
		caps["prompts"] = map[string]any{"listChanged": true}
	}
	if c.Complete != nil && version != Version20241105 {
		caps["completions"] = map[string]any{}
	}
	if legacy {
		caps["logging"] = map[string]any{}
	}
	return caps
}
