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
	if txt := node("Discount"); !strings.Contains(txt, "Node: Discount()") || !strings.Contains(txt, "(provisional: 1 changed file(s)") {
		t.Fatalf("the answer after an edit is not the provisional patch:\n%s\nserver log:\n%s", txt, s.stderr.String())
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
	if txt := node("One"); !strings.Contains(txt, "(pending re-extraction: 2 changed file(s)") {
		t.Fatalf("an edit over the threshold is not said to be pending:\n%s", txt)
	}
	waitFor(t, 30*time.Second, "the background catch-up", func() bool {
		one, two := node("One"), node("Two")
		return strings.Contains(one, "Node: One()") && strings.Contains(two, "Node: Two()") && !strings.Contains(two, "(pending")
	})
}
