package main_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests run the real `synaptic serve` against a graph extracted by
// the real `synaptic extract`, and talk to it with real MCP clients (the Go
// SDK here, the TypeScript SDK through .ci/ts-client.sh) and raw HTTP /
// JSON-RPC lines for the guards.

// syncBuffer collects a child's stderr while the test polls it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond every 10ms until it holds or timeout passes.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// serveEnv is the environment for a serve child: none of the variables
// that change serve's behaviour leak in from the caller, plus extra.
func serveEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "SYNAPTIC_API_KEY", "SYNAPTIC_CONCISE", "SYNAPTIC_SERVE_WATCH", "SYNAPTIC_PLUGINS", "SYNAPTIC_SERVE_AUTOFRESH", "SYNAPTIC_CATALOG":
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "SYNAPTIC_PLUGINS="), extra...)
}

// serveFixture extracts fixtureRepo into a fresh directory and returns the
// repository root and its synaptic-out/graph.json.
func serveFixture(t *testing.T) (root, graphPath string) {
	t.Helper()
	needBin(t)
	root = t.TempDir()
	write(t, root, fixtureRepo)
	cmd := exec.Command(bin, "extract", ".")
	cmd.Dir, cmd.Env = root, serveEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("synaptic extract: %v\n%s", err, out)
	}
	return root, filepath.Join(root, "synaptic-out", "graph.json")
}

// httpServer is a running `synaptic serve --http`.
type httpServer struct {
	cmd     *exec.Cmd
	stderr  *syncBuffer
	addr    string // host:port from the ready file
	mcpURL  string
	base    string // http://addr
	exited  chan struct{}
	waitErr error
}

// startServe starts `synaptic serve args...` and returns when it has
// exited or published ready (whichever comes first); it is stopped with
// SIGTERM at cleanup.
func startServe(t testing.TB, env []string, args ...string) *httpServer {
	t.Helper()
	return startServeIn(t, env, nil, args...)
}

// startServeIn is startServe with this stdin (nil: /dev/null).
func startServeIn(t testing.TB, env []string, stdin io.Reader, args ...string) *httpServer {
	t.Helper()
	s := launchServe(t, env, stdin, args...)
	t.Cleanup(func() { s.stop(t) })
	return s
}

// launchServe starts the process; the caller stops it.
func launchServe(t testing.TB, env []string, stdin io.Reader, args ...string) *httpServer {
	t.Helper()
	s := &httpServer{stderr: &syncBuffer{}, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, append([]string{"serve"}, args...)...)
	s.cmd.Env, s.cmd.Stdin = env, stdin
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.waitErr = s.cmd.Wait(); close(s.exited) }()
	return s
}

func (s *httpServer) stop(t testing.TB) {
	select {
	case <-s.exited:
		return
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		t.Errorf("synaptic serve ignored SIGTERM for 15s\nstderr:\n%s", s.stderr.String())
	}
}

func (s *httpServer) done() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// startHTTP starts `synaptic serve --http 127.0.0.1:0 --ready-file …`
// (args may override --http) and waits for the ready file.
func startHTTP(t testing.TB, env []string, args ...string) *httpServer {
	t.Helper()
	return startHTTPWithin(t, t, 60*time.Second, env, args...)
}

