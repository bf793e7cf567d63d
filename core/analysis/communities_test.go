package analysis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// cliques is two 5-cliques of calls in different directories joined by one
// bridge call, with a stub imported from one side.
func cliques(t testing.TB) *graph.Graph {
	var nodes, edges []string
	for _, side := range []string{"a", "b"} {
		for i := range 5 {
			nodes = append(nodes, fmt.Sprintf("%s%d function %s/x.go", side, i, side))
			for j := range i {
				edges = append(edges, fmt.Sprintf("%s%d calls %s%d", side, i, side, j))
			}
		}
	}
	nodes = append(nodes, "zstub package -")
	edges = append(edges, "a4 calls b0", "b1 references zstub", "b2 references zstub")
	return build(t, nodes, edges)
}

func TestTwoCliquesBridge(t *testing.T) {
	x := graph.NewIndex(cliques(t))
	comms := Communities(x, nil)
	if len(comms) != 2 {
		t.Fatalf("got %d communities, want 2: %+v", len(comms), comms)
	}
	got := assignment(x, comms)
	for _, side := range []string{"a", "b"} {
		for i := range 5 {
			if got[fmt.Sprintf("%s%d", side, i)] != got[side+"0"] {
				t.Errorf("%s%d not with %s0", side, i, side)
			}
		}
	}
	if got["a0"] == got["b0"] {
		t.Fatal("cliques merged")
	}
	// b holds the stub, so it is larger and gets id 0.
	if got["zstub"] != got["b0"] || got["b0"] != 0 {
		t.Errorf("stub should join b's community 0: %v", got)
	}
	if c := comms[1]; c.Cohesion != 1 || len(c.Members) != 5 {
		t.Errorf("clique a: cohesion %v, %d members", c.Cohesion, len(c.Members))
	}
	if comms[0].Name != "b: b0, b1, b2" {
		t.Errorf("name %q", comms[0].Name)
	}
	// Members by degree, then id: a4 has the bridge.
	if first := x.Node(comms[1].Members[0]).ID; first != "a4" {
		t.Errorf("first member %s, want a4", first)
	}
}

func TestCommunitiesIsolatedAndEmpty(t *testing.T) {
	if c := Communities(graph.NewIndex(&graph.Graph{}), nil); len(c) != 0 {
		t.Errorf("empty graph: %v", c)
	}
	x := graph.NewIndex(build(t, []string{"b function f.go", "a function f.go"}, nil))
	comms := Communities(x, nil)
	if len(comms) != 2 || x.Node(comms[0].Members[0]).ID != "a" || comms[0].Cohesion != 1 {
		t.Errorf("isolated nodes: %+v", comms)
	}
}

func TestCommunitiesDeterministic(t *testing.T) {
	g := synthetic(30, 8)
	x1, x2 := graph.NewIndex(g), graph.NewIndex(shuffled(g))
	c1, c2 := Communities(x1, nil), Communities(x2, nil)
	a1, a2 := assignment(x1, c1), assignment(x2, c2)
	if len(c1) < 5 {
		t.Fatalf("only %d communities", len(c1))
	}
	for id, c := range a1 {
		if a2[id] != c {
			t.Fatalf("node %s: community %d vs %d after shuffling", id, c, a2[id])
		}
	}
	for k := range c1 {
		if c1[k].Name != c2[k].Name || c1[k].Cohesion != c2[k].Cohesion || len(c1[k].Members) != len(c2[k].Members) {
			t.Fatalf("community %d differs: %+v vs %+v", k, c1[k], c2[k])
		}
		for j := range c1[k].Members {
			if x1.Node(c1[k].Members[j]).ID != x2.Node(c2[k].Members[j]).ID {
				t.Fatalf("community %d member order differs", k)
			}
		}
		if k > 0 && len(c1[k].Members) > len(c1[k-1].Members) {
			t.Fatalf("community %d larger than %d", k, k-1)
		}
	}
}

// TestCommunitiesStable edits one file (a new function calling two others,
// one call removed) and checks that most nodes keep their community id.
func TestCommunitiesStable(t *testing.T) {
	g := synthetic(30, 8)
	x := graph.NewIndex(g)
	before := assignment(x, Communities(x, nil))

	e := *g
	e.Nodes = slices.Clone(g.Nodes)
	e.Edges = slices.Clone(g.Edges)
	f := e.Nodes[x.ID("d007_f03_fn1")]
	f.ID, f.Label = "d007_f03_fn9", "Fn9()"
	e.Nodes = append(e.Nodes, f)
	e.Edges = append(e.Edges,
		graph.Edge{Source: "d007_f03_go", Target: f.ID, Relation: "contains", Confidence: graph.Extracted, Weight: 1},
		graph.Edge{Source: f.ID, Target: "d007_f03_fn2", Relation: "calls", Confidence: graph.Extracted, Weight: 1},
		graph.Edge{Source: f.ID, Target: "d012_f01_fn0", Relation: "calls", Confidence: graph.Extracted, Weight: 1})
	for k, ed := range e.Edges {
		if ed.Source == "d007_f03_fn0" && ed.Relation == "calls" {
			e.Edges = slices.Delete(e.Edges, k, k+1)
			break
		}
	}
	e.Canonicalize()
	y := graph.NewIndex(&e)
	plain := assignment(y, Communities(y, nil))
	after := assignment(y, Communities(y, before))
	kept, keptPlain := 0, 0
	for id, c := range before {
		if after[id] == c {
			kept++
		}
		if plain[id] == c {
			keptPlain++
		}
	}
	frac := float64(kept) / float64(len(before))
	t.Logf("ids kept: %.1f%% with prev, %.1f%% without", 100*frac, 100*float64(keptPlain)/float64(len(before)))
	if frac < 0.9 {
		t.Errorf("only %.1f%% of nodes kept their community id", 100*frac)
	}
}

func TestRemapUnmatchedTakesFreeIDs(t *testing.T) {
	x := graph.NewIndex(cliques(t))
	// Old ids: a's clique was 7, nothing was 0.
	prev := map[string]int{"a0": 7, "a1": 7, "a2": 7}
	got := assignment(x, Communities(x, prev))
	if got["a3"] != 7 || got["b0"] != 0 {
		t.Errorf("remap: %v", got)
	}
}

func TestLeidenBeatsOrMatchesLouvain(t *testing.T) {
	v := newView(graph.NewIndex(synthetic(40, 8)))
	ql := modularity(v.g, leiden(v.g, 1, true), 1)
	qv := modularity(v.g, leiden(v.g, 1, false), 1)
	t.Logf("modularity leiden %.4f louvain %.4f", ql, qv)
	if ql < qv-0.01 {
		t.Errorf("leiden %.4f well below louvain %.4f", ql, qv)
	}
}

func TestSplitOversized(t *testing.T) {
	// A ring of 40 nodes partitions into many arcs; forcing one label and a
	// limit of 10 must split it into pieces no larger than needed.
	n := 40
	g := buildCSR(n, func(emit func(a, b int32, w float64)) {
		for i := range n {
			emit(int32(i), int32((i+1)%n), 1)
		}
	})
	labels, split := splitOversized(g, make([]int32, n), 10, true)
	k := renumber(labels)
	if !split || k < 3 {
		t.Fatalf("ring not split: %d parts", k)
	}
}
