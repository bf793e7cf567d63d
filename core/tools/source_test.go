package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// TestGetSourceNeverLooksComplete: a long symbol is shown with its doc
// comment, up to maxSymbolLines, and a cut window says where the symbol
// ends and how to see it all (it used to print the first 40 lines under a
// header that looked like the whole symbol).
func TestGetSourceNeverLooksComplete(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package p\n\n// Long does a lot.\n// It takes 300 lines.\nfunc Long() {\n")
	for i := range 298 {
		fmt.Fprintf(&src, "\tstep(%d)\n", i)
	}
	src.WriteString("}\n\n// Short is short.\nfunc Short() {}\n")
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &graph.Graph{Nodes: []graph.Node{
		{ID: "long", Label: "Long()", SourceFile: "p.go", SourceLocation: "L5", Kind: "function", Span: &graph.Span{StartLine: 5, EndLine: 304}},
		{ID: "short", Label: "Short()", SourceFile: "p.go", SourceLocation: "L307", Kind: "function", Span: &graph.Span{StartLine: 307, EndLine: 307}},
		{ID: "nospan", Label: "NoSpan()", SourceFile: "p.go", SourceLocation: "L5", Kind: "function"},
	}}
	c := New(Options{SourceRoot: dir})
	c.SetGraph(g)
	tests := []struct {
		args, header string
		lines        int
	}{
		{`{"label":"Long"}`, "Long() [function] p.go:L3-L202, of the symbol's L5-L304 (truncated at 200 lines: pass context_lines=300 to see all of it)", 200},
		{`{"label":"Long","context_lines":300}`, "Long() [function] p.go:L5-L304", 300},
		{`{"label":"Long","context_lines":10}`, "Long() [function] p.go:L5-L14, of the symbol's L5-L304 (cut at context_lines=10: pass context_lines=300 to see all of it)", 10},
		{`{"label":"Short"}`, "Short() [function] p.go:L306-L307 (doc comment L306-L306, symbol L307-L307)", 2},
		{`{"label":"NoSpan"}`, "NoSpan() [function] p.go:L5-L44 (no extent recorded for this symbol: showing 40 lines from its start; pass context_lines for more)", 40},
		{`{"file":"p.go","lines":"300-320"}`, "p.go:L300-L307 (the file ends at L307)", 8},
	}
	for _, tc := range tests {
		r := call(t, c, "get_source", tc.args)
		got := strings.Split(r.Text, "\n")
		if r.IsError || got[0] != tc.header || len(got)-1 != tc.lines {
			t.Errorf("get_source %s:\n got %q (%d lines)\nwant %q (%d lines)", tc.args, got[0], len(got)-1, tc.header, tc.lines)
		}
	}
}

// TestShortestPathDirected: directed=true follows calls forward (the
// trace_flow prompt used to get Get() → Response ← redirectBehavior()),
// and falls back to the undirected path, saying so.
func TestShortestPathDirected(t *testing.T) {
	g := &graph.Graph{Nodes: []graph.Node{
		{ID: "get", Label: "Get()", SourceFile: "c.go", Kind: "function"},
		{ID: "resp", Label: "Response", SourceFile: "r.go", Kind: "struct"},
		{ID: "do", Label: "do()", SourceFile: "c.go", Kind: "function"},
		{ID: "send", Label: "send()", SourceFile: "c.go", Kind: "function"},
		{ID: "redir", Label: "redirectBehavior()", SourceFile: "c.go", Kind: "function"},
		{ID: "lone", Label: "lone()", SourceFile: "l.go", Kind: "function"},
	}, Edges: []graph.Edge{
		{Source: "get", Target: "resp", Relation: "references"},
		{Source: "redir", Target: "resp", Relation: "references"},
		{Source: "get", Target: "do", Relation: "calls"},
		{Source: "do", Target: "send", Relation: "calls"},
		{Source: "send", Target: "redir", Relation: "calls"},
		{Source: "lone", Target: "get", Relation: "calls"},
	}}
	c := New(Options{})
	c.SetGraph(g)
	r := call(t, c, "shortest_path", `{"source":"Get","target":"redirectBehavior"}`)
	if !strings.Contains(r.Text, "Shortest path (2 hop(s))") || !strings.Contains(r.Text, "<--references--") {
		t.Errorf("undirected:\n%s", r.Text)
	}
	r = call(t, c, "shortest_path", `{"source":"Get","target":"redirectBehavior","directed":true}`)
	if !strings.Contains(r.Text, "Directed path (3 hop(s))") || strings.Contains(r.Text, "<--") || !strings.Contains(r.Text, "--calls--> send()@c.go") {
		t.Errorf("directed:\n%s", r.Text)
	}
	r = call(t, c, "shortest_path", `{"source":"redirectBehavior","target":"lone","directed":true}`)
	if !strings.HasPrefix(r.Text, "No directed path from redirectBehavior()@c.go to lone()@l.go") || !strings.Contains(r.Text, "Shortest path (") {
		t.Errorf("fallback:\n%s", r.Text)
	}
}

// TestZeroCallersWithTwins: a function defined once per platform whose
// callers were left unlinked must not be reported as having no caller.
func TestZeroCallersWithTwins(t *testing.T) {
	g := &graph.Graph{Nodes: []graph.Node{
		{ID: "l", Label: "sysSocket()", SourceFile: "net/sock_linux.go", Kind: "function"},
		{ID: "w", Label: "sysSocket()", SourceFile: "net/sock_windows.go", Kind: "function"},
		{ID: "u", Label: "unique()", SourceFile: "net/u.go", Kind: "function"},
	}}
	c := New(Options{})
	c.SetGraph(g)
	r := call(t, c, "find_callers", `{"label":"sysSocket()@net/sock_linux.go"}`)
	if strings.Contains(r.Text, "no static caller") || !strings.Contains(r.Text, "1 other definition(s) share this name") ||
		!strings.Contains(r.Text, "sysSocket()@net/sock_windows.go") {
		t.Errorf("find_callers twin:\n%s", r.Text)
	}
	r = call(t, c, "affected", `{"label":"sysSocket()@net/sock_linux.go"}`)
	if !strings.Contains(r.Text, "0 here does not mean unused") {
		t.Errorf("affected twin:\n%s", r.Text)
	}
	if r := call(t, c, "find_callers", `{"label":"unique"}`); !strings.Contains(r.Text, "no static caller") {
		t.Errorf("unique:\n%s", r.Text)
	}
}