// startHTTPWithin is startHTTP with a startup timeout; the server lives
// until owner's cleanup (owner may be a parent benchmark of t).
func startHTTPWithin(t, owner testing.TB, timeout time.Duration, env []string, args ...string) *httpServer {
	t.Helper()
	if !slices.Contains(args, "--http") {
		args = append(args, "--http", "127.0.0.1:0")
	}
	ready := filepath.Join(t.TempDir(), "ready.json")
	s := launchServe(t, env, nil, append(args, "--ready-file", ready)...)
	owner.Cleanup(func() { s.stop(owner) })
	var data []byte
	waitFor(t, timeout, "the ready file", func() bool {
		if s.done() {
			t.Fatalf("synaptic serve exited before ready: %v\nstderr:\n%s", s.waitErr, s.stderr.String())
		}
		var err error
		data, err = os.ReadFile(ready)
		return err == nil
	})
	var r struct {
		Address string `json:"address"`
		MCPURL  string `json:"mcp_url"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("ready file %q: %v", data, err)
	}
	s.addr, s.mcpURL = r.Address, r.MCPURL
	// A wildcard bind publishes the wildcard address; talk to loopback.
	host, port, err := net.SplitHostPort(r.Address)
	if err != nil {
		t.Fatalf("ready file address %q: %v", r.Address, err)
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		s.addr = net.JoinHostPort("127.0.0.1", port)
		s.mcpURL = "http://" + s.addr + "/mcp"
	}
	s.base = "http://" + s.addr
	// Stderr reaches the buffer through a copying goroutine, and the
	// banner follows the ready file: wait for it, and so for every
	// startup line before it (the wildcard warning among them).
	waitFor(t, timeout, "the ready banner on stderr", func() bool {
		return strings.Contains(s.stderr.String(), "[synaptic] MCP server ready on ")
	})
	return s
}

var serveEras = []struct{ name, version, want string }{
	{"modern", "", "2026-07-28"},
	{"legacy", "2025-11-25", "2025-11-25"},
}

func connectSDK(t testing.TB, tr sdk.Transport, version string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "synaptic-e2e", Version: "0"}, nil)
	cs, err := c.Connect(ctx, tr, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("Connect(%q): %v", version, err)
	}
	return cs
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func callTool(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s %v: %v", name, args, err)
	}
	return res
}

func rpcCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}

var (
	wantTools = []string{
		"graph_stats", "get_node", "get_neighbors", "get_community", "god_nodes", "get_source",
		"shortest_path", "affected", "find_callers", "find_callees", "find_references",
		"describe_node", "list_repos", "repo_stats", "query_graph",
	}
	wantResources = []string{
		"synaptic://report", "synaptic://stats", "synaptic://god-nodes",
		"synaptic://surprises", "synaptic://audit", "synaptic://questions",
	}
	wantTemplates = []string{"synaptic://node/{label}", "synaptic://community/{id}"}
	wantPrompts   = []string{"onboard", "explain_subsystem", "assess_pr", "trace_flow"}
)

// exerciseSession runs the same client-visible checks on any transport and
// era: the negotiated version, the lists, the graph tools on the fixture,
// a resource, completion, a prompt and the two kinds of failure.
func exerciseSession(t *testing.T, cs *sdk.ClientSession, wantVersion string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	init := cs.InitializeResult()
	if init == nil || init.ProtocolVersion != wantVersion {
		t.Fatalf("negotiated %+v, want protocol %s", init, wantVersion)
	}
	if init.ServerInfo == nil || init.ServerInfo.Name != "synaptic" {
		t.Errorf("serverInfo = %+v, want name synaptic", init.ServerInfo)
	}

	tl, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range tl.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint || !a.IdempotentHint {
			t.Errorf("tool %s annotations = %+v, want read-only, non-destructive, idempotent", tool.Name, a)
		}
		if tool.InputSchema == nil {
			t.Errorf("tool %s has no inputSchema", tool.Name)
		}
	}
	for _, w := range wantTools {
		if !slices.Contains(names, w) {
			t.Errorf("tools/list lacks %s: %v", w, names)
		}
	}
	if slices.Contains(names, "speculate") {
		t.Error("speculate advertised without --allow-exec")
	}

	rl, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	var uris []string
	for _, r := range rl.Resources {
		uris = append(uris, r.URI)
	}
	for _, w := range wantResources {
		if !slices.Contains(uris, w) {
			t.Errorf("resources/list lacks %s: %v", w, uris)
		}
	}
	tpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatalf("resources/templates/list: %v", err)
	}
	var tpls []string
	for _, r := range tpl.ResourceTemplates {
		tpls = append(tpls, r.URITemplate)
	}
	for _, w := range wantTemplates {
		if !slices.Contains(tpls, w) {
			t.Errorf("resources/templates/list lacks %s: %v", w, tpls)
		}
	}
	pl, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	var prompts []string
	for _, p := range pl.Prompts {
		prompts = append(prompts, p.Name)
	}
	for _, w := range wantPrompts {
		if !slices.Contains(prompts, w) {
			t.Errorf("prompts/list lacks %s: %v", w, prompts)
		}
	}

	for _, tc := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"find_callers", map[string]any{"label": "WithTax"}, []string{"Total", "cart/cart.go"}},
		{"find_callers", map[string]any{"label": "money@tools/fmt.py"}, []string{"render"}},
		{"get_node", map[string]any{"label": "WithTax"}, []string{"WithTax", "price/price.go"}},
		{"get_source", map[string]any{"label": "WithTax"}, []string{"func WithTax(cents int) int"}},
		{"get_source", map[string]any{"file": "price/price.go", "lines": "8"}, []string{"func round(x int) int"}},
		{"query_graph", map[string]any{"question": "how is the cart total computed with tax"}, []string{"Total"}},
		{"graph_stats", map[string]any{}, []string{"nodes"}},
	} {
		res := callTool(t, cs, tc.tool, tc.args)
		text := resultText(res)
		if res.IsError {
			t.Errorf("%s %v: isError: %s", tc.tool, tc.args, text)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v lacks %q:\n%s", tc.tool, tc.args, w, text)
			}
		}
	}

	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "synaptic://stats"})
	if err != nil {
		t.Fatalf("resources/read synaptic://stats: %v", err)
	}
	if len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "nodes") {
		t.Errorf("synaptic://stats = %+v, want one text with node counts", rr.Contents)
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "synaptic://nope"}); err == nil {
		t.Error("resources/read synaptic://nope succeeded")
	}

	cr, err := cs.Complete(ctx, &sdk.CompleteParams{
		Ref:      &sdk.CompleteReference{Type: "ref/resource", URI: "synaptic://node/{label}"},
		Argument: sdk.CompleteParamsArgument{Name: "label", Value: "with"},
	})
	if err != nil {
		t.Fatalf("completion/complete: %v", err)
	}
	if !slices.Contains(cr.Completion.Values, "WithTax()") {
		t.Errorf("completion of label %q = %+v, want WithTax()", "with", cr.Completion)
	}

	gp, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "explain_subsystem", Arguments: map[string]string{"topic": "cart totals"}})
	if err != nil {
		t.Fatalf("prompts/get explain_subsystem: %v", err)
	}
	if len(gp.Messages) == 0 {
		t.Error("prompts/get explain_subsystem: no messages")
	}

	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
	if err == nil || rpcCode(err) != -32602 {
		t.Errorf("unknown tool: err = %v (code %d), want a -32602 error", err, rpcCode(err))
	}
	for _, args := range []map[string]any{
		{"label": 42}, // wrong type
		{},            // missing required label
		{"label": "WithTax", "limit": "ten"},
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "find_callers", Arguments: args})
		if err != nil {
			t.Errorf("find_callers %v: protocol error %v, want an isError result", args, err)
			continue
		}
		if !res.IsError || resultText(res) == "" {
			t.Errorf("find_callers %v: isError=%v %q, want an isError result with a message", args, res.IsError, resultText(res))
		}
	}
	res := callTool(t, cs, "get_node", map[string]any{"label": "NoSuchSymbolAnywhere"})
	if !res.IsError {
		t.Errorf("get_node of an unknown label: not isError: %s", resultText(res))
	}
}

func TestServeStdioGoSDK(t *testing.T) {
	_, graphPath := serveFixture(t)
	for _, era := range serveEras {
		t.Run(era.name, func(t *testing.T) {
			stderr := &syncBuffer{}
			cmd := exec.Command(bin, "serve", "--graph", graphPath)
			cmd.Env, cmd.Stderr = serveEnv(), stderr
			cs := connectSDK(t, &sdk.CommandTransport{Command: cmd, TerminateDuration: 20 * time.Second}, era.version)
			exerciseSession(t, cs, era.want)
			start := time.Now()
			if err := cs.Close(); err != nil {
				t.Errorf("closing stdin: server exit = %v\nstderr:\n%s", err, stderr.String())
			}
			if d := time.Since(start); d >= 20*time.Second {
				t.Errorf("server needed SIGTERM to exit after EOF (%v)", d)
			}
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("exit code %d after EOF, want 0", code)
			}
			if !strings.Contains(stderr.String(), "[synaptic] MCP server ready on stdio") {
				t.Errorf("stderr lacks the ready line:\n%s", stderr.String())
			}
		})
	}
}

func TestServeHTTPGoSDK(t *testing.T) {
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	if !strings.HasPrefix(s.addr, "127.0.0.1:") || strings.HasSuffix(s.addr, ":0") {
		t.Errorf("ready address %q, want 127.0.0.1 with the bound port", s.addr)
	}
	if s.mcpURL != "http://"+s.addr+"/mcp" {
		t.Errorf("mcp_url %q, want http://%s/mcp", s.mcpURL, s.addr)
	}
	if want := "[synaptic] MCP server ready on " + s.mcpURL; !strings.Contains(s.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, s.stderr.String())
	}
	for _, era := range serveEras {
		t.Run(era.name, func(t *testing.T) {
			cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, era.version)
			defer cs.Close()
			exerciseSession(t, cs, era.want)
		})
	}
}

// httpDo sends one request with an optional Host and header pairs.
func httpDo(t *testing.T, method, url, host string, body []byte, headers ...string) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

const legacyInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"0"}}}`

// guardStatus is the status of both an MCP initialize and a REST call.
func guardStatus(t *testing.T, s *httpServer, host string, headers ...string) (mcpStatus, restStatus int) {
	t.Helper()
	mcpStatus, _, _ = httpDo(t, "POST", s.mcpURL, host, []byte(legacyInit), headers...)
	restStatus, _, _ = httpDo(t, "GET", s.base+"/api/stats", host, nil, headers...)
	return mcpStatus, restStatus
}

func TestServeAuth(t *testing.T) {
	_, graphPath := serveFixture(t)

	t.Run("flag", func(t *testing.T) {
		s := startHTTP(t, serveEnv(), "--graph", graphPath, "--api-key", "s3cret-key")
		for _, tc := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"missing", nil, 401},
			{"x-api-key", []string{"X-API-Key", "s3cret-key"}, 200},
			{"x-api-key wrong", []string{"X-API-Key", "s3cret-kez"}, 401},
			{"x-api-key prefix", []string{"X-API-Key", "s3cret"}, 401},
			{"bearer", []string{"Authorization", "Bearer s3cret-key"}, 200},
			{"bearer lower", []string{"Authorization", "bearer s3cret-key"}, 200},
			{"bearer upper", []string{"Authorization", "BEARER s3cret-key"}, 200},
			{"bearer mixed", []string{"Authorization", "bEaReR s3cret-key"}, 200},
			{"bearer wrong", []string{"Authorization", "Bearer nope"}, 401},
			{"bearer empty", []string{"Authorization", "Bearer "}, 401},
			{"basic scheme", []string{"Authorization", "Basic s3cret-key"}, 401},
		} {
			t.Run(tc.name, func(t *testing.T) {
				m, r := guardStatus(t, s, "", tc.headers...)
				if m != tc.want || r != tc.want {
					t.Errorf("POST /mcp = %d, GET /api/stats = %d, want %d", m, r, tc.want)
				}
			})
		}
	})

	for _, tc := range []struct {
		name    string
		env     []string
		args    []string
		allowed [][]string // header pairs that must pass
		denied  [][]string // header pairs that must get 401
	}{
		{
			name:    "env used without flag",
			env:     []string{"SYNAPTIC_API_KEY=env-key"},
			allowed: [][]string{{"X-API-Key", "env-key"}, {"Authorization", "Bearer env-key"}},
			denied:  [][]string{nil, {"X-API-Key", "flag-key"}},
		},
		{
			name:    "flag wins over env",
			env:     []string{"SYNAPTIC_API_KEY=env-key"},
			args:    []string{"--api-key", "flag-key"},
			allowed: [][]string{{"X-API-Key", "flag-key"}},
			denied:  [][]string{nil, {"X-API-Key", "env-key"}, {"Authorization", "Bearer env-key"}},
		},
		{
			name:    "blank env disables auth",
			env:     []string{"SYNAPTIC_API_KEY="},
			allowed: [][]string{nil},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startHTTP(t, serveEnv(tc.env...), append([]string{"--graph", graphPath}, tc.args...)...)
			for _, h := range tc.allowed {
				if m, r := guardStatus(t, s, "", h...); m != 200 || r != 200 {
					t.Errorf("headers %q: POST /mcp = %d, GET /api/stats = %d, want 200", h, m, r)
				}
			}
			for _, h := range tc.denied {
				if m, r := guardStatus(t, s, "", h...); m != 401 || r != 401 {
					t.Errorf("headers %q: POST /mcp = %d, GET /api/stats = %d, want 401", h, m, r)
				}
			}
		})
	}
}

