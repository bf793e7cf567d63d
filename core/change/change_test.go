package change

import (
	"fmt"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// sampleIndex: a.go has a type T (L3-L12) with method M (L5-L8), and a
// function F (L14-L20); the file node and a package node.
func sampleIndex() *graph.Index {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	g := &graph.Graph{Nodes: []graph.Node{
		{ID: "a_go", Label: "a.go", SourceFile: "a.go", Kind: "file"},
		{ID: "pkg", Label: "p", SourceFile: "a.go", Kind: "package"},
		{ID: "t", Label: "T", SourceFile: "a.go", Kind: "struct", Span: sp(3, 12)},
		{ID: "m", Label: ".M()", SourceFile: "a.go", Kind: "method", Span: sp(5, 8)},
		{ID: "f", Label: "F()", SourceFile: "a.go", Kind: "function", Span: sp(14, 20)},
		{ID: "b_go", Label: "b.go", SourceFile: "b.go", Kind: "file"},
		{ID: "g", Label: "G()", SourceFile: "b.go", Kind: "function", Span: sp(1, 3)},
	}}
	return graph.NewIndex(g)
}

func TestMap(t *testing.T) {
	x := sampleIndex()
	h := func(ns, nl int) gitdiff.Hunk {
		return gitdiff.Hunk{NewStart: ns, NewLines: nl, OldStart: ns, OldLines: nl}
	}
	for _, tc := range []struct {
		name string
		file gitdiff.File
		want string
	}{
		{"inside method", gitdiff.File{Path: "a.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{h(6, 1)}}, "[.M()]"},
		{"type body outside method", gitdiff.File{Path: "a.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{h(10, 1)}}, "[T]"},
		{"import lines", gitdiff.File{Path: "a.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{h(1, 1)}}, "[a.go]"},
		{"spanning two", gitdiff.File{Path: "a.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{h(7, 9)}}, "[a.go T .M() F()]"}, // line 13 lies between T and F
		{"spanning two inside", gitdiff.File{Path: "a.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{h(7, 4)}}, "[T .M()]"},
		{"pure deletion", gitdiff.File{Path: "a.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 16, OldLines: 2, NewStart: 15, NewLines: 0}}}, "[F()]"},
		{"huge hunk", gitdiff.File{Path: "a.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{h(1, 1<<29)}}, "[a.go T .M() F()]"},
		{"deleted file", gitdiff.File{Path: "b.go", Status: gitdiff.Deleted}, "[b.go G()]"},
		{"renamed, graph has old path", gitdiff.File{Path: "c.go", OldPath: "b.go", Status: gitdiff.Renamed, Hunks: []gitdiff.Hunk{h(2, 1)}}, "[G()]"},
		{"binary", gitdiff.File{Path: "b.go", Status: gitdiff.Modified, Binary: true}, "[b.go G()]"},
		{"unknown to the graph", gitdiff.File{Path: "new.go", Status: gitdiff.Untracked}, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Map(x, []gitdiff.File{tc.file})
			var labels []string
			for _, i := range m[0].Nodes {
				labels = append(labels, x.Node(i).Label)
			}
			if got := fmt.Sprint(labels); got != tc.want {
				t.Fatalf("touched %s, want %s", got, tc.want)
			}
		})
	}
}
