//go:build linux

package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioClient drives `synaptic serve` over stdio with raw JSON-RPC lines.
type stdioClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	mu     sync.Mutex
	byID   map[string]json.RawMessage
	stderr *syncBuffer
}

func startStdio(t *testing.T, args ...string) *stdioClient {
	t.Helper()
	c := &stdioClient{t: t, byID: map[string]json.RawMessage{}, stderr: &syncBuffer{}}
	c.cmd = exec.Command(bin, append([]string{"serve"}, args...)...)
	c.cmd.Env, c.cmd.Stderr = serveEnv(), c.stderr
	c.stdin, _ = c.cmd.StdinPipe()
	stdout, _ := c.cmd.StdoutPipe()
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID != nil {
				c.mu.Lock()
				c.byID[string(m.ID)] = append(json.RawMessage(nil), sc.Bytes()...)
				c.mu.Unlock()
			}
		}
	}()
	return c
}

func (c *stdioClient) send(id int, method, params string) {
	c.t.Helper()
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
	if _, err := io.WriteString(c.stdin, line); err != nil {
		c.t.Fatal(err)
	}
}

func (c *stdioClient) wait(id int, timeout time.Duration) (json.RawMessage, bool) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		m, ok := c.byID[fmt.Sprint(id)]
		c.mu.Unlock()
		if ok {
			return m, true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil, false
}

// jailFixture is the served fixture plus a FIFO, a .env and a .git/config
// inside the source root.
func jailFixture(t *testing.T) (root, graphPath string) {
	root, graphPath = serveFixture(t)
	write(t, root, map[string]string{
		".env":        "API_TOKEN=tok_s3cr3t\n",
		".git/config": "[remote \"origin\"]\n\turl = https://user:ghp_s3cr3t@example.com/r.git\n",
	})
	if err := syscall.Mkfifo(filepath.Join(root, "price", "fifo.go"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	return root, graphPath
}

// TestServeFIFOAndSecretsStdio: 40 get_source calls on a FIFO (the bounded
// stdio queue holds 16) must all be refused and ping must still answer;
// .env and .git/config are refused naming the rule.
func TestServeFIFOAndSecretsStdio(t *testing.T) {
	_, graphPath := jailFixture(t)
	c := startStdio(t, "--graph", graphPath)
	c.send(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	if _, ok := c.wait(1, 60*time.Second); !ok {
		t.Fatalf("no initialize answer\n%s", c.stderr.String())
	}
	io.WriteString(c.stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for i := range 40 {
		c.send(100+i, "tools/call", `{"name":"get_source","arguments":{"file":"price/fifo.go"}}`)
	}
	c.send(2, "ping", `{}`)
	if _, ok := c.wait(2, 10*time.Second); !ok {
		t.Fatal("ping got no answer after 40 get_source calls on a FIFO")
	}
	for i := range 40 {
		m, ok := c.wait(100+i, 10*time.Second)
		if !ok || !bytes.Contains(m, []byte("FIFO (named pipe), not a regular file")) {
			t.Fatalf("call %d on the FIFO: %s", i, m)
		}
	}
	for id, file := range map[int]string{3: ".env", 4: ".git/config"} {
		c.send(id, "tools/call", fmt.Sprintf(`{"name":"get_source","arguments":{"file":%q}}`, file))
		m, ok := c.wait(id, 10*time.Second)
		if !ok || bytes.Contains(m, []byte("s3cr3t")) || !bytes.Contains(m, []byte("refused")) || !bytes.Contains(m, []byte(".synaptic/config.toml")) {
			t.Errorf("get_source %s: %s", file, m)
		}
	}
}

// TestServeFIFOHTTPConcurrent: 400 concurrent get_source calls on a FIFO
// over HTTP (the attack run exhausted 10,000 OS threads this way) all get
// an answer, and the server's thread count stays small.
func TestServeFIFOHTTPConcurrent(t *testing.T) {
	_, graphPath := jailFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	var wg sync.WaitGroup
	errs := make(chan string, 400)
	for range 20 {
		wg.Go(func() {
			for range 20 {
				res := callTool(t, cs, "get_source", map[string]any{"file": "price/fifo.go"})
				if txt := resultText(res); !res.IsError || !strings.Contains(txt, "not a regular file") {
					errs <- txt
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("get_source on a FIFO: %s", e)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if n, ok := strings.CutPrefix(l, "Threads:"); ok {
			var threads int
			fmt.Sscan(strings.TrimSpace(n), &threads)
			if threads > 64 {
				t.Errorf("%d threads after 400 FIFO reads: reads are pinning threads", threads)
			}
		}
	}
	if !strings.Contains(resultText(callTool(t, cs, "get_source", map[string]any{"file": "price/price.go", "lines": "1-3"})), "package price") {
		t.Error("regular reads broken")
	}
}

// TestServeReloadHostileGraphFile: graph.json briefly a FIFO must neither
// hang hot reload nor stop SIGTERM; a same-size edit whose mtime is set
// back is still picked up; serve --graph FIFO fails at once.
func TestServeReloadHostileGraphFile(t *testing.T) {
	root, graphPath := serveFixture(t)
	// This is about the graph file itself: auto-freshen, which rebuilds
	// graph.json from the source, is off.
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH=0"), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	has := func(label string) bool {
		return !callTool(t, cs, "get_node", map[string]any{"label": label}).IsError
	}

	fifo := graphPath + ".fifo"
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Rename(fifo, graphPath); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the FIFO to be refused", func() bool {
		return strings.Contains(s.stderr.String(), "not a regular file")
	})

	// A valid new graph replaces the FIFO and is served.
	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	cmd := exec.Command(bin, "extract", ".")
	cmd.Dir, cmd.Env = root, serveEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("re-extract: %v\n%s", err, out)
	}
	waitFor(t, 10*time.Second, "the graph after the FIFO", func() bool { return has("Discount") })

	// Same size, mtime set back: Discount -> Discoun7 in place.
	st, err := os.Stat(graphPath)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.ReplaceAll(read(t, graphPath), []byte("Discount"), []byte("Discoun7"))
	f, err := os.OpenFile(graphPath, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(edited, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(graphPath, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the same-size edit with its mtime restored", func() bool { return has("Discoun7()") })
	checkSIGTERM(t, s)

	// serve --graph on a FIFO: a clear error, not a hang.
	fifo2 := filepath.Join(t.TempDir(), "graph.json")
	if err := syscall.Mkfifo(fifo2, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, _, stderr := runServe(t, serveEnv(), "--graph", fifo2)
	if code == 0 || !strings.Contains(stderr, "not a regular file") || time.Since(start) > 30*time.Second {
		t.Errorf("serve --graph FIFO: exit %d after %v\n%s", code, time.Since(start), stderr)
	}
}

// TestReportNeverWritesThroughSymlink: a GRAPH_REPORT.md shipped as a
// symlink is replaced by `synaptic report`, its target left alone.
func TestReportNeverWritesThroughSymlink(t *testing.T) {
	root, graphPath := serveFixture(t)
	victim := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(victim, []byte("VICTIM\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(root, "synaptic-out", "GRAPH_REPORT.md")
	os.Remove(report)
	if err := os.Symlink(victim, report); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "report", "--graph", graphPath).CombinedOutput(); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	if got := string(read(t, victim)); got != "VICTIM\n" {
		t.Errorf("report wrote through the symlink: victim now %.80q", got)
	}
	if fi, err := os.Lstat(report); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("GRAPH_REPORT.md is not a regular file now: %v %v", fi, err)
	}
}
