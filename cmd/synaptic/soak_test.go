//go:build linux

package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// soakConfig sizes the soak. `make soak` runs the figures (200
// clients, 60 s steady, 20 graph replacements); the default is the short
// form CI runs on every push.
type soakConfig struct {
	clients int
	steady  time.Duration
	pace    time.Duration // each client's pause between requests
	swaps   int           // graph.json replacements during the churn phase
}

func soakFromEnv() soakConfig {
	c := soakConfig{clients: 50, steady: 5 * time.Second, pace: 100 * time.Millisecond, swaps: 6}
	if os.Getenv("SYNAPTIC_SOAK") == "full" {
		// 200 assistants each asking twice a second: 400 requests/s
		// offered, below what 2 cores serve, so the latency measured is
		// the server's, not a queue's. SYNAPTIC_SOAK_PACE_MS overrides it
		// (100 saturates 2 cores shared with the load generator).
		c = soakConfig{clients: 200, steady: 60 * time.Second, pace: 500 * time.Millisecond, swaps: 20}
	}
	if ms, err := strconv.Atoi(os.Getenv("SYNAPTIC_SOAK_PACE_MS")); err == nil && ms >= 0 {
		c.pace = time.Duration(ms) * time.Millisecond
	}
	return c
}

// soakCorpus extracts a copy of $(go env GOROOT)/src/net twice: graph A,
// and graph B = A plus one file with a marker function. Both are kept
// beside the served graph.json so the churn can swap them in.
func soakCorpus(t *testing.T) (root, graphPath string, a, b []byte) {
	t.Helper()
	needBin(t)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go env GOROOT:", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src", "net")
	root = filepath.Join(t.TempDir(), "net")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copy net: %v\n%s", err, out)
	}
	extract := func() []byte {
		cmd := exec.Command(bin, "extract", ".")
		cmd.Dir, cmd.Env = root, serveEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("extract: %v\n%s", err, out)
		}
		return read(t, filepath.Join(root, "synaptic-out", "graph.json"))
	}
	a = extract()
	write(t, root, map[string]string{"soak_marker.go": "package net\n\nfunc SoakMarkerB() int { return 1 }\n"})
	b = extract()
	graphPath = filepath.Join(root, "synaptic-out", "graph.json")
	if err := os.WriteFile(graphPath, a, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, graphPath, a, b
}

