package tools

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// selected runs test selection for a one-line edit of file:line and
// renders the rows as "Label via".
func selected(t *testing.T, g *graph.Graph, file string, line int) string {
	t.Helper()
	c := New(Options{})
	c.SetGraph(g)
	s := c.current()
	cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: file, Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: line, OldLines: 1, NewStart: line, NewLines: 1}}}})
	var got []string
	for _, r := range s.selectTests(cs, 3) {
		got = append(got, r.Label+" "+r.ViaRelation)
	}
	return fmt.Sprint(got)
}

func goSig(ret string, params int) *graph.Signature {
	return &graph.Signature{Params: make([]graph.Param, params), ReturnType: ret}
}

func span(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }

// TestSelectionGoMethodNamedAfterType: a Go method named after a type
// (NRGBA's RGBA()) declares what it returns, so it is no provider of
// that type; a function's name still is (NewRGBA).
func TestSelectionGoMethodNamedAfterType(t *testing.T) {
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		{ID: "rgba", Label: "RGBA", Kind: "struct", SourceFile: "color/color.go", Language: "go", Span: span(1, 2)},
		{ID: "rgba.rgba", Label: ".RGBA()", Kind: "method", SourceFile: "color/color.go", Language: "go", Span: span(3, 5), Signature: goSig("(r, g, b, a uint32)", 0)},
		{ID: "nrgba", Label: "NRGBA", Kind: "struct", SourceFile: "color/color.go", Language: "go", Span: span(6, 7)},
		{ID: "nrgba.rgba", Label: ".RGBA()", Kind: "method", SourceFile: "color/color.go", Language: "go", Span: span(8, 10), Signature: goSig("(r, g, b, a uint32)", 0)},
		{ID: "newrgba", Label: "NewRGBA()", Kind: "function", SourceFile: "color/color.go", Language: "go", Span: span(11, 12), Signature: goSig("Color", 0)},
		{ID: "trgba", Label: "TestRGBA()", Kind: "function", SourceFile: "color/color_test.go", Language: "go", IsTest: true},
		{ID: "tnrgba", Label: "TestAlpha()", Kind: "function", SourceFile: "color/color_test.go", Language: "go", IsTest: true},
	}, Edges: []graph.Edge{
		{Source: "rgba", Target: "rgba.rgba", Relation: "method"}, {Source: "nrgba", Target: "nrgba.rgba", Relation: "method"},
		{Source: "trgba", Target: "newrgba", Relation: "calls"},
		{Source: "tnrgba", Target: "nrgba.rgba", Relation: "calls"},
	}}
	if got, want := selected(t, g, "color/color.go", 4), "[TestRGBA() calls (dispatch on RGBA)]"; got != want {
		t.Errorf("RGBA.RGBA: selected %s, want %s", got, want)
	}
}

// TestSelectionUnlinkedNameFallback: a method no test reaches, whose name
// is called on a receiver of unknown type (u.Usage() on an asserted
// interface{ Usage() string }), selects the tests reaching that call,
// even when more methods share the name than unlinked_calls evidence
// allows, before the tests of its type.
func TestSelectionUnlinkedNameFallback(t *testing.T) {
	if got, want := selected(t, usageGraph(true), "e/error.go", 3), "[TestParseError() fallback: calls its name on an unknown receiver, .Usage()]"; got != want {
		t.Errorf("errDate.Usage: selected %s, want %s", got, want)
	}
	// Without the unlinked call, the type's tests are what is left.
	if got, want := selected(t, usageGraph(false), "e/error.go", 3), "[TestKind() fallback: same type as .Usage()]"; got != want {
		t.Errorf("errDate.Usage without the unlinked call: selected %s, want %s", got, want)
	}
}

// usageGraph is toml's shape: errDate.Usage, called (when unlinked) on
// an unknown receiver by ErrorWithUsage, which TestParseError calls;
// TestKind calls a sibling method; more types declare Usage than
// unlinked_calls evidence allows.
func usageGraph(unlinked bool) *graph.Graph {
	var extra map[string]json.RawMessage
	if unlinked {
		extra = map[string]json.RawMessage{"unlinked_calls": json.RawMessage(`["Usage"]`)}
	}
	nodes := []graph.Node{
		{ID: "date", Label: "errDate", Kind: "struct", SourceFile: "e/error.go", Language: "go", Span: span(1, 2)},
		{ID: "date.usage", Label: ".Usage()", Kind: "method", SourceFile: "e/error.go", Language: "go", Span: span(3, 4), Signature: goSig("string", 0)},
		{ID: "date.kind", Label: ".Kind()", Kind: "method", SourceFile: "e/error.go", Language: "go", Span: span(5, 6), Signature: goSig("string", 0)},
		{ID: "withusage", Label: "ErrorWithUsage()", Kind: "function", SourceFile: "e/error.go", Language: "go", Span: span(7, 9), Signature: goSig("string", 0), Extra: extra},
		{ID: "tusage", Label: "TestParseError()", Kind: "function", SourceFile: "e/error_test.go", Language: "go", IsTest: true},
		{ID: "tkind", Label: "TestKind()", Kind: "function", SourceFile: "e/error_test.go", Language: "go", IsTest: true},
	}
	edges := []graph.Edge{
		{Source: "date", Target: "date.usage", Relation: "method"}, {Source: "date", Target: "date.kind", Relation: "method"},
		{Source: "tusage", Target: "withusage", Relation: "calls"},
		{Source: "tkind", Target: "date.kind", Relation: "calls"},
	}
	for k := range maxUnlinkedTargets {
		id := fmt.Sprintf("other%d", k)
		nodes = append(nodes, graph.Node{ID: id, Label: fmt.Sprintf("err%d", k), Kind: "struct", SourceFile: "e/other.go", Language: "go", Span: span(10*k+1, 10*k+2)},
			graph.Node{ID: id + ".usage", Label: ".Usage()", Kind: "method", SourceFile: "e/other.go", Language: "go", Span: span(10*k+3, 10*k+4), Signature: goSig("string", 0)})
		edges = append(edges, graph.Edge{Source: id, Target: id + ".usage", Relation: "method"})
	}
	return &graph.Graph{Directed: true, Nodes: nodes, Edges: edges}
}
