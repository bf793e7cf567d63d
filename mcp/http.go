package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// HTTPOptions configure an HTTPHandler.
type HTTPOptions struct {
	// Path is the MCP endpoint (default "/mcp").
	Path string
	// Guards protect every route of the handler, extra ones included.
	Guards Guards
	// Heartbeat is the keep-alive interval on event streams (default 15s).
	Heartbeat time.Duration
	// SessionIdle is how long a legacy session may sit idle, with no open
	// stream, before the reaper drops it (default 1h).
	SessionIdle time.Duration
	// MaxSessions caps the legacy sessions held at once (default 1000; one
	// costs about 5 KB). At the cap, initialize evicts the least recently
	// used session with no open stream, or is refused with HTTP 503 when
	// every session has one.
	MaxSessions int
}

// HTTPHandler serves a Server over Streamable HTTP: POST for both eras,
// GET (event stream) and DELETE for legacy sessions. It is an http.Handler
// for all its routes; Handle mounts extra routes behind the same guards.
type HTTPHandler struct {
	s       *Server
	opts    HTTPOptions
	mux     *http.ServeMux
	guarded http.Handler

	// streamWrite bounds one event-stream write (see HTTPLimits).
	streamWrite time.Duration

	mu       sync.Mutex
	sessions map[string]*session
}

// NewHTTPHandler returns the HTTP transport for s.
func NewHTTPHandler(s *Server, opts *HTTPOptions) *HTTPHandler {
	h := &HTTPHandler{s: s, mux: http.NewServeMux(), sessions: make(map[string]*session), streamWrite: 30 * time.Second}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.Path == "" {
		h.opts.Path = "/mcp"
	}
	if h.opts.Heartbeat <= 0 {
		h.opts.Heartbeat = 15 * time.Second
	}
	if h.opts.SessionIdle <= 0 {
		h.opts.SessionIdle = time.Hour
	}
	if h.opts.MaxSessions <= 0 {
		h.opts.MaxSessions = 1000
	}
	h.mux.HandleFunc(h.opts.Path, h.serveMCP)
	h.guarded = h.opts.Guards.Wrap(h.mux)
	return h
}

// Handle mounts an extra route (an http.ServeMux pattern such as
// "GET /api/stats") behind the same guards as the MCP endpoint.
func (h *HTTPHandler) Handle(pattern string, handler http.Handler) { h.mux.Handle(pattern, handler) }

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if len(r.TransferEncoding) > 0 {
		// net/http lets a chunked body win over a Content-Length and drops
		// the latter before a handler could see both. A proxy in front may
		// have framed the body by its Content-Length, so the bytes after
		// this request are not to be trusted as the next one: answer, then
		// close (RFC 9112 section 6.1). MCP clients send Content-Length.
		w.Header().Set("Connection", "close")
	}
	h.guarded.ServeHTTP(w, r)
}

// bodyRead lifts the whole-request read deadline once the request is in:
// net/http keeps watching the connection while the handler runs and would
// cancel the request when that deadline passes.
func bodyRead(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
}

// RunReaper drops legacy sessions idle longer than HTTPOptions.SessionIdle
// until ctx is done, then returns nil. It fits an oklog/run actor:
//
//	ctx, cancel := context.WithCancel(ctx)
//	g.Add(func() error { return h.RunReaper(ctx) }, func(error) { cancel() })
func (h *HTTPHandler) RunReaper(ctx context.Context) error {
	t := time.NewTicker(min(h.opts.SessionIdle/4, time.Minute))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			h.reap(now)
		}
	}
}

// reap drops sessions idle since before now-SessionIdle.
func (h *HTTPHandler) reap(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, se := range h.sessions {
		se.mu.Lock()
		idle := se.streams == 0 && now.Sub(se.lastSeen) > h.opts.SessionIdle
		se.mu.Unlock()
		if idle {
			delete(h.sessions, id)
			h.s.removeSession(se)
			se.close()
		}
	}
}

