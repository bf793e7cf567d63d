package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeSidecar: extract writes graph.bin beside graph.json and serve
// starts from it; a sidecar that no longer mirrors graph.json (graph.json
// replaced by another graph) or that is damaged is never served: serve
// says why on stderr and answers from graph.json.
func TestServeSidecar(t *testing.T) {
	root, graphPath := serveFixture(t)
	sidecar := filepath.Join(filepath.Dir(graphPath), "graph.bin")
	if st, err := os.Stat(sidecar); err != nil || st.Size() == 0 {
		t.Fatalf("extract wrote no graph.bin: %v", err)
	}
	// A second graph of the same tree with one more function, to put in
	// graph.json's place.
	other := t.TempDir()
	write(t, other, fixtureRepo)
	write(t, other, map[string]string{"price/extra.go": "package price\n\nfunc Surcharge(c int) int { return WithTax(c) + 1 }\n"})
	cmd := exec.Command(bin, "extract", ".")
	cmd.Dir, cmd.Env = other, serveEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("extract: %v\n%s", err, out)
	}
	original := read(t, graphPath)
	replaced := read(t, filepath.Join(other, "synaptic-out", "graph.json"))
	goodBin := read(t, sidecar)

	for _, tc := range []struct {
		name      string
		setup     func()
		surcharge bool   // graph.json has Surcharge
		note      string // on stderr; "" for none
	}{
		{"sidecar used", func() {}, false, ""},
		{"graph.json replaced", func() { os.WriteFile(graphPath, replaced, 0o644) }, true, "graph sidecar is stale"},
		{"sidecar damaged", func() {
			os.WriteFile(graphPath, original, 0o644)
			b := []byte(string(goodBin))
			b[len(b)-3] ^= 0x55
			os.WriteFile(sidecar, b, 0o644)
		}, false, "corrupt graph sidecar"},
		{"sidecar truncated", func() { os.WriteFile(sidecar, goodBin[:len(goodBin)/2], 0o644) }, false, "corrupt graph sidecar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup()
			s := startHTTP(t, serveEnv(), "--graph", graphPath, "--immutable-graph", "--source-root", root)
			cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
			defer cs.Close()
			if res := callTool(t, cs, "get_node", map[string]any{"label": "WithTax()"}); res.IsError {
				t.Fatalf("WithTax: %s", resultText(res))
			}
			res := callTool(t, cs, "get_node", map[string]any{"label": "Surcharge()"})
			if got := !res.IsError && strings.Contains(resultText(res), "Node: Surcharge()"); got != tc.surcharge {
				t.Errorf("Surcharge served: %v, want %v (the graph served is not graph.json's)", got, tc.surcharge)
			}
			stderr := s.stderr.String()
			switch {
			case tc.note == "" && strings.Contains(stderr, "graph.bin"):
				t.Errorf("unexpected sidecar note:\n%s", stderr)
			case tc.note != "" && !strings.Contains(stderr, tc.note):
				t.Errorf("stderr does not say %q:\n%s", tc.note, stderr)
			}
		})
	}
}
