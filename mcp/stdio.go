package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// ServeStdio serves one client over newline-delimited JSON-RPC: requests
// are read from r, and responses, notifications and (legacy) server
// requests are written to w, one JSON message per line. Nothing else is
// ever written to w; the embedder prints its own readiness line (such as
// "[synaptic] MCP server ready on stdio") to standard error before calling.
//
// Requests run concurrently, at most ServerOptions.MaxConcurrent at a time
// (reading pauses while the limit is reached), so responses may come out of
// order. Each protocol era is chosen per request: a request whose _meta
// carries the 2026-07-28 connection keys is served statelessly, anything
// else belongs to the connection's legacy session.
//
// ServeStdio returns nil at end of input, after in-flight requests finish
// (open subscriptions end). It returns ctx.Err() when ctx is cancelled; a
// read blocked on r is then abandoned, since an io.Reader cannot be
// interrupted (close r to unblock it).
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Listen streams never finish by themselves: at end of input they are
	// cancelled, while ordinary requests run to completion.
	listenCtx, stopListens := context.WithCancel(ctx)
	defer stopListens()
	c := &stdioConn{s: s, w: w, listenCtx: listenCtx}
	c.sess = newSession(legacyVersions[0])
	c.sess.stdio = true
	s.addSession(c.sess)
	defer s.removeSession(c.sess)
	go func() { // forward server-initiated notifications
		for {
			select {
			case msg := <-c.sess.queue:
				c.write(msg)
			case <-ctx.Done():
				return
			}
		}
	}()

	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() { readErr <- readLines(ctx, r, s.opts.MaxMessageBytes, lines) }()

	sem := make(chan struct{}, s.opts.MaxConcurrent)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				err := <-readErr
				stopListens()
				if errors.Is(err, io.EOF) || err == nil {
					return nil
				}
				return err
			}
			c.handleLine(ctx, line, sem, &wg)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// errLineTooLong marks a line over the size cap; the rest is discarded.
var errLineTooLong = errors.New("message too large")

// readLines sends each non-blank line to out (nil for an oversized one)
// and closes out at end of input.
func readLines(ctx context.Context, r io.Reader, maxLen int64, out chan<- []byte) error {
	defer close(out)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, maxLen)
		if len(bytes.TrimSpace(line)) > 0 || errors.Is(err, errLineTooLong) {
			if errors.Is(err, errLineTooLong) {
				line = nil
			}
			select {
			case out <- line:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return err
		}
	}
}

// readLine reads up to and excluding '\n', failing with errLineTooLong
// (after consuming the whole line) when it exceeds maxLen bytes.
func readLine(br *bufio.Reader, maxLen int64) ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			buf = append(buf, chunk...)
			if int64(len(buf)) > maxLen+1 {
				tooLong, buf = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			if err == nil {
				err = errLineTooLong
			}
			return nil, err
		}
		return bytes.TrimSuffix(buf, []byte("\n")), err
	}
}

// stdioConn is one stdio client.
type stdioConn struct {
	s    *Server
	sess *session
	mu   sync.Mutex // serializes writes
	w    io.Writer

	listenCtx context.Context // parent of subscriptions/listen requests
}

func (c *stdioConn) write(msg []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.w.Write(append(msg, '\n')); err != nil {
		c.s.logger.Printf("mcp: stdio write: %v", err)
	}
}

// send implements stream for the requests of this connection.
func (c *stdioConn) send(msg []byte) error { c.write(msg); return nil }

func (c *stdioConn) handleLine(ctx context.Context, line []byte, sem chan struct{}, wg *sync.WaitGroup) {
	if line == nil {
		c.write(jsonrpc.EncodeError(nil, &Error{Code: CodeInvalidRequest, Message: "message too large"}))
		return
	}
	msg, id, err := jsonrpc.Decode(line)
	if err != nil {
		c.write(jsonrpc.EncodeError(id, toRPCError(err)))
		return
	}
	switch {
	case msg.IsResponse():
		c.sess.resolve(msg)
		return
	case msg.IsNotification():
		c.notification(msg)
		return
	}
	in := &inbound{msg: msg, sess: c.sess, out: c}
	in.modern = hasModernMeta(msg.Params) || modernOnlyMethod(msg.Method)
	if !in.modern && msg.Method == "initialize" {
		// Inline, so that requests read after it see the negotiated session.
		res, rpcErr, _ := c.s.process(ctx, in)
		c.write(encodeReply(msg.ID, res, rpcErr))
		return
	}

	long := msg.Method == "subscriptions/listen" // open-ended: outside the bound
	parent := ctx
	if long {
		parent = c.listenCtx
	}
	reqCtx, cancel := context.WithCancel(parent)
	cancelled := false
	var mu sync.Mutex
	untrack := c.sess.track(msg.ID, func() { mu.Lock(); cancelled = true; mu.Unlock(); cancel() })
	if !long {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			untrack()
			cancel()
			return
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer cancel()
		defer untrack()
		if !long {
			defer func() { <-sem }()
		}
		res, rpcErr, ok := c.s.process(reqCtx, in)
		mu.Lock()
		drop := cancelled
		mu.Unlock()
		if ok && !drop {
			c.write(encodeReply(msg.ID, res, rpcErr))
		}
	}()
}

// notification handles client notifications; none is ever answered.
func (c *stdioConn) notification(msg *jsonrpc.Message) {
	switch msg.Method {
	case "notifications/initialized":
		c.sess.mu.Lock()
		c.sess.initialized = true
		c.sess.mu.Unlock()
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if jsonrpc.Unmarshal(msg.Params, &p) == nil && p.RequestID != nil {
			c.sess.cancel(p.RequestID)
		}
	}
}
