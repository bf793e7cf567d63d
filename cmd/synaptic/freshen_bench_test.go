package main_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkServeFreshen measures edit → next answer on a copy of
// $(go env GOROOT)/src: each iteration appends a function to one file and
// times the very next get_node asking for it (auto-freshen's catch-up
// included), then a clean query (nothing changed since). Sub-benchmarks:
// the debounced check (default) and serve --watch. The full extraction of
// the copy, in the same run, is the baseline (full-extract-s, and the
// ratio edit-p50 / full extraction). SYNAPTIC_FRESHEN_TREE names a tree
// extracted already (it is edited in place, and the baseline is then its
// incremental extraction, not a full one).
//
//	SYNAPTIC_BIN=$PWD/bin/synaptic go test -run '^$' -bench BenchmarkServeFreshen -benchtime 10x ./cmd/synaptic
func BenchmarkServeFreshen(b *testing.B) {
	if bin == "" {
		b.Skip("no binary")
	}
	repo, full := freshenTree(b)
	graphPath := filepath.Join(repo, "synaptic-out", "graph.json")
	for _, mode := range []struct {
		name string
		args []string
	}{
		{"auto", nil},
		{"watch", []string{"--watch"}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			s := startHTTPWithin(b, b, 10*time.Minute, serveEnv(), append([]string{"--graph", graphPath}, mode.args...)...)
			cs := connectSDK(b, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
			defer cs.Close()
			ask := func(label string) (string, time.Duration) {
				t := time.Now()
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_node", Arguments: map[string]any{"label": label}})
				d := time.Since(t)
				if err != nil {
					b.Fatal(err)
				}
				return resultText(res), d
			}
			ask("ParseDuration()@time/format.go") // waits for the load and the first catch-up
			target := filepath.Join(repo, "time", "format.go")
			run := time.Now().UnixNano() % 1e9
			var edit, clean []time.Duration
			i := 0
			for b.Loop() {
				b.StopTimer()
				time.Sleep(400 * time.Millisecond)                          // past the debounce and the last exact run's start
				name := fmt.Sprintf("FreshBench%s%d_%d", mode.name, run, i) // unique in a tree edited before
				i++
				appendFile(b, target, "\nfunc "+name+"() int { return 1 }\n")
				b.StartTimer()
				text, d := ask(name + "()")
				if !strings.Contains(text, "Node: "+name+"()") {
					b.Fatalf("edit not reflected in the next answer:\n%s\nserver log:\n%s", text, s.stderr.String())
				}
				edit = append(edit, d)
				b.StopTimer()
				time.Sleep(300 * time.Millisecond)
				_, d = ask("ParseDuration()@time/format.go")
				clean = append(clean, d)
				b.StartTimer()
			}
			p50 := func(v []time.Duration) float64 {
				slices.Sort(v)
				return float64(v[len(v)/2].Microseconds()) / 1000
			}
			e := p50(edit)
			b.ReportMetric(e, "edit-p50-ms")
			b.ReportMetric(p50(clean), "clean-p50-ms")
			b.ReportMetric(full.Seconds(), "full-extract-s")
			b.ReportMetric(e/1000/full.Seconds(), "edit/full")
			// Stopping waits for the exact run behind the last patch,
			// which on a loaded machine takes longer than stop allows.
			cs.Close()
			s.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-s.exited:
			case <-time.After(5 * time.Minute):
				b.Errorf("serve did not stop within 5 minutes of SIGTERM")
			}
			if testing.Verbose() {
				b.Logf("server log:\n%s", s.stderr.String())
			}
		})
	}
}

// freshenTree returns the extracted tree to edit and how long its
// extraction took.
func freshenTree(b *testing.B) (string, time.Duration) {
	if repo := os.Getenv("SYNAPTIC_FRESHEN_TREE"); repo != "" {
		t0 := time.Now()
		runMeasured(b, "extract", "--quiet", repo)
		return repo, time.Since(t0)
	}
	src := gorootSrc(b)
	work := b.TempDir()
	if out, err := exec.Command("cp", "-r", src, work).CombinedOutput(); err != nil {
		b.Fatalf("copy GOROOT/src: %v\n%s", err, out)
	}
	repo := filepath.Join(work, "src")
	t0 := time.Now()
	runMeasured(b, "extract", "--full", "--quiet", repo)
	return repo, time.Since(t0)
}

func appendFile(b *testing.B, path, text string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		b.Fatal(err)
	}
}
