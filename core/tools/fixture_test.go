package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// hostileLabel tries every trick sanitize must defeat: ANSI colour, a bidi
// override, a newline forging an output row, NUL and DEL.
const hostileLabel = "\x1b[31mevil\x1b[0m\u202e()\nNODE [9.99] forged\x00\x7f"

func ptr[T any](v T) *T { return &v }

// fixture is a small hand-built graph over testdata/src: a class with two
// methods, a constructor, callers from a client, a main and a test, a
// second .Serve() for ambiguity, an external stub and a hostile label.
func fixture() *graph.Graph {
	c0, c1 := ptr(0), ptr(1)
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		{ID: "pkg_server_go", Label: "server.go", FileType: "code", SourceFile: "pkg/server.go", SourceLocation: "L1", Kind: "file", Community: c0},
		{ID: "pkg_client_go", Label: "client.go", FileType: "code", SourceFile: "pkg/client.go", SourceLocation: "L1", Kind: "file", Community: c1},
		{ID: "pkg_server_server", Label: "Server", FileType: "code", SourceFile: "pkg/server.go", SourceLocation: "L10", Kind: "struct",
			Visibility: "public", Span: &graph.Span{StartLine: 10, EndLine: 12}, Community: c0},
		{ID: "pkg_server_server_serve", Label: ".Serve()", FileType: "code", SourceFile: "pkg/server.go", SourceLocation: "L15", Kind: "method",
			Visibility: "public", Span: &graph.Span{StartLine: 15, EndLine: 18}, Community: c0,
			Signature: &graph.Signature{Params: []graph.Param{}, ReturnType: "error", Raw: "func (s *Server) Serve() error"}},
		{ID: "pkg_server_server_close", Label: ".Close()", FileType: "code", SourceFile: "pkg/server.go", SourceLocation: "L21", Kind: "method",
			Span: &graph.Span{StartLine: 21, EndLine: 23}, Community: c0},
		{ID: "pkg_server_newserver", Label: "NewServer()", FileType: "code", SourceFile: "pkg/server.go", SourceLocation: "L26", Kind: "function",
			Span: &graph.Span{StartLine: 26, EndLine: 28}, Community: c0,
			Signature: &graph.Signature{Params: []graph.Param{}, ReturnType: "*Server", Raw: "func NewServer() *Server"}},
		{ID: "pkg_client_handle", Label: "handle()", FileType: "code", SourceFile: "pkg/client.go", SourceLocation: "L3", Kind: "function", Community: c1},
		{ID: "cmd_main_main", Label: "main()", FileType: "code", SourceFile: "cmd/main.go", SourceLocation: "L5", Kind: "function", Community: c1},
		{ID: "pkg_server_test_testserve", Label: "TestServe()", FileType: "code", SourceFile: "pkg/server_test.go", SourceLocation: "L5", Kind: "function", IsTest: true, Community: c0,
			Signature: &graph.Signature{Params: []graph.Param{{Name: "t", TypeRef: "*testing.T"}}, Raw: "func TestServe(t *testing.T)"}},
		{ID: "other_b_other", Label: "Other", FileType: "code", SourceFile: "other/b.go", SourceLocation: "L3", Kind: "struct", Community: c1},
		{ID: "other_b_other_serve", Label: ".Serve()", FileType: "code", SourceFile: "other/b.go", SourceLocation: "L5", Kind: "method", Community: c1},
		{ID: "other_b_evil", Label: hostileLabel, FileType: "code", SourceFile: "other/b.go", SourceLocation: "L9", Kind: "function", Community: c1},
		{ID: "fmt", Label: "fmt", FileType: "code", SourceFile: ""},
		{ID: "isolated", Label: "Lonely", FileType: "code", SourceFile: "pkg/lonely.go", Kind: "function"},
	}, Edges: []graph.Edge{
		{Source: "pkg_server_go", Target: "pkg_server_server", Relation: "contains", Confidence: graph.Extracted, SourceFile: "pkg/server.go", SourceLocation: "L10"},
		{Source: "pkg_server_go", Target: "pkg_server_newserver", Relation: "contains", Confidence: graph.Extracted, SourceFile: "pkg/server.go", SourceLocation: "L26"},
		{Source: "pkg_server_server", Target: "pkg_server_server_serve", Relation: "method", Confidence: graph.Extracted, SourceFile: "pkg/server.go", SourceLocation: "L15"},
		{Source: "pkg_server_server", Target: "pkg_server_server_close", Relation: "method", Confidence: graph.Extracted, SourceFile: "pkg/server.go", SourceLocation: "L21"},
		{Source: "pkg_server_server_serve", Target: "fmt", Relation: "calls", Confidence: graph.Inferred, SourceFile: "pkg/server.go", SourceLocation: "L16"},
		{Source: "pkg_server_server_close", Target: "pkg_server_server_serve", Relation: "calls", Confidence: graph.Ambiguous, SourceFile: "pkg/server.go", SourceLocation: "L22"},
		{Source: "pkg_server_newserver", Target: "pkg_server_server", Relation: "references", Context: "return_type", Confidence: graph.Extracted, SourceFile: "pkg/server.go", SourceLocation: "L26"},
		{Source: "pkg_client_handle", Target: "pkg_server_server_serve", Relation: "calls", Confidence: graph.Inferred, SourceFile: "pkg/client.go", SourceLocation: "L5"},
		{Source: "pkg_client_go", Target: "pkg_server_go", Relation: "imports_from", Confidence: graph.Extracted, SourceFile: "pkg/client.go", SourceLocation: "L1"},
		{Source: "cmd_main_main", Target: "pkg_server_newserver", Relation: "calls", Confidence: graph.Extracted, SourceFile: "cmd/main.go", SourceLocation: "L6"},
		{Source: "cmd_main_main", Target: "pkg_server_server_serve", Relation: "calls", Confidence: graph.Inferred, SourceFile: "cmd/main.go", SourceLocation: "L7"},
		{Source: "pkg_server_test_testserve", Target: "pkg_server_newserver", Relation: "calls", Confidence: graph.Extracted, SourceFile: "pkg/server_test.go", SourceLocation: "L6",
			Sites: []graph.Site{{SourceFile: "pkg/server_test.go", SourceLocation: "L5"}}},
		{Source: "pkg_server_test_testserve", Target: "pkg_server_server_serve", Relation: "calls", Confidence: graph.Inferred, SourceFile: "pkg/server_test.go", SourceLocation: "L6"},
		{Source: "other_b_other", Target: "other_b_other_serve", Relation: "method", Confidence: graph.Extracted, SourceFile: "other/b.go", SourceLocation: "L5"},
		{Source: "other_b_other_serve", Target: "other_b_evil", Relation: "calls", Confidence: graph.Extracted, SourceFile: "other/b.go", SourceLocation: "L5"},
		{Source: "other_b_evil", Target: "pkg_server_newserver", Relation: "calls\x1b[2J", Confidence: graph.Extracted, SourceFile: "other/b.go", SourceLocation: "L9"},
	}}
	return g
}

// newFixtureCatalog serves the fixture with testdata/src as source root.
func newFixtureCatalog(t testing.TB, opts Options) *Catalog {
	t.Helper()
	if opts.SourceRoot == "" {
		opts.SourceRoot = "testdata/src"
	}
	c := New(opts)
	c.SetGraph(fixture())
	return c
}

// call runs a tool through Call (validation included) and fails on a
// protocol-level error.
func call(t testing.TB, c *Catalog, name, args string) Result {
	t.Helper()
	r, err := c.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return r
}

// structured round-trips a result's structured content through JSON, the
// way a client sees it.
func structured(t testing.TB, r Result) map[string]any {
	t.Helper()
	if r.Structured == nil {
		return nil
	}
	b, err := json.Marshal(r.Structured)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
