package main_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeSearchToolsGoSDK: the new tools over real MCP (stdio, the Go
// SDK client, which checks structuredContent against each outputSchema),
// in every protocol era: listed with read-only annotations and answering
// with structured content.
func TestServeSearchToolsGoSDK(t *testing.T) {
	root, graphPath := serveFixture(t)
	for _, era := range serveEras {
		t.Run(era.name, func(t *testing.T) {
			cmd := exec.Command(bin, "serve", "--graph", graphPath, "--source-root", root)
			cmd.Env = serveEnv()
			cs := connectSDK(t, &sdk.CommandTransport{Command: cmd, TerminateDuration: 20 * time.Second}, era.version)
			defer cs.Close()
			tools, err := cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]*sdk.Tool{}
			for _, tl := range tools.Tools {
				listed[tl.Name] = tl
			}
			for _, name := range []string{"search_text", "structural_search", "dynamic_hazards"} {
				tl := listed[name]
				if tl == nil || tl.Annotations == nil || !tl.Annotations.ReadOnlyHint || tl.OutputSchema == nil {
					t.Fatalf("%s listed as %+v", name, tl)
				}
			}
			for _, c := range []struct {
				name string
				args map[string]any
				want string
			}{
				{"search_text", map[string]any{"pattern": "WithTax"}, "[WithTax() function]"},
				{"search_text", map[string]any{"pattern": "nothing-like-this"}, "No matches"},
				{"structural_search", map[string]any{"query": "MATCH (f:function) WHERE f.name = 'round' RETURN f"}, "round() [function"},
				{"structural_search", map[string]any{"query": "MATCH (n) RETURN n.kind, count(*)"}, "function |"},
				{"structural_search", map[string]any{"file": "price/price.go"}, "WithTax()"},
				{"dynamic_hazards", map[string]any{}, "No dynamic-dispatch sites recorded"},
			} {
				res := callTool(t, cs, c.name, c.args)
				if res.IsError || !strings.Contains(resultText(res), c.want) || res.StructuredContent == nil {
					t.Errorf("%s %v: error=%v structured=%v\n%s", c.name, c.args, res.IsError, res.StructuredContent != nil, resultText(res))
				}
			}
			if res := callTool(t, cs, "structural_search", map[string]any{"query": "MATCH (f RETURN f"}); !res.IsError || !strings.Contains(resultText(res), "syntax error at column") {
				t.Errorf("parse error: %s", resultText(res))
			}
		})
	}
}