func TestServeHostAllowlist(t *testing.T) {
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	_, port, _ := net.SplitHostPort(s.addr)
	for _, tc := range []struct {
		host string
		want int
	}{
		{"evil.example", 403},
		{"evil.example:" + port, 403},
		{"127.0.0.2:" + port, 403},
		{"localhost.evil.example", 403},
		{"localhost", 200},
		{"localhost:" + port, 200},
		{"LOCALHOST:" + port, 200},
		{"127.0.0.1", 200},
		{"127.0.0.1:" + port, 200},
		{"[::1]", 200},
		{"[::1]:" + port, 200},
	} {
		t.Run(tc.host, func(t *testing.T) {
			if m, r := guardStatus(t, s, tc.host); m != tc.want || r != tc.want {
				t.Errorf("Host %s: POST /mcp = %d, GET /api/stats = %d, want %d", tc.host, m, r, tc.want)
			}
		})
	}
}

func TestServeWildcardBind(t *testing.T) {
	_, graphPath := serveFixture(t)
	const warning = "warning: listening on all interfaces"
	for _, tc := range []struct {
		name        string
		args        []string
		warn        bool
		headers     []string
		evilAllowed bool // the Host allowlist is off on a wildcard bind
	}{
		{"without key", nil, true, nil, true},
		{"with key", []string{"--api-key", "k"}, false, []string{"X-API-Key", "k"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startHTTP(t, serveEnv(), append([]string{"--graph", graphPath, "--http", "0.0.0.0:0"}, tc.args...)...)
			if got := strings.Contains(s.stderr.String(), warning); got != tc.warn {
				t.Errorf("warning printed = %v, want %v; stderr:\n%s", got, tc.warn, s.stderr.String())
			}
			if m, r := guardStatus(t, s, "", tc.headers...); m != 200 || r != 200 {
				t.Errorf("loopback: POST /mcp = %d, GET /api/stats = %d, want 200", m, r)
			}
			if m, _ := guardStatus(t, s, "evil.example", tc.headers...); (m == 200) != tc.evilAllowed {
				t.Errorf("Host evil.example on a wildcard bind: POST /mcp = %d", m)
			}
		})
	}
}

