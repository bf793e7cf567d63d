package tools

import (
	"fmt"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// TestDispatchNeedsANamedInterface: a repository's interface makes its
// method names dynamic only when some code names it (a parameter of its
// type here); an interface nothing names holds no value, so a change to
// Regexp.Match reaches only the test that calls it.
func TestDispatchNeedsANamedInterface(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	nodes := []graph.Node{
		{ID: "i", Label: "Matcher", Kind: "interface", SourceFile: "re/i.go", Language: "go", Span: sp(1, 2)},
		{ID: "i.match", Label: ".Match()", Kind: "method", SourceFile: "re/i.go", Language: "go", Span: sp(2, 2)},
		{ID: "use", Label: "use()", Kind: "function", SourceFile: "re/i.go", Language: "go", Span: sp(4, 5)},
		{ID: "r", Label: "Regexp", Kind: "struct", SourceFile: "re/r.go", Language: "go", Span: sp(1, 2)},
		{ID: "r.match", Label: ".Match()", Kind: "method", SourceFile: "re/r.go", Language: "go", Span: sp(3, 4)},
		{ID: "r.find", Label: ".Find()", Kind: "method", SourceFile: "re/r.go", Language: "go", Span: sp(5, 6)},
		{ID: "newr", Label: "Compile()", Kind: "function", SourceFile: "re/r.go", Language: "go", Span: sp(7, 8), Signature: &graph.Signature{ReturnType: "*Regexp"}},
		{ID: "tm", Label: "TestMatch()", Kind: "function", SourceFile: "re/r_test.go", Language: "go", IsTest: true},
		{ID: "tf", Label: "TestFind()", Kind: "function", SourceFile: "re/r_test.go", Language: "go", IsTest: true},
	}
	edges := []graph.Edge{
		{Source: "i", Target: "i.match", Relation: "method"},
		{Source: "r", Target: "r.match", Relation: "method"}, {Source: "r", Target: "r.find", Relation: "method"},
		{Source: "tm", Target: "newr", Relation: "calls"}, {Source: "tm", Target: "r.match", Relation: "calls"},
		{Source: "tf", Target: "newr", Relation: "calls"}, {Source: "tf", Target: "r.find", Relation: "calls"},
	}
	named := append(edges[:len(edges):len(edges)], graph.Edge{Source: "use", Target: "i", Relation: "references", Context: "parameter_type"})
	for _, tc := range []struct {
		edges []graph.Edge
		want  string
	}{
		{edges, "[TestMatch() calls]"},
		{named, "[TestFind() calls (dispatch on Regexp) TestMatch() calls]"},
	} {
		c := New(Options{})
		c.SetGraph(&graph.Graph{Directed: true, Nodes: nodes, Edges: tc.edges})
		s := c.current()
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "re/r.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1}}}})
		var got []string
		for _, r := range s.selectTests(cs, 3) {
			got = append(got, r.Label+" "+r.ViaRelation)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%d edges: selected %v, want %s", len(tc.edges), got, tc.want)
		}
	}
}

// TestDispatchOnDefinedType: a Go defined type over another type (type
// HeaderExtractor []string, kept as a type_alias) owns its methods for
// dispatch like a struct: a test that builds one in a table reaches its
// ExtractToken through the named Extractor interface.
func TestDispatchOnDefinedType(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		{ID: "i", Label: "Extractor", Kind: "interface", SourceFile: "req/x.go", Language: "go", Span: sp(1, 2)},
		{ID: "i.x", Label: ".ExtractToken()", Kind: "method", SourceFile: "req/x.go", Language: "go", Span: sp(2, 2)},
		{ID: "parse", Label: "Parse()", Kind: "function", SourceFile: "req/x.go", Language: "go", Span: sp(3, 4)},
		{ID: "h", Label: "HeaderExtractor", Kind: "type_alias", SourceFile: "req/h.go", Language: "go", Span: sp(1, 1)},
		{ID: "h.x", Label: ".ExtractToken()", Kind: "method", SourceFile: "req/h.go", Language: "go", Span: sp(2, 4)},
		{ID: "table", Label: "testData", Kind: "variable", SourceFile: "req/x_test.go", Language: "go", IsTest: true},
		{ID: "tx", Label: "TestExtractor()", Kind: "function", SourceFile: "req/x_test.go", Language: "go", IsTest: true},
	}, Edges: []graph.Edge{
		{Source: "i", Target: "i.x", Relation: "method"}, {Source: "h", Target: "h.x", Relation: "method"},
		{Source: "parse", Target: "i", Relation: "references", Context: "parameter_type"},
		{Source: "table", Target: "h", Relation: "references"}, {Source: "tx", Target: "table", Relation: "references"},
	}}
	c := New(Options{})
	c.SetGraph(g)
	s := c.current()
	cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "req/h.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1}}}})
	var got []string
	for _, r := range s.selectTests(cs, 3) {
		got = append(got, r.Label+" "+r.ViaRelation)
	}
	if want := "[testData references (dispatch on HeaderExtractor) TestExtractor() references (dispatch on HeaderExtractor)]"; fmt.Sprint(got) != want {
		t.Errorf("selected %v, want %s", got, want)
	}
}

