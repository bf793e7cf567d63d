package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// ServerOptions configure a Server. The zero value serves an empty catalog.
type ServerOptions struct {
	// Instructions is the free-text guidance sent in initialize and
	// server/discover results.
	Instructions string
	// Catalog is what the server serves.
	Catalog Catalog
	// Logger receives diagnostics (recovered panics, dropped messages). It
	// defaults to standard error; never point it at a stdio transport's output.
	Logger *log.Logger
	// PageSize is the number of items per list page (default 100).
	PageSize int
	// CacheTTL and CacheScope are the 2026-07-28 caching hints on lists,
	// resources/read and server/discover (defaults 0 and "public").
	CacheTTL   time.Duration
	CacheScope string
	// MaxConcurrent bounds the requests a stdio connection handles at once
	// (default 16); further requests wait in line (reading stops meanwhile).
	MaxConcurrent int
	// MaxMessageBytes caps one stdio line or HTTP body (default 4 MiB).
	MaxMessageBytes int64
}

// Server serves a Catalog over MCP in both protocol eras. Create it with
// NewServer, then serve it with ServeStdio or NewHTTPHandler. A Server is
// safe for concurrent use, including several transports at once.
type Server struct {
	info     Implementation
	opts     ServerOptions
	logger   *log.Logger
	stateKey []byte // HMAC key protecting 2026-07-28 requestState

	mu        sync.Mutex
	listeners map[*listener]struct{}
	sessions  map[*session]struct{} // legacy sessions that take notifications

	done      chan struct{}
	closeOnce sync.Once
}

// NewServer returns a server identifying itself as info.
func NewServer(info Implementation, opts *ServerOptions) *Server {
	s := &Server{
		info:      info,
		listeners: make(map[*listener]struct{}),
		sessions:  make(map[*session]struct{}),
		done:      make(chan struct{}),
		stateKey:  make([]byte, 32),
	}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.PageSize <= 0 {
		s.opts.PageSize = 100
	}
	if s.opts.CacheScope == "" {
		s.opts.CacheScope = "public"
	}
	if s.opts.MaxConcurrent <= 0 {
		s.opts.MaxConcurrent = 16
	}
	if s.opts.MaxMessageBytes <= 0 {
		s.opts.MaxMessageBytes = 4 << 20
	}
	s.logger = s.opts.Logger
	if s.logger == nil {
		s.logger = log.New(os.Stderr, "", log.LstdFlags)
	}
	if _, err := io.ReadFull(rand.Reader, s.stateKey); err != nil {
		panic("mcp: no randomness for the request-state key: " + err.Error())
	}
	return s
}

// Close ends every open subscription and legacy event stream gracefully
// (modern listeners get their final result first). Call it before shutting
// transports down; it is idempotent.
func (s *Server) Close() { s.closeOnce.Do(func() { close(s.done) }) }

// ListKind names a list whose contents can change.
type ListKind int

// The lists a catalog can change at runtime.
const (
	ToolList ListKind = iota
	PromptList
	ResourceList
)

// NotifyListChanged tells subscribed clients that a list changed: modern
// subscriptions/listen streams that asked for it, and initialized legacy
// sessions (over their GET stream on HTTP, inline on stdio).
func (s *Server) NotifyListChanged(kind ListKind) {
	method := map[ListKind]string{
		ToolList:     "notifications/tools/list_changed",
		PromptList:   "notifications/prompts/list_changed",
		ResourceList: "notifications/resources/list_changed",
	}[kind]
	if method == "" {
		return
	}
	s.fanOut(method, nil, func(l *listener) bool { return l.wants(kind) }, func(*session) bool { return true })
}

// NotifyResourceUpdated tells clients subscribed to uri that it changed:
// modern listen streams with uri in their filter, and legacy sessions that
// called resources/subscribe for it.
func (s *Server) NotifyResourceUpdated(uri string) {
	params := map[string]any{"uri": uri}
	s.fanOut("notifications/resources/updated", params,
		func(l *listener) bool { return l.uris[uri] },
		func(ss *session) bool { return ss.subscribed(uri) })
}

