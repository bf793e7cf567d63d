package main_test

import (
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeRefusesBlankAPIKey: a key that trims to empty is an error, not
// a silent "no auth" (P5); an empty variable still means no key.
func TestServeRefusesBlankAPIKey(t *testing.T) {
	_, graphPath := serveFixture(t)
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"blank flag", []string{"SYNAPTIC_API_KEY=env-key"}, []string{"--api-key", "   "}, "--api-key is blank"},
		{"empty flag", nil, []string{"--api-key", ""}, "--api-key is blank"},
		{"tab in env", []string{"SYNAPTIC_API_KEY=\t"}, nil, "$SYNAPTIC_API_KEY holds only whitespace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--graph", graphPath, "--http", "127.0.0.1:0"}, tc.args...)
			code, stdout, stderr := runServe(t, serveEnv(tc.env...), args...)
			if code == 0 || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("exit %d, stderr %q, want a startup error containing %q", code, stderr, tc.want)
			}
		})
	}
}

// TestServeReadyFileParentMustBeProtected: a world-writable parent without
// the sticky bit is refused; a sticky one (like /tmp) is fine.
func TestServeReadyFileParentMustBeProtected(t *testing.T) {
	_, graphPath := serveFixture(t)
	open := filepath.Join(t.TempDir(), "open")
	sticky := filepath.Join(t.TempDir(), "sticky")
	for dir, mode := range map[string]os.FileMode{open: 0o777, sticky: 0o777 | os.ModeSticky} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
	}
	ready := filepath.Join(open, "ready.json")
	code, _, stderr := runServe(t, serveEnv(), "--graph", graphPath, "--http", "127.0.0.1:0", "--ready-file", ready)
	if code == 0 || !strings.Contains(stderr, "writable by every user") || !strings.Contains(stderr, open) {
		t.Errorf("exit %d, stderr %q, want a startup error naming the world-writable parent", code, stderr)
	}
	if _, err := os.Lstat(ready); err == nil {
		t.Error("ready file written into a world-writable directory")
	}
	s := startServe(t, serveEnv(), "--graph", graphPath, "--http", "127.0.0.1:0", "--ready-file", filepath.Join(sticky, "ready.json"))
	waitFor(t, 60*time.Second, "the ready file in a sticky directory", func() bool {
		if s.done() {
			t.Fatalf("exited: %v\n%s", s.waitErr, s.stderr.String())
		}
		_, err := os.Stat(filepath.Join(sticky, "ready.json"))
		return err == nil
	})
}

// TestServeUnauthorizedHelpsClients: a 401 says which header to send, and
// OAuth discovery probes get a 404 JSON instead of a login flow (issue 15).
func TestServeUnauthorizedHelpsClients(t *testing.T) {
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath, "--api-key", "s3cret-key")
	code, body, hdr := httpDo(t, "POST", s.mcpURL, "", []byte(legacyInit))
	var r struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil || code != 401 {
		t.Fatalf("401 = %d %q", code, body)
	}
	if !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") || !strings.Contains(r.Error.Message, "X-API-Key: <key>") || !strings.Contains(r.Error.Message, "Authorization: Bearer <key>") {
		t.Errorf("401: WWW-Authenticate %q, message %q; want both headers named", hdr.Get("WWW-Authenticate"), r.Error.Message)
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"} {
		code, body, _ := httpDo(t, "GET", s.base+path, "", nil)
		if code != 404 || !json.Valid(body) || !strings.Contains(string(body), "does not use OAuth") {
			t.Errorf("GET %s = %d %q, want a 404 JSON saying there is no OAuth", path, code, body)
		}
	}
}

// TestServeStrictJSONAndArguments: over the real binary, a message that
// reads differently to a case-insensitive parser is refused (W5), and
// integer arguments follow JSON Schema in one channel (P3).
func TestServeStrictJSONAndArguments(t *testing.T) {
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	call := func(body string) map[string]any {
		t.Helper()
		_, b, _ := httpDo(t, "POST", s.mcpURL, "", []byte(body))
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("reply %q: %v", b, err)
		}
		return m
	}
	smuggled := call(`{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call","params":{"name":"graph_stats"}}`)
	if e, _ := smuggled["error"].(map[string]any); e == nil || e["code"] != float64(-32600) {
		t.Errorf("case-variant method = %v, want -32600", smuggled)
	}
	for _, tc := range []struct {
		limit   string
		isError bool
	}{{"1", false}, {"1.0", false}, {"1.5", true}, {"9223372036854775808", true}} {
		m := call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_neighbors","arguments":{"label":"Total","limit":` + tc.limit + `}}}`)
		res, _ := m["result"].(map[string]any)
		if res == nil {
			t.Errorf("limit %s: %v, want a tool result (not a protocol error)", tc.limit, m)
			continue
		}
		if got := res["isError"] == true; got != tc.isError {
			t.Errorf("limit %s: isError = %v, want %v (%v)", tc.limit, got, tc.isError, res["content"])
		}
	}
}

// TestServeSlowClientsAgainstBinary: against the real binary with its
// default limits, a stalled unauthenticated body is answered 401 at once
// and the connection closed, while other clients are served.
func TestServeSlowClientsAgainstBinary(t *testing.T) {
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath, "--api-key", "k")
	var stalled []net.Conn
	for range 200 {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-API-Key: k\r\nContent-Length: 100\r\n\r\n{")
		stalled = append(stalled, c)
	}
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil || !strings.HasPrefix(string(got), "HTTP/1.1 401") {
		t.Errorf("unauthenticated stalled body: %q, %v; want a 401 and the connection closed", got, err)
	}
	if code, _, _ := httpDo(t, "POST", s.mcpURL, "", []byte(legacyInit), "X-API-Key", "k"); code != 200 {
		t.Errorf("a well-behaved client beside %d stalled ones got %d", len(stalled), code)
	}
}