// soakTargets picks nodes and files the clients ask about.
func soakTargets(t *testing.T, graph []byte) (ids, files []string) {
	var g struct {
		Nodes []struct {
			ID         string `json:"id"`
			SourceFile string `json:"source_file"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(graph, &g); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, n := range g.Nodes {
		if n.SourceFile == "" || strings.HasSuffix(n.SourceFile, "soak_marker.go") {
			continue
		}
		if i%29 == 0 && len(ids) < 300 {
			ids = append(ids, n.ID)
		}
		if !seen[n.SourceFile] {
			seen[n.SourceFile] = true
			files = append(files, n.SourceFile)
		}
	}
	return ids, files
}

// soakRequest is one mixed tool call.
func soakRequest(r *rand.Rand, ids, files []string) (tool string, args map[string]any) {
	id := ids[r.IntN(len(ids))]
	switch r.IntN(7) {
	case 0:
		words := []string{"dial", "resolve", "listen", "timeout", "dns", "lookup", "address", "socket", "close", "read"}
		return "query_graph", map[string]any{"question": "how does " + words[r.IntN(len(words))] + " " + words[r.IntN(len(words))] + " work"}
	case 1:
		return "find_callers", map[string]any{"label": id}
	case 2:
		return "affected", map[string]any{"label": id, "depth": 3}
	case 3:
		return "get_neighbors", map[string]any{"label": id}
	case 4:
		return "get_source", map[string]any{"label": id}
	case 5:
		return "get_source", map[string]any{"file": files[r.IntN(len(files))], "lines": "1-40"}
	}
	return "graph_stats", map[string]any{}
}

type soakStats struct {
	mu        sync.Mutex
	latencies []time.Duration
	byTool    map[string][]time.Duration
	failures  []string
	requests  atomic.Int64
}

func (s *soakStats) fail(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.failures) < 20 {
		s.failures = append(s.failures, msg)
	}
}

// call posts one stateless (2026-07-28) tools/call and checks the answer.
func soakCall(hc *http.Client, url, tool string, args map[string]any) (string, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": tool, "arguments": args,
		"_meta": map[string]any{"io.modelcontextprotocol/connection": map[string]any{
			"protocolVersion": "2026-07-28", "clientCapabilities": map[string]any{}, "clientInfo": map[string]any{"name": "soak", "version": "1"}}},
	}})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, data)
	}
	var m struct {
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("bad JSON: %.200s", data)
	}
	if m.Error != nil || m.Result == nil {
		return "", fmt.Errorf("JSON-RPC error: %.200s", data)
	}
	text := ""
	if len(m.Result.Content) > 0 {
		text = m.Result.Content[0].Text
	}
	if m.Result.IsError || strings.Contains(text, "No node matches") {
		return text, fmt.Errorf("tool error: %.200s", text)
	}
	return text, nil
}

// runClients runs c.clients paced clients until stop closes.
func runClients(url string, c soakConfig, ids, files []string, st *soakStats, stop <-chan struct{}) {
	tr := &http.Transport{MaxIdleConnsPerHost: c.clients, MaxConnsPerHost: c.clients}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var wg sync.WaitGroup
	for k := range c.clients {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(k), 7))
			lat := make([]time.Duration, 0, 1024)
			byTool := map[string][]time.Duration{}
			defer func() {
				st.mu.Lock()
				defer st.mu.Unlock()
				st.latencies = append(st.latencies, lat...)
				if st.byTool == nil {
					st.byTool = map[string][]time.Duration{}
				}
				for k, v := range byTool {
					st.byTool[k] = append(st.byTool[k], v...)
				}
			}()
			for {
				select {
				case <-stop:
					return
				default:
				}
				tool, args := soakRequest(r, ids, files)
				start := time.Now()
				_, err := soakCall(hc, url, tool, args)
				lat = append(lat, time.Since(start))
				byTool[tool] = append(byTool[tool], time.Since(start))
				st.requests.Add(1)
				if err != nil {
					st.fail(fmt.Sprintf("%s %v: %v", tool, args, err))
				}
				time.Sleep(c.pace)
			}
		})
	}
	wg.Wait()
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

func rssKB(t *testing.T, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}

// TestSoak is the load test of issue 16: paced concurrent HTTP clients
// with a tool mix against the GOROOT/src/net graph, then the same while
// graph.json is replaced by atomic renames and by a slow in-place writer.
// Requirements: no failed request, no leak (RSS after ≤ 1.2× before), the
// last valid graph served; with SYNAPTIC_SOAK=full also p99 ≤ 50 ms.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	cfg := soakFromEnv()
	_, graphPath, graphA, graphB := soakCorpus(t)
	ids, files := soakTargets(t, graphA)
	// The churn replaces graph.json from outside; auto-freshen would race
	// it by rebuilding graph.json from the source.
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH=0"), "--graph", graphPath)
	pid := s.cmd.Process.Pid

	// Warm up at the full concurrency (connections, buffers and per-tool
	// caches reach their working size), then take the baseline RSS: the
	// leak check compares the same load before and after.
	warm := &soakStats{}
	stopWarm := make(chan struct{})
	go func() { time.Sleep(min(cfg.steady/4, 5*time.Second)); close(stopWarm) }()
	runClients(s.mcpURL, cfg, ids, files, warm, stopWarm)
	for _, f := range warm.failures {
		t.Error("failed request during warm-up:", f)
	}
	runtime.GC()
	before := rssKB(t, pid)

	st := &soakStats{}
	stop := make(chan struct{})
	go func() { time.Sleep(cfg.steady); close(stop) }()
	start := time.Now()
	runClients(s.mcpURL, cfg, ids, files, st, stop)
	elapsed := time.Since(start)
	after := rssKB(t, pid)
	p50, p99 := percentile(st.latencies, 0.50), percentile(st.latencies, 0.99)
	t.Logf("steady: %d clients paced %v, %v, %d requests (%.0f/s), %d failed, p50 %v, p99 %v, max %v, RSS %d -> %d KiB (%.2fx)",
		cfg.clients, cfg.pace, elapsed.Round(time.Millisecond), st.requests.Load(), float64(st.requests.Load())/elapsed.Seconds(),
		len(st.failures), p50, p99, percentile(st.latencies, 1), before, after, float64(after)/float64(before))
	tools := make([]string, 0, len(st.byTool))
	for k := range st.byTool {
		tools = append(tools, k)
	}
	slices.Sort(tools)
	for _, k := range tools {
		t.Logf("  %-14s p50 %v  p99 %v  (%d)", k, percentile(st.byTool[k], 0.5), percentile(st.byTool[k], 0.99), len(st.byTool[k]))
	}
	for _, f := range st.failures {
		t.Error("failed request:", f)
	}
	if float64(after) > 1.2*float64(before) {
		t.Errorf("RSS grew %d -> %d KiB (> 1.2x): a leak", before, after)
	}
	if os.Getenv("SYNAPTIC_SOAK") == "full" && p99 > 50*time.Millisecond {
		t.Errorf("p99 %v > 50 ms", p99)
	}

	// Churn: the graph is replaced while the clients keep asking.
	churn := &soakStats{}
	stopChurn := make(chan struct{})
	var clients sync.WaitGroup
	clients.Go(func() { runClients(s.mcpURL, cfg, ids, files, churn, stopChurn) })
	for i := range cfg.swaps {
		next := graphA
		if i%2 == 0 {
			next = graphB
		}
		if i%3 == 2 {
			slowWrite(t, graphPath, next)
		} else {
			renameInto(t, graphPath, next)
		}
		time.Sleep(300 * time.Millisecond)
	}
	renameInto(t, graphPath, graphB) // the last valid graph
	hc := &http.Client{Timeout: 10 * time.Second}
	waitFor(t, 15*time.Second, "the last graph to be served", func() bool {
		_, err := soakCall(hc, s.mcpURL, "get_node", map[string]any{"label": "SoakMarkerB"})
		return err == nil
	})
	close(stopChurn)
	clients.Wait()
	t.Logf("churn: %d replacements, %d requests, %d failed, p99 %v",
		cfg.swaps, churn.requests.Load(), len(churn.failures), percentile(churn.latencies, 0.99))
	for _, f := range churn.failures {
		t.Error("failed request during churn:", f)
	}
}

// renameInto replaces path atomically, as synaptic extract does.
func renameInto(t *testing.T, path string, data []byte) {
	tmp := path + ".soak-tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// slowWrite rewrites path in place in 16 chunks over about a second, so
// the server sees half-written files.
func slowWrite(t *testing.T, path string, data []byte) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	step := len(data)/16 + 1
	for off := 0; off < len(data); off += step {
		if _, err := f.Write(data[off:min(off+step, len(data))]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(60 * time.Millisecond)
	}
}
