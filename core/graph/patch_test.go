package graph

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// naiveMergeEdges is mergeEdges one record at a time, as it was before
// runs were copied in bulk: the reference the fast merge must match.
func naiveMergeEdges(edges, fresh []Edge, keep func(int, *Edge) bool, needsFix func(*Edge) bool, fix func(*Edge)) []Edge {
	var out []Edge
	put := func(e Edge) {
		if k := len(out) - 1; k >= 0 && out[k].Key() == e.Key() {
			addSite(&out[k], e)
			return
		}
		out = append(out, e)
	}
	j := 0
	for i := range edges {
		e := &edges[i]
		if !keep(i, e) {
			continue
		}
		for j < len(fresh) && compareEdges(&fresh[j], e) < 0 {
			put(fresh[j])
			j++
		}
		c := *e
		if needsFix(&c) {
			fix(&c)
		}
		put(c)
	}
	for ; j < len(fresh); j++ {
		put(fresh[j])
	}
	return out
}

// TestMergeEdgesMatchesNaive: on random canonical graphs and patches,
// the bulk merge gives the same edges as merging one at a time, and
// from names each kept edge's origin.
func TestMergeEdgesMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ids := []string{"a", "b", "c", "d"}
	files := []string{"x.go", "y.go"}
	edge := func() Edge {
		return Edge{Source: ids[r.IntN(len(ids))], Target: ids[r.IntN(len(ids))], Relation: "calls",
			SourceFile: files[r.IntN(len(files))], SourceLocation: fmt.Sprintf("L%d", r.IntN(5)), Confidence: Extracted}
	}
	for round := range 500 {
		g := &Graph{}
		for range r.IntN(12) {
			g.Edges = append(g.Edges, edge())
		}
		g.Canonicalize()
		var fresh []Edge
		for range r.IntN(4) {
			fresh = append(fresh, edge())
		}
		slices.SortFunc(fresh, func(a, b Edge) int { return compareEdges(&a, &b) })
		drop := files[r.IntN(len(files))]
		keep := func(_ int, e *Edge) bool { return e.SourceFile != drop || r.IntN(2) == 0 }
		decisions := make([]bool, len(g.Edges))
		for i := range g.Edges {
			decisions[i] = keep(i, &g.Edges[i])
		}
		kept := func(i int, _ *Edge) bool { return decisions[i] }
		needsFix := func(e *Edge) bool {
			return slices.ContainsFunc(e.Sites, func(s Site) bool { return s.SourceFile == drop })
		}
		fix := func(e *Edge) {
			e.Sites = slices.DeleteFunc(slices.Clone(e.Sites), func(s Site) bool { return s.SourceFile == drop })
			if len(e.Sites) == 0 {
				e.Sites = nil
			}
		}
		want := naiveMergeEdges(g.Edges, fresh, kept, needsFix, fix)
		got, _, from := mergeEdges(g.Edges, fresh, kept, needsFix, fix)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: got\n%v\nwant\n%v", round, got, want)
		}
		for k, i := range from {
			if i >= 0 && got[k].Key() != g.Edges[i].Key() {
				t.Fatalf("round %d: from[%d] = %d names another edge", round, k, i)
			}
		}
	}
}

// TestLayoutBuildInPlace: on random layouts (records dropped, kept in
// order, added, changed), building in the old array gives the records
// building in a new one gives, whichever way the runs move.
func TestLayoutBuildInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 2000 {
		old := make([]string, r.IntN(40))
		for i := range old {
			old[i] = fmt.Sprint("old", i)
		}
		var l layout[string]
		for i := range old {
			for range r.IntN(3) * r.IntN(2) {
				l.put(fmt.Sprint("new", len(l.from)))
			}
			switch r.IntN(6) {
			case 0: // dropped
			case 1:
				l.keepAs(int32(i), old[i]+"'")
			default:
				l.from = append(l.from, int32(i))
			}
		}
		for range r.IntN(4) {
			l.put(fmt.Sprint("tail", len(l.from)))
		}
		want, copied := l.build(old, false)
		buf := slices.Grow(slices.Clone(old), max(0, len(l.from)-len(old)))
		got, reused := l.build(buf, true)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: in place\n%v\nwant\n%v", round, got, want)
		}
		if copied || !reused || len(got) > 0 && &got[0] != &buf[:1][0] {
			t.Fatalf("round %d: a slice with room was not reused, or a copy said it was", round)
		}
		if cap(want) < len(want)+patchSlack(len(want)) {
			t.Fatalf("round %d: a new slice has no spare room", round)
		}
	}
}

