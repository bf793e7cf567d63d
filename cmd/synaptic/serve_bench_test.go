package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkServeGoroot measures `synaptic serve` on the graph of
// $(go env GOROOT)/src: startup (process start → ready file, → stdio
// initialize answered, → first tools/list, → first data answer, in wall
// and in the server's CPU seconds, from graph.bin and, alternating in the
// same run, from graph.json alone) with the resident memory after load,
// and tools/call latency through the Go SDK over Streamable HTTP (modern
// era).
//
// The graph is $SYNAPTIC_BENCH_GRAPH when set (any graph.json of GOROOT/src,
// e.g. /tmp/gosrc-out/graph.json), else extracted once by the binary into a
// temporary directory. Targets on 2 cores: startup under 2 s, RSS under 2×
// the graph.json size, p50 under 2 ms for get_neighbors and affected.
//
//	SYNAPTIC_BIN=$PWD/bin/synaptic SYNAPTIC_BENCH_GRAPH=/tmp/gosrc-out/graph.json \
//	  go test -run '^$' -bench BenchmarkServeGoroot -benchtime 3x ./cmd/synaptic   # startup
//	go test -run '^$' -bench 'BenchmarkServeGoroot/call' -benchtime 2000x ./cmd/synaptic
func BenchmarkServeGoroot(b *testing.B) {
	if bin == "" {
		b.Skip("no binary")
	}
	graphPath := benchGraph(b)
	st, err := os.Stat(graphPath)
	if err != nil {
		b.Fatal(err)
	}
	graphMiB := float64(st.Size()) / (1 << 20)

	// startup alternates the graph with its graph.bin sidecar and the same
	// graph.json alone (the baseline: parsed), in the same run. Medians.
	b.Run("startup", func(b *testing.B) {
		withBin, jsonOnly := startupGraphs(b, graphPath)
		var ready, listed, data, init, jsonData, hwm, rss, cpu, jsonCPU []float64
		for b.Loop() {
			_, _, d, _, _ := serveStartup(b, jsonOnly)
			jsonData, jsonCPU = append(jsonData, d.Seconds()), append(jsonCPU, lastStartupCPU)
			r, l, d, h, s := serveStartup(b, withBin)
			ready, listed, data = append(ready, r.Seconds()), append(listed, l.Seconds()), append(data, d.Seconds())
			hwm, rss, cpu = append(hwm, h), append(rss, s), append(cpu, lastStartupCPU)
			init = append(init, stdioInitialize(b, withBin).Seconds())
		}
		b.ReportMetric(median(ready), "s-to-ready")
		b.ReportMetric(median(init), "s-to-initialize")
		b.ReportMetric(median(listed), "s-to-first-list")
		b.ReportMetric(median(data), "s-to-first-data")
		b.ReportMetric(median(jsonData), "json-s-to-first-data")
		// CPU seconds the server used until its first data answer: what
		// the wall time is on an idle machine, whatever the load.
		b.ReportMetric(median(cpu), "cpu-s-to-first-data")
		b.ReportMetric(median(jsonCPU), "json-cpu-s-to-first-data")
		b.ReportMetric(slices.Max(hwm)/(1<<20), "VmHWM-MiB")
		b.ReportMetric(slices.Max(rss)/(1<<20), "VmRSS-MiB")
		b.ReportMetric(graphMiB, "graph-MiB")
		b.ReportMetric(slices.Max(hwm)/float64(st.Size()), "HWM/graph")
	})

	calls := []struct {
		name string
		args map[string]any
	}{
		{"get_neighbors/leaf", map[string]any{"label": "ParseDuration()@time/format.go"}},
		{"get_neighbors/hub", map[string]any{"label": "ReadFile()@os/file.go"}},
		{"affected/leaf", map[string]any{"label": "ParseDuration()@time/format.go"}},
		{"affected/hub", map[string]any{"label": "ReadFile()@os/file.go"}},
		{"find_callers/leaf", map[string]any{"label": "ParseDuration()@time/format.go"}},
		{"find_callers/hub", map[string]any{"label": "ReadFile()@os/file.go"}},
		{"query_graph", map[string]any{"question": "how does the http server handle a request"}},
	}
	parent := b
	var cs *sdk.ClientSession
	for _, c := range calls {
		b.Run("call/"+c.name, func(b *testing.B) {
			if cs == nil { // one server for every call benchmark, started on first use
				s := startHTTPWithin(b, parent, 10*time.Minute, serveEnv(), "--graph", graphPath, "--immutable-graph")
				cs = connectSDK(b, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
				parent.Cleanup(func() { cs.Close() })
			}
			tool, _, _ := strings.Cut(c.name, "/")
			if res := callTool(b, cs, tool, c.args); res.IsError { // also warms per-snapshot caches
				b.Fatalf("%s %v: %s", tool, c.args, resultText(res))
			}
			ctx := context.Background()
			var lat []time.Duration
			for b.Loop() {
				t0 := time.Now()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: c.args})
				lat = append(lat, time.Since(t0))
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", tool, err, res)
				}
			}
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

// startupGraphs returns graphPath, which must have the graph.bin that
// extract writes beside it, and the same graph.json alone in a directory
// of its own (a hard link when the file system allows, else a copy): the
// baseline, parsed at start.
func startupGraphs(b *testing.B, graphPath string) (withBin, jsonOnly string) {
	if _, err := os.Stat(filepath.Join(filepath.Dir(graphPath), "graph.bin")); err != nil {
		b.Fatalf("%s has no graph.bin beside it: run synaptic extract on it with this build", graphPath)
	}
	dir := filepath.Join(filepath.Dir(graphPath), ".bench-json-only")
	os.RemoveAll(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		dir = b.TempDir()
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	jsonOnly = filepath.Join(dir, "graph.json")
	if err := os.Link(graphPath, jsonOnly); err != nil {
		data, err := os.ReadFile(graphPath)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(jsonOnly, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return graphPath, jsonOnly
}

// stdioInitialize starts serve on stdio and returns the time from exec to
// the initialize answer (sent before the graph is loaded).
func stdioInitialize(b *testing.B, graphPath string) time.Duration {
	cmd := exec.Command(bin, "serve", "--graph", graphPath, "--immutable-graph")
	cmd.Env = serveEnv()
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	if _, err := in.Write([]byte(req)); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	took := time.Since(start)
	if err != nil || !strings.Contains(line, `"serverInfo"`) {
		b.Fatalf("initialize: %q, %v", line, err)
	}
	return took
}

// benchGraph returns $SYNAPTIC_BENCH_GRAPH, or extracts GOROOT/src.
func benchGraph(b *testing.B) string {
	if p := os.Getenv("SYNAPTIC_BENCH_GRAPH"); p != "" {
		if _, err := os.Stat(p); err != nil {
			b.Fatalf("SYNAPTIC_BENCH_GRAPH: %v", err)
		}
		return p
	}
	out := filepath.Join(b.TempDir(), "synaptic-out")
	runMeasured(b, "extract", "--full", "--quiet", "--out", out, gorootSrc(b))
	return filepath.Join(out, "graph.json")
}

// serveStartup starts the server once and returns the time to its ready
// file, to the first tools/list answer (the handshake, answered before the
// graph is loaded) and to the first data answer (graph_stats, which waits
// for the load), then its peak and current RSS.
func serveStartup(b *testing.B, graphPath string) (toReady, toList, toData time.Duration, hwm, rss float64) {
	ready := filepath.Join(b.TempDir(), "ready.json")
	cmd := exec.Command(bin, "serve", "--graph", graphPath, "--http", "127.0.0.1:0", "--ready-file", ready)
	cmd.Env = serveEnv()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		b.StopTimer()
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		b.StartTimer()
	}()
	var data []byte
	for {
		var err error
		if data, err = os.ReadFile(ready); err == nil {
			break
		}
		select {
		case <-exited:
			b.Fatalf("serve exited before ready:\n%s", stderr.String())
		case <-time.After(2 * time.Millisecond):
		}
		if time.Since(start) > 10*time.Minute {
			b.Fatal("serve not ready after 10 minutes")
		}
	}
	toReady = time.Since(start)
	var r struct {
		MCPURL string `json:"mcp_url"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		b.Fatal(err)
	}
	cs := connectSDK(b, &sdk.StreamableClientTransport{Endpoint: r.MCPURL, MaxRetries: -1}, "")
	defer cs.Close()
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	toList = time.Since(start)
	if res := callTool(b, cs, "graph_stats", nil); res.IsError {
		b.Fatalf("graph_stats: %s", resultText(res))
	}
	toData = time.Since(start)
	lastStartupCPU = procCPU(b, cmd.Process.Pid)
	hwm, rss = procStatus(b, cmd.Process.Pid, "VmHWM"), procStatus(b, cmd.Process.Pid, "VmRSS")
	return toReady, toList, toData, hwm, rss
}

// lastStartupCPU is the CPU seconds of serveStartup's last server.
var lastStartupCPU float64

// procCPU reads a process's user + system CPU seconds from /proc/<pid>/stat.
func procCPU(b *testing.B, pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// Fields after the command name (which may hold spaces): state is
	// field 3, utime 14 and stime 15.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ
}

// procStatus reads one "kB" field of /proc/<pid>/status, in bytes.
func procStatus(b *testing.B, pid int, field string) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				b.Fatalf("%s: %q", field, v)
			}
			return kb * 1024
		}
	}
	b.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}
