package mcp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// testLimits are HTTPLimits shortened so slow-client tests take seconds.
var testLimits = HTTPLimits{
	ReadHeaderTimeout:  300 * time.Millisecond,
	ReadTimeout:        600 * time.Millisecond,
	WriteTimeout:       time.Second,
	StreamWriteTimeout: time.Second,
	IdleTimeout:        400 * time.Millisecond,
}

// limitedServer serves the test catalog on a loopback port through
// NewHTTPServer and returns its address.
func limitedServer(t *testing.T, l HTTPLimits, g Guards, opts *HTTPOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, nil)
	if opts == nil {
		opts = &HTTPOptions{}
	}
	g.Addr = ln.Addr().String()
	opts.Guards = g
	hs := NewHTTPServer(NewHTTPHandler(s, opts), l)
	hs.ErrorLog = log.New(io.Discard, "", 0)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	t.Cleanup(func() {
		s.Close()
		hs.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve = %v", err)
		}
	})
	return ln.Addr().String()
}

const pingBody = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

// probe checks that another, well-behaved client is answered promptly.
func probe(t *testing.T, addr string) {
	t.Helper()
	// Generous bounds: the machine running the tests may be loaded; a
	// server that holds the probe behind slow clients takes far longer.
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	start := time.Now()
	resp, err := c.Post("http://"+addr+"/mcp", "application/json", strings.NewReader(pingBody))
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("probe status = %d", resp.StatusCode)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("probe took %v", d)
	}
}

// dial opens a raw connection and writes what.
func dial(t *testing.T, addr, what string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if what != "" {
		if _, err := io.WriteString(c, what); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// closedWithin reads c until the server closes it (EOF or reset) and fails
// if that takes longer than d. It returns what the server sent.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection still open after %v (got %q)", d, b)
	}
	return string(b)
}