// store registers a new session, making room at the cap by dropping the
// least recently used session that has no open stream.
func (h *HTTPHandler) store(se *session) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions) >= h.opts.MaxSessions {
		var lru *session
		var lruSeen time.Time
		for _, o := range h.sessions {
			o.mu.Lock()
			seen, busy := o.lastSeen, o.streams > 0
			o.mu.Unlock()
			if !busy && (lru == nil || seen.Before(lruSeen)) {
				lru, lruSeen = o, seen
			}
		}
		if lru == nil {
			return sessionsFull(h.opts.MaxSessions)
		}
		delete(h.sessions, lru.id)
		h.s.removeSession(lru)
		lru.close()
	}
	h.sessions[se.id] = se
	h.s.addSession(se)
	return nil
}

func (e sessionsFull) Error() string {
	return fmt.Sprintf("too many open sessions (max %d), all of them busy: close one with DELETE /mcp, or retry later", int(e))
}

// sessionsFull is the error for an initialize that finds no room.
type sessionsFull int

func (h *HTTPHandler) session(id string) *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

func (h *HTTPHandler) serveMCP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeError(w, http.StatusMethodNotAllowed, nil, &Error{Code: CodeInvalidRequest, Message: "method not allowed"})
	}
}

// modernHeader reports whether a request's MCP-Protocol-Version header
// names something other than a legacy version (so it is modern, or an
// unknown version the modern path rejects with -32022).
func modernHeader(r *http.Request) bool {
	v := strings.TrimSpace(r.Header.Get("MCP-Protocol-Version"))
	return v != "" && !isLegacyVersion(v)
}