// TestMergeNodesKeepsOrder: kept and added nodes come out in id order
// and from names each kept node's index.
func TestMergeNodesKeepsOrder(t *testing.T) {
	a := []Node{{ID: "b"}, {ID: "d"}, {ID: "f"}, {ID: "h"}}
	b := []Node{{ID: "a"}, {ID: "e"}, {ID: "i"}}
	out, from := mergeNodes(a, b, func(n *Node) bool { return n.ID != "d" })
	var got []string
	for _, n := range out {
		got = append(got, n.ID)
	}
	if want := []string{"a", "b", "e", "f", "h", "i"}; !slices.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
	if want := []int32{-1, 0, -1, 2, 3, -1}; !slices.Equal(from, want) {
		t.Errorf("from %v, want %v", from, want)
	}
}

// TestApplyIndexedMatchesNewIndex: the index carried over a patch
// answers every lookup as an index built from scratch on the same graph.
func TestApplyIndexedMatchesNewIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	files := []string{"a.go", "b.go", "c.go"}
	mkNode := func(file string, k int) Node {
		return Node{ID: fmt.Sprintf("%s::f%d", file, k), Label: fmt.Sprintf("F%d()", k%5), SourceFile: file, Kind: "function"}
	}
	for round := range 200 {
		g := &Graph{}
		for _, f := range files {
			g.Nodes = append(g.Nodes, Node{ID: f, Label: f, SourceFile: f, Kind: "file"})
			for k := range r.IntN(6) {
				g.Nodes = append(g.Nodes, mkNode(f, k))
			}
		}
		g.Nodes = append(g.Nodes, Node{ID: "pkg", Label: "example.com/pkg", Kind: "package", SourceFile: "a.go"})
		rels := []string{"calls", "calls", "contains", "method"}
		randEdge := func(nodes []Node, file string) Edge {
			return Edge{Source: nodes[r.IntN(len(nodes))].ID, Target: nodes[r.IntN(len(nodes))].ID, Relation: rels[r.IntN(len(rels))],
				Confidence: Extracted, SourceFile: file, SourceLocation: fmt.Sprintf("L%d", r.IntN(9))}
		}
		for range r.IntN(30) {
			g.Edges = append(g.Edges, randEdge(g.Nodes, files[r.IntN(len(files))]))
		}
		g.Canonicalize()
		x := NewIndex(g)
		if r.IntN(4) > 0 {
			x.Owner(0) // built: a patch carries the owners over
		}
		// Patch one file at a time: some of its functions again, some
		// new, some gone. Each patch applies to the last one's result,
		// so tables carried over are carried over again.
		mkPatch := func(g *Graph) Patch {
			f := files[r.IntN(len(files))]
			p := Patch{Files: map[string]bool{f: true}}
			if r.IntN(4) > 0 { // else the file is deleted
				p.Nodes = append(p.Nodes, Node{ID: f, Label: f, SourceFile: f, Kind: "file"})
				for k := range r.IntN(8) {
					if r.IntN(3) > 0 {
						p.Nodes = append(p.Nodes, mkNode(f, k))
					}
				}
			}
			if len(p.Nodes) > 0 {
				all := append(slices.Clone(g.Nodes), p.Nodes...)
				for range r.IntN(8) {
					e := randEdge(all, f)
					e.Source = p.Nodes[r.IntN(len(p.Nodes))].ID
					p.Edges = append(p.Edges, e)
				}
			}
			return p
		}
		h := *g
		h.Nodes = slices.Grow(slices.Clone(g.Nodes), r.IntN(8))
		h.Edges = slices.Grow(slices.Clone(g.Edges), r.IntN(8))
		cur, inPlace := x, NewIndex(&h)
		if r.IntN(2) > 0 {
			inPlace.PreparePatches()
		}
		ref := g
		for step := range 3 {
			p := mkPatch(ref)
			ng, _ := ref.Apply(p, nil)
			want := NewIndex(ng)
			got, _ := cur.G.ApplyIndexed(p, cur)
			if !reflect.DeepEqual(got.G, ng) {
				t.Fatalf("round %d.%d: ApplyIndexed's graph differs from Apply's", round, step)
			}
			if err := sameLookups(got, want); err != nil {
				t.Fatalf("round %d.%d: %v", round, step, err)
			}
			ip, st := inPlace.G.ApplyIndexedInPlace(p, inPlace)
			fits := cap(inPlace.G.Nodes) >= len(ng.Nodes) && cap(inPlace.G.Edges) >= len(ng.Edges) &&
				inPlace.G.Nodes != nil && inPlace.G.Edges != nil // no array to reuse
			if st.InPlace != fits {
				t.Fatalf("round %d.%d: InPlace %v with room %v", round, step, st.InPlace, fits)
			}
			if !reflect.DeepEqual(ip.G, ng) {
				t.Fatalf("round %d.%d: ApplyIndexedInPlace's graph differs from Apply's:\n%v\nwant\n%v", round, step, ip.G, ng)
			}
			if err := sameLookups(ip, want); err != nil {
				t.Fatalf("round %d.%d: in place: %v", round, step, err)
			}
			if err := sameEdgeFiles(ip, want); err != nil {
				t.Fatalf("round %d.%d: in place: %v", round, step, err)
			}
			cur, inPlace, ref = got, ip, ng
		}
	}
}

