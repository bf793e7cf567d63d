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

// TestServeWatch: with --watch the very next request after an edit sees
// it, a query when nothing changed runs no catch-up, and a burst of 2,000
// file events (a new directory tree among them) is handled. The debounce
// is set to a minute, so only the watcher's events can explain a refresh.
func TestServeWatch(t *testing.T) {
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) { testServeWatch(t, transport) })
	}
}

func testServeWatch(t *testing.T, transport string) {
	root, graphPath := serveFixture(t)
	env := serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=60000")
	var cs *sdk.ClientSession
	stderr := &syncBuffer{}
	if transport == "http" {
		s := startHTTP(t, env, "--graph", graphPath, "--watch")
		stderr = s.stderr
		cs = connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	} else {
		cmd := exec.Command(bin, "serve", "--graph", graphPath)
		cmd.Env, cmd.Stderr = append(env, "SYNAPTIC_SERVE_WATCH=1"), stderr
		cs = connectSDK(t, &sdk.CommandTransport{Command: cmd}, "")
	}
	defer cs.Close()
	has := func(name string) bool {
		res := callTool(t, cs, "get_node", map[string]any{"label": name + "()"})
		return !res.IsError && strings.Contains(resultText(res), "Node: "+name+"()")
	}
	refreshes := func() int { return strings.Count(stderr.String(), "auto-freshen: ") }
	if !has("WithTax") {
		t.Fatal("fixture function not served")
	}
	waitFor(t, 10*time.Second, "the watcher to start", func() bool { return strings.Contains(stderr.String(), "--watch: watching") })

	// A clean query pays for no catch-up.
	before := refreshes()
	for range 5 {
		has("WithTax")
	}
	if n := refreshes(); n != before {
		t.Errorf("clean queries ran %d catch-ups:\n%s", n-before, stderr.String())
	}

	// Add a function: the next request sees it, with no wait.
	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	if !has("Discount") {
		t.Fatalf("added function not served on the next request:\n%s", stderr.String())
	}
	if txt := resultText(callTool(t, cs, "find_callers", map[string]any{"label": "WithTax"})); !strings.Contains(txt, "Discount") {
		t.Errorf("new call not linked:\n%s", txt)
	}

	// A burst: 2,000 files in a new directory tree, then a function in a
	// directory made inside it after the burst began.
	for i := range 2000 {
		dir := filepath.Join(root, "notes", fmt.Sprintf("d%02d", i%20))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%d.txt", i)), []byte("note\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(t, root, map[string]string{"notes/d07/deeper/late.go": "package deeper\n\nfunc LateArrival() int { return 1 }\n"})
	if !has("LateArrival") {
		t.Fatalf("function added after a 2,000-event burst not served:\n%s", stderr.String())
	}
	// And the new directories are watched: an edit in one is seen.
	write(t, root, map[string]string{"notes/d07/deeper/late.go": "package deeper\n\nfunc Renamed() int { return 1 }\n"})
	if has("LateArrival") || !has("Renamed") {
		t.Errorf("edit in a directory made while serving not seen:\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), "falling back") {
		t.Errorf("watcher fell back:\n%s", stderr.String())
	}
}

// TestServeWatchRefusals: --watch is refused where it could not do what
// it says, with the reason.
func TestServeWatchRefusals(t *testing.T) {
	_, graphPath := serveFixture(t)
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want []string
	}{
		{"with --immutable-graph", nil, []string{"--graph", graphPath, "--watch", "--immutable-graph"}, []string{"--watch", "--immutable-graph"}},
		{"auto-freshen off", []string{"SYNAPTIC_SERVE_AUTOFRESH=0"}, []string{"--graph", graphPath, "--watch"}, []string{"--watch", "SYNAPTIC_SERVE_AUTOFRESH=0"}},
		{"env form, immutable", []string{"SYNAPTIC_SERVE_WATCH=1"}, []string{"--graph", graphPath, "--immutable-graph"}, []string{"SYNAPTIC_SERVE_WATCH=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runServe(t, serveEnv(tc.env...), tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (usage)", code)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}