// fanOut sends one notification to every matching listener and session.
// Each listener's copy is tagged with its subscription id. Delivery never
// blocks: a full queue drops the message (it is a hint, not data).
func (s *Server) fanOut(method string, params map[string]any, toListener func(*listener) bool, toSession func(*session) bool) {
	s.mu.Lock()
	var ls []*listener
	for l := range s.listeners {
		if toListener(l) {
			ls = append(ls, l)
		}
	}
	var ss []*session
	for se := range s.sessions {
		if se.isInitialized() && toSession(se) {
			ss = append(ss, se)
		}
	}
	s.mu.Unlock()
	for _, l := range ls {
		p := map[string]any{"_meta": map[string]any{metaSubscriptionID: l.id}}
		for k, v := range params {
			p[k] = v
		}
		msg, _ := jsonrpc.EncodeRequest(nil, method, p)
		select {
		case l.ch <- msg:
		default:
			s.logger.Printf("mcp: subscription queue full, dropped %s", method)
		}
	}
	if len(ss) > 0 {
		var p any
		if params != nil {
			p = params
		}
		msg, _ := jsonrpc.EncodeRequest(nil, method, p)
		for _, se := range ss {
			se.deliver(msg)
		}
	}
}

func (s *Server) addSession(se *session) {
	s.mu.Lock()
	s.sessions[se] = struct{}{}
	s.mu.Unlock()
}

func (s *Server) removeSession(se *session) {
	s.mu.Lock()
	delete(s.sessions, se)
	s.mu.Unlock()
}

// stream carries messages related to one request back to its client, ahead
// of the response: progress, log messages, listen notifications and
// (legacy only) server-to-client requests.
type stream interface {
	send(msg []byte) error
}

// inbound is one request or notification on its way through the server.
type inbound struct {
	msg       *jsonrpc.Message
	modern    bool
	meta      *modernMeta // modern: parsed (and, over HTTP, validated) _meta
	sess      *session    // legacy: the stdio connection or HTTP session
	out       stream
	heartbeat time.Duration // keep-alive interval for long streams; 0 = none
}

// errNoResponse is returned by handlers whose request must go unanswered:
// cancelled by the client, or a listen stream the client closed.
var errNoResponse = errors.New("no response")

// process runs one request and returns its encoded result or error. ok is
// false when nothing must be sent. It never panics.
func (s *Server) process(ctx context.Context, in *inbound) (result json.RawMessage, rpcErr *Error, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			s.logger.Printf("mcp: panic serving %s: %v\n%s", in.msg.Method, v, debug.Stack())
			result, rpcErr, ok = nil, &Error{Code: CodeInternalError, Message: "internal error"}, true
		}
	}()
	var res any
	var err error
	if in.modern {
		res, err = s.handleModern(ctx, in)
	} else {
		res, err = s.handleLegacy(ctx, in)
	}
	if errors.Is(err, errNoResponse) {
		return nil, nil, false
	}
	if err != nil {
		return nil, toRPCError(err), true
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, &Error{Code: CodeInternalError, Message: "encoding result: " + err.Error()}, true
	}
	return b, nil, true
}

// toRPCError maps a handler error to the JSON-RPC error the client sees.
func toRPCError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}

// encodeReply encodes the outcome of process as a response line.
func encodeReply(id json.RawMessage, result json.RawMessage, rpcErr *Error) []byte {
	if rpcErr != nil {
		return jsonrpc.EncodeError(id, rpcErr)
	}
	b, err := jsonrpc.EncodeResult(id, result)
	if err != nil {
		return jsonrpc.EncodeError(id, &Error{Code: CodeInternalError, Message: err.Error()})
	}
	return b
}

func invalidParams(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

func methodNotFound(method string) *Error {
	return &Error{Code: CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q", method)}
}

// decodeParams unmarshals params (absent = {}) into v.
func decodeParams(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return nil
	}
	if err := jsonrpc.Unmarshal(params, v); err != nil {
		return invalidParams("invalid params: %v", err)
	}
	return nil
}
