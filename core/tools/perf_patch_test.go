package tools

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// TestPatchedPerfMatchesNewPerf: ranks and relation ids carried over a
// patch equal those built from scratch on the patched graph.
func TestPatchedPerfMatchesNewPerf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	files := []string{"a.go", "b.go", "c.go"}
	rels := []string{"calls", "contains", "references"}
	for round := range 200 {
		g := &graph.Graph{}
		for _, f := range files {
			for k := range 1 + r.IntN(6) {
				g.Nodes = append(g.Nodes, graph.Node{ID: fmt.Sprintf("%s::f%d", f, k), Label: fmt.Sprintf("F%d()", k), SourceFile: f, Kind: "function"})
			}
		}
		edge := func(src, file string) graph.Edge {
			return graph.Edge{Source: src, Target: g.Nodes[r.IntN(len(g.Nodes))].ID, Relation: rels[r.IntN(len(rels))],
				Confidence: graph.Extracted, SourceFile: file, SourceLocation: fmt.Sprintf("L%d", r.IntN(9))}
		}
		for range r.IntN(40) {
			n := g.Nodes[r.IntN(len(g.Nodes))]
			g.Edges = append(g.Edges, edge(n.ID, n.SourceFile))
		}
		g.Canonicalize()
		prev := newSnapshot(g, Options{})
		f := files[r.IntN(len(files))]
		p := graph.Patch{Files: map[string]bool{f: true}}
		for k := range r.IntN(8) {
			p.Nodes = append(p.Nodes, graph.Node{ID: fmt.Sprintf("%s::f%d", f, k), Label: fmt.Sprintf("F%d()", k), SourceFile: f, Kind: "function"})
		}
		for range r.IntN(10) {
			if len(p.Nodes) > 0 {
				p.Edges = append(p.Edges, edge(p.Nodes[r.IntN(len(p.Nodes))].ID, f))
			}
		}
		x, _ := g.ApplyIndexed(p, prev.x)
		got := patchedPerf(prev.p, prev.x, x)
		if got == nil {
			newRel := slices.ContainsFunc(p.Edges, func(e graph.Edge) bool { return !slices.Contains(prev.p.relNames, e.Relation) })
			if !newRel {
				t.Fatalf("round %d: not carried over, and no relation is new", round)
			}
			continue
		}
		want := newPerf(x.G, graph.NewIndex(x.G))
		if !slices.Equal(got.rank, want.rank) {
			t.Fatalf("round %d: rank %v, want %v", round, got.rank, want.rank)
		}
		// Relation ids may keep a name no edge has any more; each edge's
		// name is what counts.
		for e := range x.G.Edges {
			if a, b := got.relNames[got.relID[e]], want.relNames[want.relID[e]]; a != b {
				t.Fatalf("round %d: edge %d is %s, want %s", round, e, a, b)
			}
		}
	}
}
