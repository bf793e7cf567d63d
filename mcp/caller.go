package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// Caller is the client behind one request, as far as a handler needs it:
// who it is, what it declared, and a way to talk back while the request runs.
type Caller struct {
	// ProtocolVersion is the request's protocol version (2026-07-28) or the
	// legacy session's negotiated one.
	ProtocolVersion string
	// Info is the client's self-description, or nil when it sent none.
	Info *Implementation
	// Capabilities is the client's capabilities object ({} when none).
	Capabilities json.RawMessage

	modern        bool
	progressToken json.RawMessage
	logLevel      func() int // minimum level to emit; levelOff = none
	out           stream
	sess          *session
}

// Modern reports whether the request uses the stateless 2026-07-28 era.
func (c *Caller) Modern() bool { return c != nil && c.modern }

// HasCapability reports whether the client declared the named top-level
// capability (for example "sampling", "elicitation", "roots").
func (c *Caller) HasCapability(name string) bool {
	if c == nil {
		return false
	}
	var caps map[string]json.RawMessage
	if jsonrpc.Unmarshal(c.Capabilities, &caps) != nil {
		return false
	}
	v, ok := caps[name]
	return ok && string(v) != "null"
}

// ProgressToken returns the request's progress token as raw JSON, or nil
// when the client did not ask for progress.
func (c *Caller) ProgressToken() json.RawMessage {
	if c == nil {
		return nil
	}
	return c.progressToken
}

// Progress reports progress on the request, if the client asked for it
// with a progress token; otherwise it does nothing. progress must increase.
func (c *Caller) Progress(progress, total float64, message string) {
	if c == nil || c.progressToken == nil {
		return
	}
	p := map[string]any{"progressToken": c.progressToken, "progress": progress}
	if total > 0 {
		p["total"] = total
	}
	if message != "" {
		p["message"] = message
	}
	c.notify("notifications/progress", p)
}

// Log sends a log message to the client if it asked for messages at level
// or above (logging/setLevel in legacy sessions, the per-request logLevel
// in 2026-07-28); otherwise it does nothing. level is a syslog name such
// as "info" or "error".
func (c *Caller) Log(level, logger string, data any) {
	if c == nil || c.logLevel == nil {
		return
	}
	n, ok := levelRank[level]
	if !ok || n < c.logLevel() {
		return
	}
	p := map[string]any{"level": level, "data": data}
	if logger != "" {
		p["logger"] = logger
	}
	c.notify("notifications/message", p)
}

func (c *Caller) notify(method string, params any) {
	if c.out == nil {
		return
	}
	msg, err := jsonrpc.EncodeRequest(nil, method, params)
	if err == nil {
		_ = c.out.send(msg)
	}
}

// ErrNoClientRequests is returned by Caller.Request when the server cannot
// send the client a request: always in 2026-07-28 (return an InputRequired
// result instead), and in legacy HTTP requests made without a session.
var ErrNoClientRequests = errors.New("server-to-client requests are not available for this request")

// Request sends a request to the client (legacy era only: sampling,
// elicitation, roots) and waits for its result. A JSON-RPC error answer is
// returned as an *Error.
func (c *Caller) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if c == nil || c.modern || c.sess == nil || !c.sess.canCall() || c.out == nil {
		return nil, ErrNoClientRequests
	}
	id, ch := c.sess.expect()
	defer c.sess.forget(id)
	msg, err := jsonrpc.EncodeRequest(id, method, params)
	if err != nil {
		return nil, err
	}
	if err := c.out.send(msg); err != nil {
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	select {
	case reply := <-ch:
		if reply.Error != nil {
			return nil, reply.Error
		}
		return reply.Result, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Log levels in increasing severity (RFC 5424 names, as MCP uses them).
var levelRank = map[string]int{
	"debug": 0, "info": 1, "notice": 2, "warning": 3,
	"error": 4, "critical": 5, "alert": 6, "emergency": 7,
}

// levelOff is above every level: nothing is logged.
const levelOff = 100
