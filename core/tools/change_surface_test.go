package tools

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// TestSurfaceHops: hops into private helpers from their own directory
// are free wherever they sit in the chain (translate <- _compile <-
// fnmatchcase <- fnmatch <- test is 3 hops: translate is public, but
// _compile is private), a test's own hop always counts, and a caller in
// another directory pays for calling a private function (fallback rows
// left out: they widen when nothing is reached).
func TestSurfaceHops(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	fn := func(id, label, vis, file string, test bool) graph.Node {
		return graph.Node{ID: id, Label: label, Kind: "function", Visibility: vis, SourceFile: file, Language: "python", IsTest: test}
	}
	nodes := []graph.Node{
		fn("translate", "translate()", "public", "fnmatch.py", false),
		fn("compile", "_compile()", "private", "fnmatch.py", false),
		fn("case", "fnmatchcase()", "public", "fnmatch.py", false),
		fn("fnmatch", "fnmatch()", "public", "fnmatch.py", false),
		fn("t_fn", "test_fnmatch()", "public", "tests/test_fnmatch.py", true),
		fn("t_far", "test_far()", "public", "tests/test_fnmatch.py", true),
		fn("other", "other()", "public", "lib/other.py", false),
		fn("t_other", "test_other()", "public", "tests/test_other.py", true),
	}
	nodes[0].Span = sp(1, 3)
	edges := []graph.Edge{
		{Source: "compile", Target: "translate", Relation: "calls"},
		{Source: "case", Target: "compile", Relation: "calls"},
		{Source: "fnmatch", Target: "case", Relation: "calls"},
		{Source: "t_fn", Target: "fnmatch", Relation: "calls"},
		{Source: "other", Target: "compile", Relation: "calls"},
		{Source: "t_other", Target: "other", Relation: "calls"},
	}
	for _, tc := range []struct {
		depth     int
		otherFile string
		want      string
	}{
		{2, "lib/other.py", "[]"},
		{3, "lib/other.py", "[test_fnmatch()@3 test_other()@3]"},
		{2, "other.py", "[test_other()@2]"}, // other calls _compile from its own directory
	} {
		ns := slices.Clone(nodes) // the catalog indexes its graph in the background
		ns[6].SourceFile = tc.otherFile
		c := New(Options{})
		c.SetGraph(&graph.Graph{Directed: true, Nodes: ns, Edges: edges})
		s := c.current()
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "fnmatch.py", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 2, OldLines: 1, NewStart: 2, NewLines: 1}}}})
		got := []string{}
		for _, r := range s.selectTests(cs, tc.depth) {
			if !strings.HasPrefix(r.ViaRelation, "fallback") {
				got = append(got, fmt.Sprintf("%s@%d", r.Label, r.Depth))
			}
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("depth %d, other in %s: got %v, want %s", tc.depth, tc.otherFile, got, tc.want)
		}
	}
}
