package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// Reserved _meta keys of 2026-07-28.
const (
	metaPrefix             = "io.modelcontextprotocol/"
	metaProtocolVersion    = metaPrefix + "protocolVersion"
	metaClientCapabilities = metaPrefix + "clientCapabilities"
	metaClientInfo         = metaPrefix + "clientInfo"
	metaLogLevel           = metaPrefix + "logLevel"
	metaServerInfo         = metaPrefix + "serverInfo"
	metaSubscriptionID     = metaPrefix + "subscriptionId"
	// metaConnection nests the three connection keys in one object, as some
	// published examples spell them; accepted as a fallback.
	metaConnection = metaPrefix + "connection"
)

// modernMeta is the per-request connection metadata of 2026-07-28.
type modernMeta struct {
	version       string
	caps          json.RawMessage
	info          *Implementation
	logLevel      int
	progressToken json.RawMessage
}

// requestMeta returns params._meta as a map (nil when absent or malformed).
func requestMeta(params json.RawMessage) map[string]json.RawMessage {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if len(params) == 0 || jsonrpc.Unmarshal(params, &p) != nil {
		return nil
	}
	return p.Meta
}

// hasModernMeta reports whether params carry any 2026-07-28 connection key,
// which is what marks a request as modern on stdio.
func hasModernMeta(params json.RawMessage) bool {
	m := requestMeta(params)
	for _, k := range []string{metaProtocolVersion, metaClientCapabilities, metaClientInfo, metaConnection} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// modernOnlyMethod reports methods that exist only in 2026-07-28, so a
// request for them is modern even when its _meta is missing.
func modernOnlyMethod(method string) bool {
	return method == "server/discover" || method == "subscriptions/listen"
}

// parseModernMeta validates the required connection metadata. It does not
// check that the version is supported (see checkModernVersion).
func parseModernMeta(params json.RawMessage) (*modernMeta, *Error) {
	if len(params) == 0 {
		return nil, invalidParams("missing params._meta: 2026-07-28 requests must carry %s and %s", metaProtocolVersion, metaClientCapabilities)
	}
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	if err := jsonrpc.Unmarshal(params, &p); err != nil || len(p.Meta) == 0 || string(p.Meta) == "null" {
		return nil, invalidParams("missing params._meta: 2026-07-28 requests must carry %s and %s", metaProtocolVersion, metaClientCapabilities)
	}
	var m map[string]json.RawMessage
	if err := jsonrpc.Unmarshal(p.Meta, &m); err != nil {
		return nil, invalidParams("params._meta must be an object")
	}
	var conn map[string]json.RawMessage
	_ = jsonrpc.Unmarshal(m[metaConnection], &conn)
	get := func(full, short string) json.RawMessage {
		if v, ok := m[full]; ok {
			return v
		}
		return conn[short]
	}
	md := &modernMeta{logLevel: levelOff}
	v := get(metaProtocolVersion, "protocolVersion")
	if v == nil || jsonrpc.Unmarshal(v, &md.version) != nil || md.version == "" {
		return nil, invalidParams("params._meta[%q] must be a non-empty string", metaProtocolVersion)
	}
	md.caps = get(metaClientCapabilities, "clientCapabilities")
	if !isJSONObject(md.caps) {
		return nil, invalidParams("params._meta[%q] must be an object", metaClientCapabilities)
	}
	if raw := get(metaClientInfo, "clientInfo"); raw != nil {
		var ci struct {
			Name    *string `json:"name"`
			Version *string `json:"version"`
		}
		if !isJSONObject(raw) || jsonrpc.Unmarshal(raw, &ci) != nil || ci.Name == nil || ci.Version == nil {
			return nil, invalidParams("params._meta[%q] must be an object with string name and version", metaClientInfo)
		}
		md.info = &Implementation{}
		_ = jsonrpc.Unmarshal(raw, md.info)
	}
	if raw, ok := m[metaLogLevel]; ok {
		var lvl string
		n, known := 0, false
		if jsonrpc.Unmarshal(raw, &lvl) == nil {
			n, known = levelRank[lvl]
		}
		if !known {
			return nil, invalidParams("params._meta[%q] must be a log level (debug ... emergency)", metaLogLevel)
		}
		md.logLevel = n
	}
	if raw, ok := m["progressToken"]; ok && string(raw) != "null" {
		md.progressToken = raw
	}
	return md, nil
}

// checkModernVersion answers -32022 for versions the modern path cannot serve.
func checkModernVersion(v string) *Error {
	if isModernVersion(v) {
		return nil
	}
	return &Error{
		Code:    CodeUnsupportedProtocolVersion,
		Message: "unsupported protocol version " + v + "; supported: " + strings.Join(supportedVersions, ", "),
		Data:    map[string]any{"supported": supportedVersions, "requested": v},
	}
}

func isJSONObject(raw json.RawMessage) bool {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

// cacheable lists the 2026-07-28 results that carry ttlMs and cacheScope.
var cacheable = map[string]bool{
	"server/discover": true, "tools/list": true, "prompts/list": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
}

// handleModern serves one 2026-07-28 request.
func (s *Server) handleModern(ctx context.Context, in *inbound) (any, error) {
	if in.meta == nil {
		md, e := parseModernMeta(in.msg.Params)
		if e != nil {
			return nil, e
		}
		if e := checkModernVersion(md.version); e != nil {
			return nil, e
		}
		in.meta = md
	}
	caller := &Caller{
		ProtocolVersion: in.meta.version,
		Info:            in.meta.info,
		Capabilities:    in.meta.caps,
		modern:          true,
		progressToken:   in.meta.progressToken,
		logLevel:        func() int { return in.meta.logLevel },
		out:             in.out,
	}
	method := in.msg.Method
	var res any
	var err error
	switch method {
	case "server/discover":
		res = s.discoverResult()
	case "subscriptions/listen":
		res, err = s.listen(ctx, in)
	default:
		res, err = s.handleFeature(ctx, method, in.msg.Params, caller)
	}
	if err != nil {
		return nil, err
	}
	return s.modernResult(res, cacheable[method])
}

// discoverResult describes the server to a modern client.
func (s *Server) discoverResult() map[string]any {
	r := map[string]any{
		"supportedVersions": supportedVersions,
		"capabilities":      s.capabilities(Version20260728, false),
	}
	if s.opts.Instructions != "" {
		r["instructions"] = s.opts.Instructions
	}
	return r
}

// modernResult adds what every 2026-07-28 result carries: resultType,
// server identity in _meta, and caching hints on cacheable results.
func (s *Server) modernResult(res any, cache bool) (json.RawMessage, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		m = map[string]any{}
	}
	if _, ok := m["resultType"]; !ok {
		m["resultType"] = "complete"
	}
	meta, _ := m["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[metaServerInfo] = s.info
	m["_meta"] = meta
	if cache && m["resultType"] == "complete" {
		m["ttlMs"] = s.opts.CacheTTL / time.Millisecond
		m["cacheScope"] = s.opts.CacheScope
	}
	return json.Marshal(m)
}

// listener is one open subscriptions/listen request.
type listener struct {
	id                             json.RawMessage
	tools, prompts, resourcesLists bool
	uris                           map[string]bool
	ch                             chan []byte
}

func (l *listener) wants(k ListKind) bool {
	switch k {
	case ToolList:
		return l.tools
	case PromptList:
		return l.prompts
	case ResourceList:
		return l.resourcesLists
	}
	return false
}

// listen serves subscriptions/listen: acknowledge first, then forward
// matching notifications until the client cancels (no response) or the
// server closes (a final result).
func (s *Server) listen(ctx context.Context, in *inbound) (any, error) {
	if in.msg.ID == nil {
		return nil, errNoResponse
	}
	var p struct {
		Notifications struct {
			ToolsListChanged      bool     `json:"toolsListChanged"`
			PromptsListChanged    bool     `json:"promptsListChanged"`
			ResourcesListChanged  bool     `json:"resourcesListChanged"`
			ResourceSubscriptions []string `json:"resourceSubscriptions"`
		} `json:"notifications"`
	}
	if err := decodeParams(in.msg.Params, &p); err != nil {
		return nil, err
	}
	n, c := p.Notifications, s.opts.Catalog
	l := &listener{
		id:             in.msg.ID,
		tools:          n.ToolsListChanged && c.Tools != nil,
		prompts:        n.PromptsListChanged && c.Prompts != nil,
		resourcesLists: n.ResourcesListChanged && c.Resources != nil,
		uris:           make(map[string]bool),
		ch:             make(chan []byte, 64),
	}
	honored := map[string]any{}
	if l.tools {
		honored["toolsListChanged"] = true
	}
	if l.prompts {
		honored["promptsListChanged"] = true
	}
	if l.resourcesLists {
		honored["resourcesListChanged"] = true
	}
	if c.ReadResource != nil && len(n.ResourceSubscriptions) > 0 {
		uris := s.listenURIs(ctx, n.ResourceSubscriptions)
		for _, u := range uris {
			l.uris[u] = true
		}
		if hook := c.Subscribed; hook != nil && len(uris) > 0 {
			hook(ctx, uris)
		}
		if uris == nil {
			uris = []string{}
		}
		honored["resourceSubscriptions"] = uris
	}

	s.mu.Lock()
	s.listeners[l] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, l)
		s.mu.Unlock()
	}()

	ack := map[string]any{"_meta": map[string]any{metaSubscriptionID: l.id}, "notifications": honored}
	(&Caller{out: in.out}).notify("notifications/subscriptions/acknowledged", ack)

	var tick <-chan time.Time
	if in.heartbeat > 0 {
		t := time.NewTicker(in.heartbeat)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case msg := <-l.ch:
			if err := in.out.send(msg); err != nil {
				return nil, errNoResponse
			}
		case <-tick:
			if ka, ok := in.out.(interface{ keepalive() error }); ok && ka.keepalive() != nil {
				return nil, errNoResponse
			}
		case <-ctx.Done():
			return nil, errNoResponse
		case <-s.done:
			return map[string]any{"_meta": map[string]any{metaSubscriptionID: l.id}}, nil
		}
	}
}