// runServe runs `synaptic serve args...` to completion with stdin closed
// and returns its exit code, stdout and stderr.
func runServe(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("synaptic serve %v did not exit\nstderr:\n%s", args, stderr.String())
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

func TestServeReadyFile(t *testing.T) {
	_, graphPath := serveFixture(t)

	t.Run("mode and contents", func(t *testing.T) {
		dir := t.TempDir()
		ready := filepath.Join(dir, "ready.json")
		s := startServe(t, serveEnv(), "--graph", graphPath, "--http", "127.0.0.1:0", "--ready-file", ready)
		var st os.FileInfo
		waitFor(t, 60*time.Second, "the ready file", func() bool {
			if s.done() {
				t.Fatalf("exited: %v\n%s", s.waitErr, s.stderr.String())
			}
			var err error
			st, err = os.Stat(ready)
			return err == nil
		})
		if st.Mode().Perm() != 0o600 {
			t.Errorf("ready file mode %v, want 0600", st.Mode().Perm())
		}
		var r map[string]string
		if err := json.Unmarshal(read(t, ready), &r); err != nil {
			t.Fatalf("ready file: %v", err)
		}
		if len(r) != 2 || r["address"] == "" || r["mcp_url"] != "http://"+r["address"]+"/mcp" {
			t.Errorf("ready file = %v, want exactly {address, mcp_url=http://address/mcp}", r)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("ready directory holds %d entries, want only ready.json (no temporary left)", len(entries))
		}
	})

	t.Run("race-free with port 0", func(t *testing.T) {
		// Several servers on :0 at once: each ready file names its own
		// bound port, and the server answers as soon as the file exists.
		const n = 3
		servers := make([]*httpServer, n)
		var wg sync.WaitGroup
		for i := range servers {
			wg.Go(func() { servers[i] = startHTTP(t, serveEnv(), "--graph", graphPath) })
		}
		wg.Wait()
		ports := map[string]bool{}
		for _, s := range servers {
			_, port, _ := net.SplitHostPort(s.addr)
			if port == "0" || ports[port] {
				t.Errorf("ready port %q is zero or shared", port)
			}
			ports[port] = true
			if code, _, _ := httpDo(t, "GET", s.base+"/api/stats", "", nil); code != 200 {
				t.Errorf("GET /api/stats right after the ready file = %d", code)
			}
		}
	})

	t.Run("never overwrites", func(t *testing.T) {
		ready := filepath.Join(t.TempDir(), "ready.json")
		os.WriteFile(ready, []byte("precious"), 0o644)
		code, stdout, stderr := runServe(t, serveEnv(), "--graph", graphPath, "--http", "127.0.0.1:0", "--ready-file", ready)
		if code == 0 || !strings.Contains(stderr, "already exists") || stdout != "" {
			t.Errorf("exit %d, stderr %q, want a startup error saying the file exists", code, stderr)
		}
		if got := string(read(t, ready)); got != "precious" {
			t.Errorf("existing ready file rewritten: %q", got)
		}
	})

	t.Run("dangling symlink is not followed", func(t *testing.T) {
		dir := t.TempDir()
		ready, target := filepath.Join(dir, "ready.json"), filepath.Join(dir, "target.json")
		os.Symlink(target, ready)
		code, _, stderr := runServe(t, serveEnv(), "--graph", graphPath, "--http", "127.0.0.1:0", "--ready-file", ready)
		if code == 0 || !strings.Contains(stderr, "already exists") {
			t.Errorf("exit %d, stderr %q, want a startup error", code, stderr)
		}
		if _, err := os.Stat(target); err == nil {
			t.Error("ready file written through a symlink")
		}
	})

	t.Run("parent must exist", func(t *testing.T) {
		ready := filepath.Join(t.TempDir(), "no", "such", "ready.json")
		code, _, stderr := runServe(t, serveEnv(), "--graph", graphPath, "--http", "127.0.0.1:0", "--ready-file", ready)
		if code == 0 || !strings.Contains(stderr, "parent directory") {
			t.Errorf("exit %d, stderr %q, want a startup error about the parent directory", code, stderr)
		}
	})

	t.Run("requires --http", func(t *testing.T) {
		ready := filepath.Join(t.TempDir(), "ready.json")
		code, _, stderr := runServe(t, serveEnv(), "--graph", graphPath, "--ready-file", ready)
		if code == 0 || !strings.Contains(stderr, "--ready-file requires --http") {
			t.Errorf("exit %d, stderr %q, want a usage error", code, stderr)
		}
		if _, err := os.Stat(ready); err == nil {
			t.Error("ready file written in stdio mode")
		}
	})
}

func TestServeGraphPinAndStartupErrors(t *testing.T) {
	_, graphPath := serveFixture(t)
	data := read(t, graphPath)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	wrong := strings.Repeat("ab", 32)
	dir := t.TempDir()
	truncated := filepath.Join(dir, "truncated", "graph.json")
	notJSON := filepath.Join(dir, "notjson", "graph.json")
	empty := filepath.Join(dir, "empty", "graph.json")
	missing := filepath.Join(dir, "missing", "synaptic-out", "graph.json")
	write(t, dir, map[string]string{
		"truncated/graph.json": string(data[:len(data)/2]),
		"notjson/graph.json":   "this is not JSON\n",
		"empty/graph.json":     "",
	})
	const readyLine = "[synaptic] MCP server ready on stdio"
	for _, tc := range []struct {
		name    string
		args    []string
		ok      bool
		wantErr []string
	}{
		{"correct digest", []string{"--graph", graphPath, "--immutable-graph", "--expected-graph-sha256", digest}, true, nil},
		{"correct digest upper case", []string{"--graph", graphPath, "--immutable-graph", "--expected-graph-sha256", strings.ToUpper(digest)}, true, nil},
		{"digest mismatch", []string{"--graph", graphPath, "--immutable-graph", "--expected-graph-sha256", wrong},
			false, []string{"refusing to start", digest, wrong}},
		{"digest not hex length", []string{"--graph", graphPath, "--immutable-graph", "--expected-graph-sha256", "abc"},
			false, []string{"64 hex"}},
		{"digest without --immutable-graph", []string{"--graph", graphPath, "--expected-graph-sha256", digest},
			false, []string{"--expected-graph-sha256 requires --immutable-graph"}},
		{"missing graph", []string{"--graph", missing}, false, []string{missing, "not found", "synaptic extract"}},
		{"truncated graph", []string{"--graph", truncated}, false, []string{truncated, "synaptic extract"}},
		{"non-JSON graph", []string{"--graph", notJSON}, false, []string{notJSON, "synaptic extract"}},
		{"empty graph", []string{"--graph", empty}, false, []string{empty, "synaptic extract"}},
		// A flag that could not do what it says is refused, never accepted
		// silently (the positive --watch tests are in watch_e2e_test.go).
		{"--watch with a pinned graph", []string{"--graph", graphPath, "--watch", "--immutable-graph"}, false, []string{"--watch", "--immutable-graph"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runServe(t, serveEnv(), tc.args...)
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if tc.ok {
				if code != 0 || strings.TrimSpace(stderr) != readyLine {
					t.Errorf("exit %d, stderr %q: want a clean start (ready line) and exit 0 on EOF", code, stderr)
				}
				return
			}
			if code == 0 || strings.Contains(stderr, "ready") {
				t.Errorf("exit %d, stderr %q: want a refusal to start", code, stderr)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 3 {
				t.Errorf("startup error is not short and clear:\n%s", stderr)
			}
		})
	}
}

func TestServeHotReload(t *testing.T) {
	root, graphPath := serveFixture(t)
	// Auto-freshen would repair the half-written graph.json below from
	// the source; this test is about reloading the file itself.
	live := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH=0"), "--graph", graphPath)
	pinned := startHTTP(t, serveEnv(), "--graph", graphPath, "--immutable-graph")
	liveCS := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: live.mcpURL, MaxRetries: -1}, "")
	defer liveCS.Close()
	pinnedCS := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: pinned.mcpURL, MaxRetries: -1}, "")
	defer pinnedCS.Close()
	has := func(cs *sdk.ClientSession, label string) bool {
		return !callTool(t, cs, "get_node", map[string]any{"label": label}).IsError
	}
	if !has(liveCS, "WithTax") || has(liveCS, "Discount") {
		t.Fatal("fixture graph not as expected")
	}

	// A half-written graph.json never replaces the serving graph.
	good := read(t, graphPath)
	if err := os.WriteFile(graphPath, good[:len(good)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the reload failure on stderr", func() bool {
		return strings.Contains(live.stderr.String(), "still serving the previous graph")
	})
	if !strings.Contains(live.stderr.String(), graphPath) {
		t.Errorf("reload diagnostic does not name the file:\n%s", live.stderr.String())
	}
	if !has(liveCS, "WithTax") {
		t.Error("after an invalid graph.json the old graph is no longer served")
	}

	// A valid changed graph is swapped in.
	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	cmd := exec.Command(bin, "extract", ".")
	cmd.Dir, cmd.Env = root, serveEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("re-extract: %v\n%s", err, out)
	}
	waitFor(t, 10*time.Second, "the live server to serve the new graph", func() bool { return has(liveCS, "Discount") })
	// The message follows the swap, so a client may see the new graph a
	// moment before stderr says so.
	waitFor(t, 5*time.Second, "the reload message on stderr", func() bool {
		return strings.Contains(live.stderr.String(), "graph reloaded")
	})
	callers := resultText(callTool(t, liveCS, "find_callers", map[string]any{"label": "WithTax"}))
	if !strings.Contains(callers, "Discount") {
		t.Errorf("reloaded graph lacks the new edge:\n%s", callers)
	}

	// --immutable-graph: the same changes went unnoticed. The live server
	// has already seen both; give the pinned one two more watcher periods.
	deadline := time.Now().Add(2500 * time.Millisecond)
	for time.Now().Before(deadline) {
		if has(pinnedCS, "Discount") || !has(pinnedCS, "WithTax") {
			t.Fatal("--immutable-graph server changed its graph")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if strings.Contains(pinned.stderr.String(), "reload") {
		t.Errorf("--immutable-graph server reports reloads:\n%s", pinned.stderr.String())
	}
}

func TestServeREST(t *testing.T) {
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath, "--api-key", "rest-key")
	for _, tc := range []struct {
		path   string
		status int
		want   string // substring of "text" (or "error" for 400)
	}{
		{"/api/stats", 200, "nodes"},
		{"/api/god-nodes?top_n=3", 200, "1."},
		{"/api/god-nodes?top_n=three", 400, "top_n"},
		{"/api/node/WithTax", 200, "price/price.go"},
		{"/api/node/WithTax@price/price.go", 200, "price/price.go"}, // a copy-ready qualifier, slash unescaped
		{"/api/node/WithTax@price%2Fprice.go", 200, "price/price.go"},
		{"/api/node/NoSuchSymbolAnywhere", 404, "NoSuchSymbolAnywhere"},
		{"/api/query?q=cart+total+tax", 200, "Total"},
		{"/api/query?q=cart&token_budget=200", 200, "Cart"},
		{"/api/query", 400, "missing q"},
		{"/api/query?q=%20", 400, "missing q"},
		{"/api/repos", 200, ""},
	} {
		t.Run(tc.path, func(t *testing.T) {
			code, body, hdr := httpDo(t, "GET", s.base+tc.path, "", nil, "X-API-Key", "rest-key")
			if code != tc.status {
				t.Fatalf("status %d, want %d: %s", code, tc.status, body)
			}
			if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			var m map[string]string
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("body %q: %v", body, err)
			}
			key := "text"
			if tc.status == 400 {
				key = "error"
			}
			v, ok := m[key]
			if !ok || len(m) != 1 {
				t.Fatalf("body %s, want exactly {%q: …}", body, key)
			}
			if tc.status == 200 && strings.TrimSpace(v) == "" {
				t.Errorf("empty text")
			}
			if !strings.Contains(v, tc.want) {
				t.Errorf("%s lacks %q: %s", key, tc.want, v)
			}
			if code, _, _ := httpDo(t, "GET", s.base+tc.path, "", nil); code != 401 {
				t.Errorf("without the key: status %d, want 401", code)
			}
			if code, _, _ := httpDo(t, "GET", s.base+tc.path, "evil.example", nil, "X-API-Key", "rest-key"); code != 403 {
				t.Errorf("foreign Host: status %d, want 403", code)
			}
		})
	}
}