// TestNamedTestsOnlyWhereEdgesMayMiss: a test named after a changed
// symbol is selected for its name only when the edges may not show how
// tests run the symbol: no test reaches it, or an interface may call it.
// ForEach, reached by TestForEach, does not pull in TestForEachIdx (named
// after it, calling only ForEachIdx); with no caller at all, or as a
// method an interface declares, it does.
func TestNamedTestsOnlyWhereEdgesMayMiss(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	nodes := []graph.Node{
		{ID: "each", Label: "ForEach()", Kind: "function", SourceFile: "it/it.go", Language: "go", Span: sp(1, 3)},
		{ID: "idx", Label: "ForEachIdx()", Kind: "function", SourceFile: "it/it.go", Language: "go", Span: sp(4, 6)},
		{ID: "te", Label: "TestForEach()", Kind: "function", SourceFile: "it/it_test.go", Language: "go", IsTest: true},
		{ID: "ti", Label: "TestForEachIdx()", Kind: "function", SourceFile: "it/it_test.go", Language: "go", IsTest: true},
	}
	reached := []graph.Edge{{Source: "te", Target: "each", Relation: "calls"}, {Source: "ti", Target: "idx", Relation: "calls"}}
	unreached := reached[1:]
	// As a method of a type an interface makes dynamic (Iterator.ForEach
	// behind a named Eacher), with the same static test.
	methods := append(slices.Clone(nodes),
		graph.Node{ID: "iter", Label: "Iterator", Kind: "struct", SourceFile: "it/it.go", Language: "go", Span: sp(7, 8)},
		graph.Node{ID: "eacher", Label: "Eacher", Kind: "interface", SourceFile: "it/it.go", Language: "go", Span: sp(9, 10)},
		graph.Node{ID: "eacher.each", Label: ".ForEach()", Kind: "method", SourceFile: "it/it.go", Language: "go", Span: sp(10, 10)},
		graph.Node{ID: "use", Label: "use()", Kind: "function", SourceFile: "it/it.go", Language: "go", Span: sp(11, 12)})
	methods[0].Kind, methods[0].Label = "method", ".ForEach()"
	dynamic := append(slices.Clone(reached),
		graph.Edge{Source: "iter", Target: "each", Relation: "method"},
		graph.Edge{Source: "eacher", Target: "eacher.each", Relation: "method"},
		graph.Edge{Source: "use", Target: "eacher", Relation: "references", Context: "parameter_type"})
	for _, tc := range []struct {
		name  string
		nodes []graph.Node
		edges []graph.Edge
		want  string
	}{
		{"reached function", nodes, reached, "[TestForEach() calls]"},
		{"unreached function", nodes, unreached, "[TestForEach() named after ForEach() TestForEachIdx() named after ForEach()]"},
		{"dispatchable method", methods, dynamic, "[TestForEach() calls TestForEachIdx() named after .ForEach()]"},
	} {
		c := New(Options{})
		c.SetGraph(&graph.Graph{Directed: true, Nodes: tc.nodes, Edges: tc.edges})
		s := c.current()
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "it/it.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 2, OldLines: 1, NewStart: 2, NewLines: 1}}}})
		var got []string
		for _, r := range s.selectTests(cs, 3) {
			got = append(got, r.Label+" "+r.ViaRelation)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: selected %v, want %s", tc.name, got, tc.want)
		}
	}
}
