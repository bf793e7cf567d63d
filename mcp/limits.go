package mcp

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// HTTPLimits bound what one client can hold of an HTTP server: time to send
// a request, time to take a response, idle keep-alive time, and a share of
// the connections. Zero fields take the defaults below.
type HTTPLimits struct {
	// ReadHeaderTimeout bounds sending the request line and headers
	// (default 10s): slowloris headers are cut off.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds sending the whole request, body included
	// (default 30s): a stalled or trickled body is cut off. Once the body
	// is read the handler lifts it, so a long tool call is not cancelled.
	ReadTimeout time.Duration
	// WriteTimeout bounds a request from its headers to the end of its
	// response on routes other than the MCP endpoint (default 2m). The MCP
	// endpoint instead gives each write (the answer, and every event of a
	// stream: legacy GET, subscriptions/listen, progress) StreamWriteTimeout,
	// so a long tool call keeps its answer and a long stream stays open.
	WriteTimeout time.Duration
	// StreamWriteTimeout is how long one write on the MCP endpoint may
	// block on a client that stopped reading (default 30s).
	StreamWriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle this long (default 60s).
	IdleTimeout time.Duration
	// MaxConns caps open connections (default 2048, and always below the
	// process's file-descriptor limit). At the cap the oldest connection
	// that is idle, has not sent a whole request yet, or is still sending
	// its body is closed to admit the new one; when every connection is
	// busy running a request or streaming, accepting waits.
	MaxConns int
}

func (l HTTPLimits) withDefaults() HTTPLimits {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&l.ReadHeaderTimeout, 10*time.Second)
	def(&l.ReadTimeout, 30*time.Second)
	def(&l.WriteTimeout, 2*time.Minute)
	def(&l.StreamWriteTimeout, 30*time.Second)
	def(&l.IdleTimeout, 60*time.Second)
	if l.MaxConns <= 0 {
		l.MaxConns = 2048
	}
	if fds := fdLimit(); fds > 0 {
		// Leave descriptors for graph reloads, source reads and plugins.
		l.MaxConns = max(1, min(l.MaxConns, fds-256))
	}
	return l
}

// HTTPServer is an http.Server with HTTPLimits applied. Serve wraps the
// listener with the connection cap; Shutdown and the rest are http.Server's.
type HTTPServer struct {
	*http.Server
	gate *connGate
}

// NewHTTPServer returns a server for h with the limits applied. When h is
// an *HTTPHandler, its event streams use l.StreamWriteTimeout.
func NewHTTPServer(h http.Handler, l HTTPLimits) *HTTPServer {
	l = l.withDefaults()
	if mh, ok := h.(*HTTPHandler); ok {
		mh.streamWrite = l.StreamWriteTimeout
	}
	g := newConnGate(l.MaxConns)
	return &HTTPServer{
		Server: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: l.ReadHeaderTimeout,
			ReadTimeout:       l.ReadTimeout,
			WriteTimeout:      l.WriteTimeout,
			IdleTimeout:       l.IdleTimeout,
			ConnState:         g.track,
			ConnContext: func(ctx context.Context, c net.Conn) context.Context {
				return context.WithValue(ctx, connKey{}, c)
			},
		},
		gate: g,
	}
}

// Serve accepts connections on ln, at most MaxConns at a time. Accept
// errors such as EMFILE are retried by http.Server with a growing backoff
// (5 ms to 1 s), so running out of descriptors slows accepting down
// instead of ending the server.
func (s *HTTPServer) Serve(ln net.Listener) error {
	return s.Server.Serve(&gatedListener{Listener: ln, gate: s.gate, closed: make(chan struct{})})
}

// connGate counts open connections and knows which ones could be closed
// without losing work: idle keep-alives, connections that have not sent a
// request yet, and requests whose body is still arriving.
type connGate struct {
	slots chan struct{}

	mu        sync.Mutex
	evictable map[net.Conn]time.Time // since when idle or new
}

func newConnGate(n int) *connGate {
	return &connGate{slots: make(chan struct{}, n), evictable: make(map[net.Conn]time.Time)}
}

// track is the http.Server ConnState hook.
func (g *connGate) track(c net.Conn, st http.ConnState) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch st {
	case http.StateNew, http.StateIdle:
		g.evictable[c] = time.Now()
	default:
		delete(g.evictable, c)
	}
}

// connKey is the request-context key of the connection a request came on.
type connKey struct{}

// receiving marks the request's connection as still sending its body (so
// at the connection cap it may be closed like an idle one) or done with it.
func receiving(r *http.Request, yes bool) {
	c, ok := r.Context().Value(connKey{}).(*gatedConn)
	if !ok {
		return
	}
	g := c.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if yes {
		g.evictable[c] = time.Now()
	} else {
		delete(g.evictable, c)
	}
}

// evictOldest closes the longest-idle evictable connection, if any.
func (g *connGate) evictOldest() bool {
	g.mu.Lock()
	var oldest net.Conn
	var since time.Time
	for c, t := range g.evictable {
		if oldest == nil || t.Before(since) {
			oldest, since = c, t
		}
	}
	delete(g.evictable, oldest)
	g.mu.Unlock()
	if oldest == nil {
		return false
	}
	oldest.Close()
	return true
}

type gatedListener struct {
	net.Listener
	gate      *connGate
	closed    chan struct{}
	closeOnce sync.Once
}

// errListenerClosed is returned by Accept after Close.
var errListenerClosed = errors.New("listener closed")

func (l *gatedListener) Accept() (net.Conn, error) {
	if err := l.acquire(); err != nil {
		return nil, err
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.gate.slots
		return nil, err
	}
	return &gatedConn{Conn: c, gate: l.gate}, nil
}

// acquire takes a connection slot, evicting an idle connection when all
// are taken, or waiting for one to close when none is idle.
func (l *gatedListener) acquire() error {
	for {
		select {
		case l.gate.slots <- struct{}{}:
			return nil
		case <-l.closed:
			return errListenerClosed
		default:
		}
		if l.gate.evictOldest() {
			continue // its slot frees when its Close has run
		}
		select {
		case l.gate.slots <- struct{}{}:
			return nil
		case <-l.closed:
			return errListenerClosed
		case <-time.After(50 * time.Millisecond): // look for idle ones again
		}
	}
}

func (l *gatedListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// gatedConn gives its slot back exactly once, on the first Close.
type gatedConn struct {
	net.Conn
	gate *connGate
	once sync.Once
}

func (c *gatedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.gate.mu.Lock()
		delete(c.gate.evictable, c)
		c.gate.mu.Unlock()
		<-c.gate.slots
	})
	return err
}