func TestServeGetSourceJail(t *testing.T) {
	root, graphPath := serveFixture(t)
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.txt": "TOPSECRET outside the root\n"})
	for link, target := range map[string]string{
		"inside_link.go": filepath.Join("price", "price.go"),
		"escape.txt":     filepath.Join(outside, "secret.txt"),
		"escapedir":      outside,
		"price/up":       "..",
		"updir":          "..",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	relOutside, err := filepath.Rel(root, filepath.Join(outside, "secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--graph", graphPath)
	cmd.Env = serveEnv()
	cs := connectSDK(t, &sdk.CommandTransport{Command: cmd}, "")
	defer cs.Close()
	for _, tc := range []struct {
		name string
		args map[string]any
		ok   bool
		want string
	}{
		{"dotdot relative", map[string]any{"file": relOutside}, false, "outside"},
		{"dotdot inside path", map[string]any{"file": "price/../../x.go"}, false, "outside"},
		{"dotdot backslash", map[string]any{"file": `price\..\..\x.go`}, false, "outside"},
		{"absolute outside", map[string]any{"file": filepath.Join(outside, "secret.txt")}, false, "outside"},
		{"absolute /etc/passwd", map[string]any{"file": "/etc/passwd"}, false, "outside"},
		{"absolute missing outside", map[string]any{"file": "/nonexistent/x.go"}, false, "outside"},
		{"symlink file escaping", map[string]any{"file": "escape.txt"}, false, "outside"},
		{"symlink dir escaping", map[string]any{"file": "escapedir/secret.txt"}, false, "outside"},
		{"symlink to parent", map[string]any{"file": "updir/" + filepath.Base(outside) + "/secret.txt"}, false, "outside"},
		{"not found", map[string]any{"file": "price/nope.go"}, false, "not found"},
		{"symlink inside root", map[string]any{"file": "inside_link.go", "lines": "6"}, true, "func WithTax"},
		{"symlinked dir inside root", map[string]any{"file": "price/up/price/price.go", "lines": "6"}, true, "func WithTax"},
		{"absolute inside root", map[string]any{"file": filepath.Join(root, "price", "price.go"), "lines": "6"}, true, "func WithTax"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, cs, "get_source", tc.args)
			text := resultText(res)
			if res.IsError == tc.ok {
				t.Errorf("isError = %v, want %v: %s", res.IsError, !tc.ok, text)
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("text lacks %q: %s", tc.want, text)
			}
			if strings.Contains(text, "TOPSECRET") {
				t.Errorf("jail leaked the file outside the root: %s", text)
			}
		})
	}
}

