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
// $(go env GOROOT)/src: startup (process start → ready file, → first
// tools/list answered) with the resident memory after load, and tools/call
// latency through the Go SDK over Streamable HTTP (modern era).
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

	b.Run("startup", func(b *testing.B) {
		var ready, listed, data, hwm, rss float64
		n := 0
		for b.Loop() {
			r, l, d, h, s := serveStartup(b, graphPath)
			ready, listed, data, hwm, rss = ready+r.Seconds(), listed+l.Seconds(), data+d.Seconds(), max(hwm, h), max(rss, s)
			n++
		}
		b.ReportMetric(ready/float64(n), "s-to-ready")
		b.ReportMetric(listed/float64(n), "s-to-first-list")
		b.ReportMetric(data/float64(n), "s-to-first-data")
		b.ReportMetric(hwm/(1<<20), "VmHWM-MiB")
		b.ReportMetric(rss/(1<<20), "VmRSS-MiB")
		b.ReportMetric(graphMiB, "graph-MiB")
		b.ReportMetric(hwm/float64(st.Size()), "HWM/graph")
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
	hwm, rss = procStatus(b, cmd.Process.Pid, "VmHWM"), procStatus(b, cmd.Process.Pid, "VmRSS")
	return toReady, toList, toData, hwm, rss
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
