package main_test

import (
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeFreshenSaysWhatIsPending: the answer right after a small edit
// comes from the patched graph and says it is provisional until the exact
// graph replaces it; an edit over the patch threshold (a branch switch) is
// answered from the graph before it, saying how many files are pending,
// and caught up with in the background.
func TestServeFreshenSaysWhatIsPending(t *testing.T) {
	root, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_PATCH_MAX_FILES=1"), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	node := func(name string) string {
		return resultText(callTool(t, cs, "get_node", map[string]any{"label": name + "()"}))
	}
	node("WithTax") // the load and the first catch-up
	settle := func() { time.Sleep(300 * time.Millisecond) }

	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	settle()
	res := callTool(t, cs, "get_node", map[string]any{"label": "Discount()"})
	if txt := resultText(res); !strings.Contains(txt, "Node: Discount()") || !strings.Contains(txt, "(provisional: 1 changed file(s)") {
		t.Fatalf("the answer after an edit is not the provisional patch:\n%s\nserver log:\n%s", txt, s.stderr.String())
	}
	f, _ := res.Meta["synaptic/freshness"].(map[string]any)
	if f["provisional_files"] != 1.0 || f["pending_files"] != 0.0 || f["graph_built"] == "" {
		t.Errorf("_meta does not say the graph is provisional: %v", res.Meta)
	}
	// The same file saved again is still one changed file.
	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n\nfunc Half(c int) int { return c / 2 }\n"})
	settle()
	if txt := node("Half"); !strings.Contains(txt, "Node: Half()") || !strings.Contains(txt, "(provisional: 1 changed file(s)") {
		t.Fatalf("a second save of the same file is not one provisional file:\n%s", txt)
	}
	waitFor(t, 30*time.Second, "the exact graph", func() bool {
		txt := node("Discount")
		return strings.Contains(txt, "Node: Discount()") && !strings.Contains(txt, "(provisional")
	})

	write(t, root, map[string]string{
		"price/one.go": "package price\n\nfunc One() int { return 1 }\n",
		"price/two.go": "package price\n\nfunc Two() int { return One() + 1 }\n",
	})
	settle()
	res = callTool(t, cs, "get_node", map[string]any{"label": "One()"})
	if txt := resultText(res); !strings.Contains(txt, "(pending re-extraction: 2 changed file(s)") {
		t.Fatalf("an edit over the threshold is not said to be pending:\n%s", txt)
	}
	if f, _ := res.Meta["synaptic/freshness"].(map[string]any); f["pending_files"] != 2.0 {
		t.Errorf("_meta does not say 2 files are pending: %v", res.Meta)
	}
	waitFor(t, 30*time.Second, "the background catch-up", func() bool {
		one, two := node("One"), node("Two")
		return strings.Contains(one, "Node: One()") && strings.Contains(two, "Node: Two()") && !strings.Contains(two, "(pending")
	})
}
