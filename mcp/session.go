package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// session is the state a legacy client negotiates with initialize: a stdio
// connection or one HTTP Mcp-Session-Id. Modern requests never touch it.
type session struct {
	id     string // HTTP session id; "" for stdio and ephemeral sessions
	stdio  bool   // stdio: no resource subscriptions, notifications inline
	stored bool   // HTTP: registered, so it can receive client responses

	mu          sync.Mutex
	version     string
	initialized bool
	info        *Implementation
	caps        json.RawMessage
	logLevel    int
	subs        map[string]bool
	lastSeen    time.Time
	streams     int // open GET streams (HTTP)
	pending     map[string]chan *jsonrpc.Message
	nextID      int64
	inflight    map[string]func() // request id -> cancel

	queue     chan []byte // server-initiated messages: GET stream(s) or the stdio writer
	closed    chan struct{}
	closeOnce sync.Once
}

func newSession(version string) *session {
	return &session{
		version:  version,
		logLevel: levelOff,
		subs:     make(map[string]bool),
		pending:  make(map[string]chan *jsonrpc.Message),
		inflight: make(map[string]func()),
		lastSeen: time.Now(),
		queue:    make(chan []byte, 64),
		closed:   make(chan struct{}),
	}
}

// newSessionID returns an opaque 128-bit id as 32 hex digits.
func newSessionID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("mcp: no randomness for a session id: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

func (se *session) close() { se.closeOnce.Do(func() { close(se.closed) }) }

func (se *session) touch() {
	se.mu.Lock()
	se.lastSeen = time.Now()
	se.mu.Unlock()
}

func (se *session) isInitialized() bool {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.initialized
}

func (se *session) subscribed(uri string) bool {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.subs[uri]
}

func (se *session) getVersion() string {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.version
}

func (se *session) level() int {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.logLevel
}

// canCall reports whether a client response can find its way back: always
// on stdio, and for stored HTTP sessions.
func (se *session) canCall() bool { return se.stdio || se.stored }

// deliver queues a server-initiated notification for the client. It never
// blocks, so a client that stops reading cannot stall the notifier; on a
// full queue the message is dropped.
func (se *session) deliver(msg []byte) {
	select {
	case se.queue <- msg:
	default:
	}
}

// expect reserves an id for a server-to-client request.
func (se *session) expect() (json.RawMessage, chan *jsonrpc.Message) {
	se.mu.Lock()
	defer se.mu.Unlock()
	se.nextID++
	id := json.RawMessage(strconv.Quote("s" + strconv.FormatInt(se.nextID, 10)))
	ch := make(chan *jsonrpc.Message, 1)
	se.pending[string(id)] = ch
	return id, ch
}

func (se *session) forget(id json.RawMessage) {
	se.mu.Lock()
	delete(se.pending, string(id))
	se.mu.Unlock()
}

// resolve hands a client response to the request waiting for it, and
// reports whether one was.
func (se *session) resolve(m *jsonrpc.Message) bool {
	se.mu.Lock()
	ch, ok := se.pending[string(m.ID)]
	delete(se.pending, string(m.ID))
	se.mu.Unlock()
	if ok {
		ch <- m
	}
	return ok
}

// track registers an in-flight request so notifications/cancelled can stop it.
func (se *session) track(id json.RawMessage, cancel func()) (untrack func()) {
	key := string(id)
	se.mu.Lock()
	se.inflight[key] = cancel
	se.mu.Unlock()
	return func() {
		se.mu.Lock()
		delete(se.inflight, key)
		se.mu.Unlock()
	}
}

// cancel stops the in-flight request with the given id, if any.
func (se *session) cancel(id json.RawMessage) {
	se.mu.Lock()
	c := se.inflight[string(id)]
	se.mu.Unlock()
	if c != nil {
		c()
	}
}
