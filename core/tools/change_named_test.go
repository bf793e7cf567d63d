package tools

import (
	"fmt"
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