// TestServeStdioWire drives the stdio server with raw lines: only JSON-RPC
// on stdout (one response per request, none per notification), blank lines
// ignored, -32700 for malformed JSON, diagnostics on stderr, exit 0 on EOF.
func TestServeStdioWire(t *testing.T) {
	_, graphPath := serveFixture(t)
	cmd := exec.Command(bin, "serve", "--graph", graphPath)
	cmd.Env = serveEnv()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var (
		mu    sync.Mutex
		lines []string
	)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
		}
	}()
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatalf("write %q: %v", s, err)
		}
	}
	type msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	// byID waits for the response with this raw id.
	byID := func(id string) msg {
		t.Helper()
		var found msg
		waitFor(t, 30*time.Second, "the response to id "+id, func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, l := range lines {
				var m msg
				if json.Unmarshal([]byte(l), &m) == nil && string(m.ID) == id {
					found = m
					return true
				}
			}
			return false
		})
		return found
	}

	send("")
	send("   \t")
	send(legacyInit)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send("{this is not json")
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	send("")
	send(`{"jsonrpc":"2.0","id":"three","method":"ping"}`)
	send(`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`)
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_node","arguments":{"label":"WithTax"}}}`)

	if m := byID("1"); m.Error != nil || !strings.Contains(string(m.Result), `"2025-11-25"`) {
		t.Errorf("initialize: %+v %s", m.Error, m.Result)
	}
	if m := byID("null"); m.Error == nil || m.Error.Code != -32700 {
		t.Errorf("malformed JSON: %+v, want -32700", m.Error)
	}
	if m := byID("2"); m.Error != nil || !strings.Contains(string(m.Result), "find_callers") {
		t.Errorf("tools/list: %+v", m.Error)
	}
	if m := byID(`"three"`); m.Error != nil {
		t.Errorf("ping: %+v", m.Error)
	}
	if m := byID("4"); m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("unknown method: %+v, want -32601", m.Error)
	}
	if m := byID("5"); m.Error != nil || !strings.Contains(string(m.Result), "price/price.go") {
		t.Errorf("get_node: %+v %s", m.Error, m.Result)
	}

	// A reload diagnostic goes to stderr while the session is live.
	if err := os.WriteFile(graphPath, []byte(`{"nodes": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "a reload diagnostic on stderr", func() bool {
		return strings.Contains(stderr.String(), "still serving the previous graph")
	})
	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"find_callers","arguments":{"label":"WithTax"}}}`)
	if m := byID("6"); m.Error != nil || !strings.Contains(string(m.Result), "Total") {
		t.Errorf("after a failed reload: %+v %s", m.Error, m.Result)
	}

	stdin.Close()
	<-readDone
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit on EOF: %v\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no exit 15s after EOF")
	}

	mu.Lock()
	defer mu.Unlock()
	ids := map[string]int{}
	for _, l := range lines {
		var m msg
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
			t.Errorf("stdout line is not JSON-RPC 2.0: %q", l)
			continue
		}
		ids[string(m.ID)]++
	}
	want := map[string]int{"1": 1, "null": 1, "2": 1, `"three"`: 1, "4": 1, "5": 1, "6": 1}
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("responses by id = %v, want exactly %v (one per request, none for blank lines or notifications)", ids, want)
	}
	errLines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
	if errLines[0] != "[synaptic] MCP server ready on stdio" {
		t.Errorf("first stderr line %q, want the ready line", errLines[0])
	}
	for _, l := range errLines[1:] {
		if !strings.HasPrefix(l, "[synaptic] graph reload") {
			t.Errorf("unexpected stderr line %q", l)
		}
	}
}