func (h *HTTPHandler) post(w http.ResponseWriter, r *http.Request) {
	receiving(r, true)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.s.opts.MaxMessageBytes))
	receiving(r, false)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, nil, &Error{Code: CodeInvalidRequest, Message: "request body too large"})
			return
		}
		writeError(w, http.StatusBadRequest, nil, &Error{Code: CodeInvalidRequest, Message: "reading body: " + err.Error()})
		return
	}
	bodyRead(w)
	msg, id, derr := jsonrpc.Decode(body)
	if derr != nil {
		writeError(w, http.StatusBadRequest, id, toRPCError(derr))
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	if msg.IsResponse() {
		if se := h.session(sid); se != nil {
			se.touch()
			se.resolve(msg)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	// Modern requests are recognized by their version header or _meta and
	// never use sessions, so a stray Mcp-Session-Id does not make them legacy.
	if modernHeader(r) || hasModernMeta(msg.Params) || modernOnlyMethod(msg.Method) {
		h.postModern(w, r, msg)
		return
	}
	h.postLegacy(w, r, msg, sid)
}

// postModern serves a stateless 2026-07-28 request after checking that the
// routing headers agree with the body.
func (h *HTTPHandler) postModern(w http.ResponseWriter, r *http.Request, msg *jsonrpc.Message) {
	md, e := h.checkModern(r, msg)
	if e != nil {
		writeError(w, modernStatus(e.Code), msg.ID, e)
		return
	}
	if msg.IsNotification() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st := h.newStream(w)
	in := &inbound{msg: msg, modern: true, meta: md, out: st, heartbeat: h.opts.Heartbeat}
	res, rpcErr, ok := h.s.process(r.Context(), in)
	if !ok {
		st.finish(0, nil)
		return
	}
	status := http.StatusOK
	if rpcErr != nil {
		status = modernStatus(rpcErr.Code)
	}
	st.finish(status, encodeReply(msg.ID, res, rpcErr))
}

// checkModern validates, in the order the reference servers use: version
// header present, _meta complete, header equal to _meta, version
// supported, Mcp-Method, Mcp-Name, then Mcp-Param-* headers.
func (h *HTTPHandler) checkModern(r *http.Request, msg *jsonrpc.Message) (*modernMeta, *Error) {
	hv := strings.TrimSpace(r.Header.Get("MCP-Protocol-Version"))
	if hv == "" {
		return nil, headerMismatch("missing MCP-Protocol-Version header")
	}
	md, e := parseModernMeta(msg.Params)
	if e != nil {
		// A legacy-shaped body under a version header nobody speaks: the
		// version is the problem, not the missing _meta.
		if !hasModernMeta(msg.Params) {
			if ve := checkModernVersion(hv); ve != nil {
				return nil, ve
			}
		}
		return nil, e
	}
	if hv != md.version {
		return nil, headerMismatch("MCP-Protocol-Version header " + strconv.Quote(hv) + " does not match _meta protocolVersion " + strconv.Quote(md.version))
	}
	if e := checkModernVersion(md.version); e != nil {
		return nil, e
	}
	if e := matchHeader(r, "Mcp-Method", msg.Method); e != nil {
		return nil, e
	}
	var p struct {
		Name      string                     `json:"name"`
		URI       string                     `json:"uri"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	_ = jsonrpc.Unmarshal(msg.Params, &p)
	switch msg.Method {
	case "tools/call", "prompts/get":
		if e := matchHeader(r, "Mcp-Name", p.Name); e != nil {
			return nil, e
		}
	case "resources/read":
		if e := matchHeader(r, "Mcp-Name", p.URI); e != nil {
			return nil, e
		}
	}
	if msg.Method == "tools/call" && h.s.opts.Catalog.Tools != nil {
		if tool, ok := findTool(h.s.opts.Catalog.Tools(r.Context()), p.Name); ok {
			if e := checkParamHeaders(r, tool.InputSchema, p.Arguments); e != nil {
				return nil, e
			}
		}
	}
	return md, nil
}

func headerMismatch(msg string) *Error {
	return &Error{Code: CodeHeaderMismatch, Message: "header mismatch: " + msg}
}

// headerValue returns a routing header's value, trimmed and with the
// =?base64?...?= form decoded; ok is false for an invalid encoding.
func headerValue(r *http.Request, name string) (v string, present, ok bool) {
	vals := r.Header.Values(name)
	if len(vals) == 0 {
		return "", false, true
	}
	v = strings.Trim(vals[0], " \t")
	if inner, found := strings.CutPrefix(v, "=?base64?"); found {
		if enc, found := strings.CutSuffix(inner, "?="); found {
			b, err := base64.StdEncoding.Strict().DecodeString(enc)
			if err != nil {
				return "", true, false
			}
			return string(b), true, true
		}
	}
	return v, true, true
}

func matchHeader(r *http.Request, name, want string) *Error {
	got, present, ok := headerValue(r, name)
	switch {
	case !present:
		return headerMismatch("missing " + name + " header")
	case !ok:
		return headerMismatch(name + " header has an invalid base64 value")
	case got != want:
		return headerMismatch(name + " header value " + strconv.Quote(got) + " does not match body value " + strconv.Quote(want))
	}
	return nil
}

// checkParamHeaders enforces the Mcp-Param-* mirror headers of arguments
// whose top-level property schema declares "x-mcp-header".
func checkParamHeaders(r *http.Request, schema json.RawMessage, args map[string]json.RawMessage) *Error {
	var s struct {
		Properties map[string]struct {
			Header string `json:"x-mcp-header"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	for prop, ps := range s.Properties {
		if ps.Header == "" {
			continue
		}
		name := "Mcp-Param-" + ps.Header
		got, present, ok := headerValue(r, name)
		raw, has := args[prop]
		if has && string(raw) == "null" {
			has = false
		}
		switch {
		case !ok:
			return headerMismatch(name + " header has an invalid base64 value")
		case has && !present:
			return headerMismatch("missing " + name + " header for argument " + strconv.Quote(prop))
		case !has && present:
			return headerMismatch(name + " header sent without argument " + strconv.Quote(prop))
		case has && !paramEqual(raw, got):
			return headerMismatch(name + " header value " + strconv.Quote(got) + " does not match argument " + strconv.Quote(prop))
		}
	}
	return nil
}

// paramEqual compares an argument with its header form: strings exactly,
// numbers numerically, booleans by name.
func paramEqual(raw json.RawMessage, header string) bool {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str == header
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		a, e1 := n.Float64()
		b, e2 := strconv.ParseFloat(header, 64)
		return e1 == nil && e2 == nil && a == b
	}
	return strings.TrimSpace(string(raw)) == header
}

// modernStatus maps a 2026-07-28 error code to its HTTP status.
func modernStatus(code int) int {
	switch code {
	case CodeMethodNotFound:
		return http.StatusNotFound
	case CodeInternalError:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

func (h *HTTPHandler) postLegacy(w http.ResponseWriter, r *http.Request, msg *jsonrpc.Message, sid string) {
	var se *session
	switch {
	case msg.Method == "initialize":
		se = newSession(legacyVersions[0])
		se.id, se.stored = newSessionID(), true
	case sid != "":
		if se = h.session(sid); se == nil {
			writeError(w, http.StatusNotFound, msg.ID, &Error{Code: CodeInvalidRequest, Message: "session not found: send initialize to start a new one"})
			return
		}
		se.touch()
	default:
		// Tolerated: a simple client without a session gets a throwaway
		// one at the version its header names (2025-03-26 when absent).
		v := strings.TrimSpace(r.Header.Get("MCP-Protocol-Version"))
		if v == "" {
			v = Version20250326
		}
		se = newSession(v)
	}
	if msg.IsNotification() {
		switch msg.Method {
		case "notifications/initialized":
			se.mu.Lock()
			se.initialized = true
			se.mu.Unlock()
		case "notifications/cancelled":
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if jsonrpc.Unmarshal(msg.Params, &p) == nil && p.RequestID != nil {
				se.cancel(p.RequestID)
			}
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer se.track(msg.ID, cancel)()
	st := h.newStream(w)
	in := &inbound{msg: msg, sess: se, out: st}
	res, rpcErr, ok := h.s.process(ctx, in)
	if msg.Method == "initialize" && rpcErr == nil {
		if err := h.store(se); err != nil {
			w.Header().Set("Retry-After", "60")
			st.finish(http.StatusServiceUnavailable, jsonrpc.EncodeError(msg.ID, &Error{Code: CodeInvalidRequest, Message: err.Error()}))
			return
		}
		w.Header().Set("Mcp-Session-Id", se.id)
	}
	if !ok || (ctx.Err() != nil && r.Context().Err() == nil) { // cancelled by the client
		st.finish(http.StatusAccepted, nil)
		return
	}
	st.finish(http.StatusOK, encodeReply(msg.ID, res, rpcErr))
}

// get opens a legacy session's event stream: server-initiated
// notifications (resource updates, list changes) and heartbeats.
func (h *HTTPHandler) get(w http.ResponseWriter, r *http.Request) {
	if modernHeader(r) {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, nil, &Error{Code: CodeInvalidRequest, Message: "GET is not part of protocol " + Version20260728 + "; use subscriptions/listen"})
		return
	}
	se, ok := h.requireSession(w, r)
	if !ok {
		return
	}
	bodyRead(w)
	se.mu.Lock()
	se.streams++
	se.mu.Unlock()
	defer func() {
		se.mu.Lock()
		se.streams--
		se.lastSeen = time.Now()
		se.mu.Unlock()
	}()
	st := h.newStream(w)
	if st.keepalive() != nil {
		return
	}
	t := time.NewTicker(h.opts.Heartbeat)
	defer t.Stop()
	for {
		select {
		case msg := <-se.queue:
			if st.send(msg) != nil {
				return
			}
		case <-t.C:
			if st.keepalive() != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-se.closed:
			return
		case <-h.s.done:
			return
		}
	}
}

// delete ends a legacy session.
func (h *HTTPHandler) delete(w http.ResponseWriter, r *http.Request) {
	if modernHeader(r) {
		w.Header().Set("Allow", "POST")
		writeError(w, http.StatusMethodNotAllowed, nil, &Error{Code: CodeInvalidRequest, Message: "DELETE is not part of protocol " + Version20260728})
		return
	}
	se, ok := h.requireSession(w, r)
	if !ok {
		return
	}
	h.mu.Lock()
	delete(h.sessions, se.id)
	h.mu.Unlock()
	h.s.removeSession(se)
	se.close()
	w.WriteHeader(http.StatusNoContent)
}

// requireSession finds the request's session or answers 400 (no id) or
// 404 (unknown or expired id).
func (h *HTTPHandler) requireSession(w http.ResponseWriter, r *http.Request) (*session, bool) {
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" {
		writeError(w, http.StatusBadRequest, nil, &Error{Code: CodeInvalidRequest, Message: "missing Mcp-Session-Id header"})
		return nil, false
	}
	se := h.session(sid)
	if se == nil {
		writeError(w, http.StatusNotFound, nil, &Error{Code: CodeInvalidRequest, Message: "session not found"})
		return nil, false
	}
	se.touch()
	return se, true
}

func writeError(w http.ResponseWriter, status int, id json.RawMessage, e *Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(jsonrpc.EncodeError(id, e))
}

// httpStream is the response of one POST (or a GET stream). It answers
// with plain JSON unless messages must precede the response, in which
// case it switches to an event stream on the first one.
type httpStream struct {
	mu    sync.Mutex
	w     http.ResponseWriter
	grace time.Duration // per-write deadline once streaming; 0 = none
	sse   bool
	done  bool
}

func (h *HTTPHandler) newStream(w http.ResponseWriter) *httpStream {
	return &httpStream{w: w, grace: h.streamWrite}
}

// extend gives the next stream write its own deadline: a stream outlives
// the server's WriteTimeout, but a client that stops reading must not pin
// the connection forever.
func (st *httpStream) extend() {
	if st.grace > 0 {
		_ = http.NewResponseController(st.w).SetWriteDeadline(time.Now().Add(st.grace))
	}
}

var errStreamDone = errors.New("stream finished")

func (st *httpStream) startSSE() {
	if st.sse {
		return
	}
	st.sse = true
	h := st.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	st.w.WriteHeader(http.StatusOK)
}

func (st *httpStream) writeEvent(msg []byte) error {
	st.extend()
	if _, err := io.WriteString(st.w, "event: message\ndata: "); err != nil {
		return err
	}
	if _, err := st.w.Write(msg); err != nil {
		return err
	}
	if _, err := io.WriteString(st.w, "\n\n"); err != nil {
		return err
	}
	return http.NewResponseController(st.w).Flush()
}

// send implements stream.
func (st *httpStream) send(msg []byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return errStreamDone
	}
	st.startSSE()
	return st.writeEvent(msg)
}

// keepalive writes an SSE comment, opening the stream if needed.
func (st *httpStream) keepalive() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return errStreamDone
	}
	st.startSSE()
	st.extend()
	if _, err := io.WriteString(st.w, ": keepalive\n\n"); err != nil {
		return err
	}
	return http.NewResponseController(st.w).Flush()
}

// finish writes the final response (body nil: none) and closes the stream.
func (st *httpStream) finish(status int, body []byte) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return
	}
	st.done = true
	// However long the handler ran, its answer gets a fresh write window:
	// the server's WriteTimeout counts from the request, and a slow tool
	// must not lose its result to it.
	st.extend()
	switch {
	case st.sse && body != nil:
		_ = st.writeEvent(body)
	case st.sse:
	case body == nil:
		if status != 0 {
			st.w.WriteHeader(status)
		}
	default:
		st.w.Header().Set("Content-Type", "application/json")
		st.w.WriteHeader(status)
		_, _ = st.w.Write(body)
	}
}