func post(body string, extra ...string) string {
	h := "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
	for _, e := range extra {
		h += e + "\r\n"
	}
	return h + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestSlowClientsAreCutOff: a client that stalls or trickles cannot hold a
// connection past the limits, and others are answered meanwhile (H1).
func TestSlowClientsAreCutOff(t *testing.T) {
	addr := limitedServer(t, testLimits, Guards{}, nil)
	tests := []struct {
		name  string
		start string
		drip  string // written every 50ms after start
	}{
		{"slowloris headers", "POST /mcp HTTP/1.1\r\nHost: localhost\r\n", "X-A: b\r\n"},
		{"body stall", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{", ""},
		{"body trickle", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n{", " "},
		{"idle keep-alive", post(pingBody), ""},
		{"nothing sent", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := dial(t, addr, tt.start)
			if tt.drip != "" {
				go func() {
					for range 100 {
						time.Sleep(50 * time.Millisecond)
						if _, err := io.WriteString(c, tt.drip); err != nil {
							return
						}
					}
				}()
			}
			probe(t, addr)
			closedWithin(t, c, 5*time.Second)
		})
	}
}

// TestRefusedWithoutReadingBody: a wrong key or Host is answered at once,
// without waiting for a body that never comes, and the connection closes.
func TestRefusedWithoutReadingBody(t *testing.T) {
	limits := testLimits
	limits.ReadTimeout = time.Minute // the answer must not wait for it
	addr := limitedServer(t, limits, Guards{APIKey: "s3cret"}, nil)
	tests := []struct {
		name, host, hdr string
		want            string
	}{
		{"missing key", "localhost", "", "401 Unauthorized"},
		{"wrong key", "localhost", "X-API-Key: nope\r\n", "401 Unauthorized"},
		{"wrong host", "evil.example.com", "X-API-Key: s3cret\r\n", "403 Forbidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, addr, "POST /mcp HTTP/1.1\r\nHost: "+tt.host+"\r\n"+tt.hdr+"Content-Length: 1000\r\n\r\n{")
			got := closedWithin(t, c, 5*time.Second) // ReadTimeout is a minute
			if !strings.Contains(got, tt.want) || !strings.Contains(strings.ToLower(got), "connection: close") {
				t.Fatalf("reply = %q, want %s and Connection: close", got, tt.want)
			}
			if tt.want == "401 Unauthorized" && (!strings.Contains(strings.ToLower(got), "www-authenticate: bearer") || !strings.Contains(got, "X-API-Key: <key>")) {
				t.Errorf("401 does not say which header to send: %q", got)
			}
		})
	}
}

// TestManyIdleConnections: 1,000 idle connections do not lock others out,
// and at the connection cap the oldest idle one makes room.
func TestManyIdleConnections(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxConns int
	}{{"under the cap", 0}, {"at the cap", 200}} {
		t.Run(tc.name, func(t *testing.T) {
			limits := testLimits
			limits.IdleTimeout, limits.ReadHeaderTimeout = time.Minute, time.Minute
			limits.MaxConns = tc.maxConns
			addr := limitedServer(t, limits, Guards{}, nil)
			var conns []net.Conn
			defer func() {
				for _, c := range conns {
					c.Close()
				}
			}()
			for i := range 1000 {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatalf("dial %d: %v", i, err)
				}
				conns = append(conns, c)
			}
			probe(t, addr)
		})
	}
}

// TestStalledBodiesAtTheCap: connections stuck sending a body do not
// hold every slot: at the cap the oldest is closed to admit a new client,
// even long before ReadTimeout.
func TestStalledBodiesAtTheCap(t *testing.T) {
	limits := testLimits
	limits.ReadTimeout, limits.MaxConns = time.Minute, 50
	addr := limitedServer(t, limits, Guards{}, nil)
	var conns []net.Conn
	for range 50 {
		conns = append(conns, dial(t, addr, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{"))
	}
	time.Sleep(100 * time.Millisecond) // let the server see the bodies start
	probe(t, addr)
	// One of them (the oldest the server saw) made room for the probe.
	closed := make(chan bool, len(conns))
	for _, c := range conns {
		go func() {
			_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
			_, err := io.ReadAll(c)
			var ne net.Error
			closed <- !(errors.As(err, &ne) && ne.Timeout())
		}()
	}
	n := 0
	for range conns {
		if <-closed {
			n++
		}
	}
	if n == 0 {
		t.Error("no stalled connection was closed to admit the probe")
	}
}

// TestAmbiguousFraming: oversized, conflicting and chunked-plus-length
// requests are refused or answered once, and the connection is closed so
// nothing after them is read as another request (P9).
func TestAmbiguousFraming(t *testing.T) {
	addr := limitedServer(t, testLimits, Guards{}, nil)
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(pingBody), pingBody)
	second := post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	tests := []struct {
		name, req, want string
	}{
		{"CL and TE", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + second, "200 OK"},
		{"TE and CL", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n" + chunked + second, "200 OK"},
		{"two lengths", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 40\r\nContent-Length: 41\r\n\r\n" + pingBody + second, "400 Bad Request"},
		{"oversized", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 52428800\r\n\r\n" + strings.Repeat(" ", 5<<20), "413 Request Entity Too Large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, addr, "")
			go func() { _, _ = io.WriteString(c, tt.req) }()
			got := closedWithin(t, c, 3*time.Second)
			if !strings.HasPrefix(got, "HTTP/1.1 "+tt.want) {
				t.Fatalf("reply = %.200q, want %s", got, tt.want)
			}
			if n := strings.Count(got, "HTTP/1.1 "); n != 1 {
				t.Errorf("%d responses on one connection, want 1: %.400q", n, got)
			}
			probe(t, addr)
		})
	}
}

// TestStreamsOutliveReadTimeout: event streams and long calls are not cut
// by the request read deadline.
func TestStreamsOutliveReadTimeout(t *testing.T) {
	addr := limitedServer(t, testLimits, Guards{}, &HTTPOptions{Heartbeat: 100 * time.Millisecond})
	url := "http://" + addr + "/mcp"

	t.Run("slow tool call", func(t *testing.T) { // longer than WriteTimeout, too
		t.Parallel()
		resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(b), "slept") {
			t.Fatalf("slow call = %d %s, want it to finish", resp.StatusCode, b)
		}
	})
	t.Run("modern listen stream", func(t *testing.T) {
		t.Parallel()
		hdr := mh("subscriptions/listen", "")
		_, sse := openStream(t, t.Context(), "POST", url, hdr, modern(1, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`))
		if ack := sse.next(t); !strings.Contains(ack, "acknowledged") {
			t.Fatalf("first event = %s", ack)
		}
		deadline := time.Now().Add(1500 * time.Millisecond) // > 2 × ReadTimeout
		for time.Now().Before(deadline) {
			sse.next(t) // fails the test if the stream ends
		}
	})
	t.Run("legacy GET stream", func(t *testing.T) {
		t.Parallel()
		init, err := http.Post(url, "application/json", strings.NewReader(initLine))
		if err != nil {
			t.Fatal(err)
		}
		init.Body.Close()
		req, _ := http.NewRequestWithContext(t.Context(), "GET", url, nil)
		req.Header.Set("Mcp-Session-Id", init.Header.Get("Mcp-Session-Id"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		deadline := time.Now().Add(1500 * time.Millisecond) // > 2 × ReadTimeout
		br := bufio.NewReader(resp.Body)
		beats := 0
		for time.Now().Before(deadline) {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("stream ended after %d heartbeats: %v", beats, err)
			}
			if strings.HasPrefix(line, ": keepalive") {
				beats++
			}
		}
	})
}