// sameEdgeFiles compares a carried edge file table with one built.
func sameEdgeFiles(a, b *Index) error {
	if !a.efiles.ready.Load() {
		return nil
	}
	tb := b.edgeFiles()
	for e := range a.G.Edges {
		fa, fb := "", ""
		for f, k := range a.efiles.id {
			if k == a.efiles.of[e] {
				fa = f
			}
		}
		for f, k := range tb.id {
			if k == tb.of[e] {
				fb = f
			}
		}
		if fa != fb || a.efiles.sites[e] != tb.sites[e] {
			return fmt.Errorf("edge %d: file %q sites %v, want %q %v", e, fa, a.efiles.sites[e], fb, tb.sites[e])
		}
	}
	return nil
}

// sameLookups compares two indexes of one graph through their methods.
func sameLookups(a, b *Index) error {
	sorted := func(v []int32) []int32 { v = slices.Clone(v); slices.Sort(v); return v }
	for i := range a.G.Nodes {
		n := &a.G.Nodes[i]
		k := int32(i)
		switch {
		case a.ID(n.ID) != b.ID(n.ID):
			return fmt.Errorf("ID(%s): %d vs %d", n.ID, a.ID(n.ID), b.ID(n.ID))
		case !slices.Equal(a.WithLabel(n.Label), b.WithLabel(n.Label)):
			return fmt.Errorf("WithLabel(%s): %v vs %v", n.Label, a.WithLabel(n.Label), b.WithLabel(n.Label))
		case !slices.Equal(a.FileNodes(n.SourceFile), b.FileNodes(n.SourceFile)):
			return fmt.Errorf("FileNodes(%s) differ", n.SourceFile)
		case !slices.Equal(sorted(a.Out(k)), sorted(b.Out(k))) || !slices.Equal(sorted(a.In(k)), sorted(b.In(k))):
			return fmt.Errorf("adjacency of %s differs", n.ID)
		}
	}
	for e := range a.G.Edges {
		s1, t1 := a.Ends(int32(e))
		s2, t2 := b.Ends(int32(e))
		if s1 != s2 || t1 != t2 {
			return fmt.Errorf("Ends(%d): %d,%d vs %d,%d", e, s1, t1, s2, t2)
		}
	}
	for i := range a.G.Nodes {
		if a.Owner(int32(i)) != b.Owner(int32(i)) {
			return fmt.Errorf("Owner(%s): %d vs %d", a.G.Nodes[i].ID, a.Owner(int32(i)), b.Owner(int32(i)))
		}
	}
	if !maps.Equal(a.owners.pkg, b.owners.pkg) {
		return fmt.Errorf("packages of files: %v vs %v", a.owners.pkg, b.owners.pkg)
	}
	if a.ID("nope") != -1 {
		return fmt.Errorf("ID of a missing node is %d", a.ID("nope"))
	}
	return nil
}

// TestEmptyPatchMakesRoom: the empty patch serve applies to a new graph
// (to give its arrays spare room) changes no record and no lookup, and
// leaves room for patches in place.
func TestEmptyPatchMakesRoom(t *testing.T) {
	g := &Graph{Nodes: []Node{
		{ID: "a.go", Label: "a.go", SourceFile: "a.go", Kind: "file"},
		{ID: "a.go::f", Label: "f()", SourceFile: "a.go", Kind: "function"},
		{ID: "a.go::g", Label: "g()", SourceFile: "a.go", Kind: "function"},
	}, Edges: []Edge{
		{Source: "a.go", Target: "a.go::f", Relation: "contains", Confidence: Extracted, SourceFile: "a.go", SourceLocation: "L1"},
		{Source: "a.go::f", Target: "a.go::g", Relation: "calls", Confidence: Extracted, SourceFile: "a.go", SourceLocation: "L2",
			Sites: []Site{{SourceFile: "a.go", SourceLocation: "L3"}}},
	}}
	g.Canonicalize()
	want := &Graph{Nodes: slices.Clone(g.Nodes), Edges: slices.Clone(g.Edges)}
	x := NewIndex(g)
	x.PreparePatches()
	if g.HasRoom() {
		t.Fatal("a graph as decoded has room")
	}
	got, st := g.ApplyIndexed(Patch{}, x)
	if st != (PatchStats{}) {
		t.Errorf("stats %+v, want none", st)
	}
	if !reflect.DeepEqual(got.G.Nodes, want.Nodes) || !reflect.DeepEqual(got.G.Edges, want.Edges) {
		t.Fatal("the empty patch changed the graph")
	}
	if !got.G.HasRoom() {
		t.Error("no spare room after the empty patch")
	}
	if err := sameLookups(got, NewIndex(want)); err != nil {
		t.Fatal(err)
	}
	if err := sameEdgeFiles(got, NewIndex(want)); err != nil {
		t.Fatal(err)
	}
}
