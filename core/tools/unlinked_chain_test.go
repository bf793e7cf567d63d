package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// TestUnlinkedChain: a method reached only through an unlinked member
// call leads on through the unlinked calls of its own name (before_set
// <- set, which calls self._interpolation.before_set() <- test_basic,
// which calls cf.set()), each one hop.
func TestUnlinkedChain(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	unlinked := func(names ...string) map[string]json.RawMessage {
		b, _ := json.Marshal(names)
		return map[string]json.RawMessage{"unlinked_calls": b}
	}
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		{ID: "interp", Label: "Interpolation", Kind: "class", SourceFile: "cp.py", Language: "python", Repo: "r", Span: sp(1, 3)},
		{ID: "bs", Label: ".before_set()", Kind: "method", SourceFile: "cp.py", Language: "python", Repo: "r", Span: sp(2, 3)},
		{ID: "parser", Label: "Parser", Kind: "class", SourceFile: "cp.py", Language: "python", Repo: "r", Span: sp(5, 7)},
		{ID: "set", Label: ".set()", Kind: "method", SourceFile: "cp.py", Language: "python", Repo: "r", Span: sp(6, 7), Extra: unlinked("before_set")},
		{ID: "tb", Label: "test_basic()", Kind: "function", SourceFile: "tests/test_cp.py", Language: "python", Repo: "r", IsTest: true, Extra: unlinked("set")},
		{ID: "to", Label: "test_other()", Kind: "function", SourceFile: "tests/test_cp.py", Language: "python", Repo: "r", IsTest: true},
	}, Edges: []graph.Edge{
		{Source: "interp", Target: "bs", Relation: "method"}, {Source: "parser", Target: "set", Relation: "method"},
		{Source: "to", Target: "parser", Relation: "calls"},
	}}
	c := New(Options{})
	c.SetGraph(g)
	s := c.current()
	for depth, want := range map[int]string{
		1: "[]",
		2: "[test_basic()@2 calls .set() (receiver type unknown)]",
	} {
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "cp.py", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1}}}})
		got := []string{}
		for _, r := range s.selectTests(cs, depth) {
			if !strings.HasPrefix(r.ViaRelation, "fallback") {
				got = append(got, fmt.Sprintf("%s@%d %s", r.Label, r.Depth, r.ViaRelation))
			}
		}
		if fmt.Sprint(got) != want {
			t.Errorf("depth %d: %v, want %s", depth, got, want)
		}
	}
}