func TestServeSIGTERM(t *testing.T) {
	_, graphPath := serveFixture(t)
	t.Run("http with open sessions", func(t *testing.T) {
		s := startHTTP(t, serveEnv(), "--graph", graphPath)
		// A legacy session keeps a GET event stream open; a modern one is
		// stateless. Both are live when the signal arrives.
		for _, era := range serveEras {
			cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, era.version)
			defer cs.Close()
			callTool(t, cs, "graph_stats", nil)
		}
		checkSIGTERM(t, s)
	})
	t.Run("stdio idle", func(t *testing.T) {
		// stdin stays open (an *os.File, so Wait does not wait for a
		// copying goroutine): only the signal can end the server.
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		defer pw.Close()
		s := startServeIn(t, serveEnv(), pr, "--graph", graphPath)
		waitFor(t, 60*time.Second, "the stdio ready line", func() bool {
			return strings.Contains(s.stderr.String(), "ready on stdio")
		})
		checkSIGTERM(t, s)
	})
}

func checkSIGTERM(t *testing.T, s *httpServer) {
	t.Helper()
	if s.done() {
		t.Fatalf("server already exited: %v\n%s", s.waitErr, s.stderr.String())
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		t.Fatalf("no exit within 10s of SIGTERM\nstderr:\n%s", s.stderr.String())
	}
	if s.waitErr != nil {
		t.Errorf("exit after SIGTERM: %v, want 0\nstderr:\n%s", s.waitErr, s.stderr.String())
	}
}

// TestServeTypeScriptClient runs .ci/ts-client.sh: the official TypeScript
// client (@modelcontextprotocol/client 2.x) against `synaptic serve` over
// stdio, in both eras. SYNAPTIC_TS_CLIENT=0 skips it (for a Makefile that
// runs the script as a target of its own).
func TestServeTypeScriptClient(t *testing.T) {
	needBin(t)
	if testing.Short() {
		t.Skip("-short: skipping the npm install")
	}
	if os.Getenv("SYNAPTIC_TS_CLIENT") == "0" {
		t.Skip("SYNAPTIC_TS_CLIENT=0: .ci/ts-client.sh runs separately")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH: the TypeScript client check needs Node >= 20 and npm", tool)
		}
	}
	_, graphPath := serveFixture(t)
	cmd := exec.Command("bash", filepath.Join(repoRoot(), ".ci", "ts-client.sh"), bin, graphPath)
	cmd.Env = serveEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf(".ci/ts-client.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"legacy 2025-11-25 ok", "modern 2026-07-28 ok"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("ts-client output lacks %q:\n%s", want, out)
		}
	}
}
