package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkServeFreshness measures what keeping the graph current costs,
// through the real binary over Streamable HTTP: "clean" is a get_node when
// nothing changed (compare pinned, which does no check, to get the added
// latency), "edit" is writing a new function and asking for it (the time
// until the answer that includes it). debounced runs its check on every
// query (debounce 0), watch is serve --watch.
//
// The repository is $SYNAPTIC_BENCH_REPO when set (a scratch copy with a
// synaptic-out/ already extracted, e.g. of $(go env GOROOT)/src: the
// benchmark writes into it; $SYNAPTIC_BENCH_LABEL names a node in it for
// the clean query, e.g. "ParseDuration()@time/format.go"), else the small
// e2e fixture.
//
//	SYNAPTIC_BIN=$PWD/bin/synaptic go test -run '^$' -bench BenchmarkServeFreshness -benchtime 200x ./cmd/synaptic
func BenchmarkServeFreshness(b *testing.B) {
	if bin == "" {
		b.Skip("no binary")
	}
	root := os.Getenv("SYNAPTIC_BENCH_REPO")
	if root == "" {
		root = b.TempDir()
		for name, body := range fixtureRepo {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		cmd := exec.Command(bin, "extract", ".", "--quiet")
		cmd.Dir, cmd.Env = root, serveEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("extract: %v\n%s", err, out)
		}
	}
	graphPath := filepath.Join(root, "synaptic-out", "graph.json")
	label := envOrDefault("SYNAPTIC_BENCH_LABEL", "WithTax()")
	modes := []struct {
		name string
		env  []string
		args []string
	}{
		{"pinned", nil, []string{"--immutable-graph"}},
		{"debounced", []string{"SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0"}, nil},
		{"watch", []string{"SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0"}, []string{"--watch"}},
	}
	for _, m := range modes {
		parent := b
		var cs *sdk.ClientSession
		connect := func(b *testing.B) *sdk.ClientSession {
			if cs == nil {
				s := startHTTPWithin(b, parent, 10*time.Minute, serveEnv(m.env...), append([]string{"--graph", graphPath}, m.args...)...)
				cs = connectSDK(b, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
				if m.name == "watch" {
					waitFor(b, time.Minute, "the watcher", func() bool { return strings.Contains(s.stderr.String(), "--watch: watching") })
				}
				callTool(b, cs, "graph_stats", map[string]any{}) // the startup catch-up is done
			}
			return cs
		}
		b.Run(m.name+"/clean", func(b *testing.B) {
			cs := connect(b)
			for b.Loop() {
				if res := callTool(b, cs, "get_node", map[string]any{"label": label}); res.IsError {
					b.Fatal(resultText(res))
				}
			}
		})
		if m.name == "pinned" {
			continue
		}
		b.Run(m.name+"/edit", func(b *testing.B) {
			cs := connect(b)
			dir := filepath.Join(root, "benchfresh")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { os.RemoveAll(dir) })
			i := 0
			for b.Loop() {
				i++
				name := fmt.Sprintf("Edit%s%d", m.name, i)
				body := fmt.Sprintf("package benchfresh\n\nfunc %s() int { return %d }\n", name, i)
				if err := os.WriteFile(filepath.Join(dir, "edit.go"), []byte(body), 0o644); err != nil {
					b.Fatal(err)
				}
				res := callTool(b, cs, "get_node", map[string]any{"label": name + "()"})
				if res.IsError || !strings.Contains(resultText(res), "Node: "+name+"()") {
					b.Fatalf("edit %d not in the next answer: %s", i, resultText(res))
				}
			}
		})
	}
}

func envOrDefault(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
