package graph

import (
	"slices"
	"strings"
)

// Patch replaces the part of a graph that some files gave: serve's
// provisional update after an edit, applied in a fraction of the time a
// full re-resolution takes (the exact graph follows in the background).
type Patch struct {
	// Files are the replaced files: changed, added and deleted ones. Their
	// nodes (all but package nodes, which other files share) and the edges
	// their facts gave are dropped.
	Files map[string]bool
	// Nodes and Edges are a resolution of the files (and, for context,
	// their neighbours): only the files' own nodes, package nodes the
	// graph lacks, and proven (EXTRACTED) edges from or into the files'
	// nodes whose both ends exist are taken. The rest needs the whole
	// graph to be right, so it waits for the exact update.
	Nodes []Node
	Edges []Edge
}

// PatchStats says what Apply changed.
type PatchStats struct {
	NodesRemoved, NodesAdded int
	EdgesRemoved, EdgesAdded int
	// InPlace: the records were rewritten in the graph's own arrays
	// (ApplyIndexedInPlace, when they had room).
	InPlace bool
}

// Apply returns g with p applied; g is not modified (its records are
// shared, never written), so readers of g are undisturbed. Nodes stay in
// id order and edges in canonical order, merged rather than re-sorted.
// Nodes that replace one of the same id keep its community; new nodes
// join the community of their file's node, the way a local assignment
// would place them until communities are recomputed.
//
// x indexes g when the caller has it (the served snapshot does): edge
// endpoints are then checked by node number instead of by id.
func (g *Graph) Apply(p Patch, x *Index) (*Graph, PatchStats) {
	if x != nil && x.G != g {
		x = nil
	}
	ng, st, _ := g.apply(p, x, false)
	return ng, st
}

// apply is Apply, also saying where each record came from. inPlace
// writes the result into g's own record arrays when they have room (see
// ApplyIndexedInPlace): g is unusable afterwards.
func (g *Graph) apply(p Patch, x *Index, inPlace bool) (*Graph, PatchStats, *Provenance) {
	var st PatchStats
	inFiles := p.member()
	dropped := map[string]*int{} // id -> community of a replaced node
	droppedAt := make([]bool, len(g.Nodes))
	fileComm := map[string]*int{}
	drop := func(i int) {
		n := &g.Nodes[i]
		if n.Kind != "package" {
			dropped[n.ID] = n.Community
			droppedAt[i] = true
			if n.Kind == "file" {
				fileComm[n.SourceFile] = n.Community
			}
		}
	}
	if x != nil { // the files' nodes, without reading every record
		for f := range p.Files {
			for _, i := range x.FileNodes(f) {
				drop(int(i))
			}
		}
	} else {
		for i := range g.Nodes {
			if inFiles(g.Nodes[i].SourceFile) {
				drop(i)
			}
		}
	}
	st.NodesRemoved = len(dropped)
	added := p.newNodes(g.Nodes, dropped, fileComm)
	st.NodesAdded = len(added)
	ownFile := map[string]bool{} // ids of the files' new nodes
	for i := range added {
		if p.Files[added[i].SourceFile] {
			ownFile[added[i].ID] = true
		}
	}
	// Read before the nodes move: in place, g's node records are then
	// the result's.
	gone, sited := p.droppedEdges(g, x, droppedAt, dropped, ownFile, inFiles)
	nl := planNodes(g.Nodes, added, droppedAt)
	nodes, nodesInPlace := nl.build(g.Nodes, inPlace)
	has := func(id string) bool {
		_, ok := slices.BinarySearchFunc(nodes, id, func(n Node, id string) int { return strings.Compare(n.ID, id) })
		return ok
	}
	var fresh []Edge
	for i := range p.Edges {
		e := &p.Edges[i]
		if e.Confidence == Extracted && (p.Files[e.SourceFile] || ownFile[e.Target]) && has(e.Source) && has(e.Target) {
			fresh = append(fresh, *e)
		}
	}
	slices.SortFunc(fresh, func(a, b Edge) int { return compareEdges(&a, &b) })
	var retargeted []int32
	for i, d := range gone {
		if !d {
			continue
		}
		st.EdgesRemoved++
		if x != nil {
			if _, dst := x.Ends(int32(i)); dst >= 0 {
				retargeted = append(retargeted, dst)
			}
		}
	}
	keep := func(i int, _ *Edge) bool { return !gone[i] }
	sitesInFiles := func(i int, e *Edge) bool {
		return sited[i] && slices.ContainsFunc(e.Sites, func(s Site) bool { return inFiles(s.SourceFile) })
	}
	el, n := planEdges(g.Edges, fresh, keep, sitesInFiles, func(e *Edge) {
		e.Sites = slices.DeleteFunc(slices.Clone(e.Sites), func(s Site) bool { return inFiles(s.SourceFile) })
		if len(e.Sites) == 0 {
			e.Sites = nil
		}
	})
	edges, edgesInPlace := el.build(g.Edges, inPlace)
	st.EdgesAdded = n
	st.InPlace = nodesInPlace && edgesInPlace
	out := *g
	out.Nodes, out.Edges = nodes, edges
	pv := &Provenance{Base: x, NodeFrom: nl.from, EdgeFrom: el.from, OldToNew: make([]int32, len(droppedAt)), retargeted: retargeted}
	for _, o := range el.over {
		pv.changedEdges = append(pv.changedEdges, o.at)
	}
	for f := range fileComm {
		pv.droppedFiles = append(pv.droppedFiles, f)
	}
	for i := range pv.OldToNew {
		pv.OldToNew[i] = -1
	}
	for i, o := range nl.from {
		if o >= 0 {
			pv.OldToNew[o] = int32(i)
		}
	}
	return &out, st, pv
}

// droppedEdges marks the edges of g the patch drops (their facts came
// from its files, or an end is a dropped node not given again) and those
// with sites (which may name its files). With x, that is read from the
// index: the files' edges from its edge-file table, the dropped nodes'
// edges from their adjacency, in tight loops over integers; without, from
// every record.
func (p Patch) droppedEdges(g *Graph, x *Index, droppedAt []bool, dropped map[string]*int, given map[string]bool, inFiles func(string) bool) (gone, sited []bool) {
	gone = make([]bool, len(g.Edges))
	if x == nil {
		sited = make([]bool, len(g.Edges))
		for i := range g.Edges {
			e := &g.Edges[i]
			gone[i] = inFiles(e.SourceFile) || isGone(e.Source, dropped, given) || isGone(e.Target, dropped, given)
			sited[i] = len(e.Sites) > 0
		}
		return gone, sited
	}
	t := x.edgeFiles()
	for f := range p.Files {
		if k, ok := t.id[f]; ok {
			for i, fk := range t.of {
				if fk == k {
					gone[i] = true
				}
			}
		}
	}
	for d, isDropped := range droppedAt {
		if !isDropped || given[g.Nodes[d].ID] {
			continue
		}
		for _, e := range x.Out(int32(d)) {
			gone[e] = true
		}
		for _, e := range x.In(int32(d)) {
			gone[e] = true
		}
	}
	return gone, t.sites
}

// member returns the test for "is in p.Files": a few string compares
// for the usual one or two files, run once per edge of the graph.
func (p Patch) member() func(string) bool {
	if len(p.Files) > 4 {
		return func(f string) bool { return p.Files[f] }
	}
	files := make([]string, 0, len(p.Files))
	for f := range p.Files {
		files = append(files, f)
	}
	return func(f string) bool { return slices.Contains(files, f) }
}

// isGone reports an endpoint whose node was dropped and not given again.
func isGone(id string, dropped map[string]*int, given map[string]bool) bool {
	_, d := dropped[id]
	return d && !given[id]
}

// newNodes picks the patch's nodes to add, sorted by id, with their
// communities.
func (p Patch) newNodes(old []Node, dropped map[string]*int, fileComm map[string]*int) []Node {
	exists := func(id string) bool {
		_, ok := slices.BinarySearchFunc(old, id, func(n Node, id string) int { return strings.Compare(n.ID, id) })
		_, d := dropped[id]
		return ok && !d
	}
	var added []Node
	seen := map[string]bool{}
	for _, n := range p.Nodes {
		own := p.Files[n.SourceFile] && n.Kind != "package"
		// An import the partial view could not place is a package stub
		// (no file): only real package nodes are new packages.
		newPackage := n.Kind == "package" && n.SourceFile != "" && !exists(n.ID)
		if seen[n.ID] || !own && !newPackage {
			continue // a neighbour's node, or an external stub only the whole graph can vouch for
		}
		seen[n.ID] = true
		n.Community = nil
		if c, ok := dropped[n.ID]; ok {
			n.Community = c
		} else if c := fileComm[n.SourceFile]; c != nil {
			n.Community = c
		}
		added = append(added, n)
	}
	slices.SortFunc(added, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	return added
}

// mergeNodes merges the id-sorted nodes a keeps with the id-sorted b
// (ids are distinct) into a new slice. from[k] is the index in a of
// out[k], or -1 for one of b.
func mergeNodes(a, b []Node, keep func(*Node) bool) (out []Node, from []int32) {
	dropped := make([]bool, len(a))
	for i := range a {
		dropped[i] = !keep(&a[i])
	}
	l := planNodes(a, b, dropped)
	out, _ = l.build(a, false)
	return out, l.from
}

// planNodes lays out mergeNodes' result (a without its dropped nodes,
// merged with b) without moving a record: a patch keeps all but a few of
// a large graph's records, so they are then moved in runs (layout.build).
// Where each of b goes is found by bisection, so the kept records are
// not read at all.
func planNodes(a, b []Node, dropped []bool) layout[Node] {
	l := layout[Node]{from: make([]int32, 0, len(a)+len(b))}
	i := 0
	for j := range b {
		at, _ := slices.BinarySearchFunc(a, b[j].ID, func(n Node, id string) int { return strings.Compare(n.ID, id) })
		for ; i < at; i++ {
			if !dropped[i] {
				l.from = append(l.from, int32(i))
			}
		}
		l.put(b[j])
	}
	for ; i < len(a); i++ {
		if !dropped[i] {
			l.from = append(l.from, int32(i))
		}
	}
	return l
}

// mergeEdges merges the sorted fresh edges into the sorted edges keep
// accepts into a new slice; an edge fix must change (its sites name a
// replaced file) is passed through fix on a copy. A fresh edge with the
// key of another becomes one of its sites, as Canonicalize would have
// made it. It returns the edges, how many records were added, and for
// each edge the index in edges it came from (-1: fresh).
func mergeEdges(edges, fresh []Edge, keep func(int, *Edge) bool, needsFix func(*Edge) bool, fix func(*Edge)) ([]Edge, int, []int32) {
	l, added := planEdges(edges, fresh, keep, func(_ int, e *Edge) bool { return needsFix(e) }, fix)
	out, _ := l.build(edges, false)
	return out, added, l.from
}

// planEdges lays out mergeEdges' result without moving a kept record
// (see planNodes). Kept edges are canonical already, so only an edge
// next to a fresh one can share its key.
func planEdges(edges, fresh []Edge, keep func(int, *Edge) bool, needsFix func(int, *Edge) bool, fix func(*Edge)) (layout[Edge], int) {
	l := layout[Edge]{from: make([]int32, 0, len(edges)+len(fresh))}
	added := 0
	// last is the record at the end of the output so far.
	last := func() *Edge {
		k := int32(len(l.from) - 1)
		if n := len(l.over); n > 0 && l.over[n-1].at == k {
			return &l.over[n-1].rec
		}
		return &edges[l.from[k]]
	}
	put := func(e Edge) {
		if len(l.from) > 0 && last().Key() == e.Key() {
			l.edit(edges, last()).addSite(e)
			return
		}
		l.put(e)
		added++
	}
	// at[j]: the first edge fresh[j] sorts before, found by bisection, so
	// the loop compares no strings.
	at := make([]int, len(fresh))
	for j := range fresh {
		at[j], _ = slices.BinarySearchFunc(edges, &fresh[j], func(e Edge, f *Edge) int {
			if compareEdges(f, &e) < 0 {
				return 1
			}
			return -1
		})
	}
	j := 0
	afterFresh := false // the next kept edge may share the key of the fresh one before it
	for i := range edges {
		e := &edges[i]
		if !keep(i, e) {
			continue
		}
		if j < len(fresh) && at[j] <= i {
			for j < len(fresh) && at[j] <= i {
				put(fresh[j])
				j++
			}
			afterFresh = true
		}
		switch {
		case needsFix(i, e):
			c := *e
			fix(&c)
			if len(l.from) > 0 && last().Key() == c.Key() {
				l.edit(edges, last()).addSite(c)
			} else {
				l.keepAs(int32(i), c)
			}
		case afterFresh && last().Key() == e.Key():
			l.edit(edges, last()).addSite(*e)
		default:
			l.from = append(l.from, int32(i))
		}
		afterFresh = false
	}
	for ; j < len(fresh); j++ {
		put(fresh[j])
	}
	return l, added
}

// layout says where each record of a patched slice comes from: from[k]
// is the index in the old slice of record k, or -1 for a new one; over
// holds, by ascending position, the records whose content is not the
// old record's (new ones, and kept ones with changed sites).
type layout[T any] struct {
	from []int32
	over []override[T]
}

type override[T any] struct {
	at  int32
	rec T
}

// put appends a new record.
func (l *layout[T]) put(rec T) {
	l.over = append(l.over, override[T]{int32(len(l.from)), rec})
	l.from = append(l.from, -1)
}

// keepAs appends old record i with changed content.
func (l *layout[T]) keepAs(i int32, rec T) {
	l.over = append(l.over, override[T]{int32(len(l.from)), rec})
	l.from = append(l.from, i)
}

// edit returns the last output record as one that may be changed: rec
// (the last record) itself when it is an override already, else a copy
// of the old record made an override.
func (l *layout[T]) edit(old []T, rec *T) *T {
	k := int32(len(l.from) - 1)
	if n := len(l.over); n > 0 && l.over[n-1].at == k {
		return rec
	}
	l.over = append(l.over, override[T]{k, old[l.from[k]]})
	return &l.over[len(l.over)-1].rec
}

// patchSlack is the spare room a rebuilt record slice gets, so that the
// next patches fit in place (ApplyIndexedInPlace): 1/64 of the records,
// a few thousand on a large graph, many edits' worth of new ones.
func patchSlack(n int) int { return n/64 + 64 }

// build lays the records out. Kept records move in runs (a patch keeps
// all but a few of a large graph's records). inPlace reuses old's array
// when it has room, moving the runs in an order that never overwrites a
// record still to be moved: a run that moves left goes first, left to
// right (its destination ends before its source ends, and starts after
// every earlier source); then the runs that move right, right to left.
// Otherwise the records go to a new array with patchSlack spare room.
// It reports whether old's array was reused.
func (l *layout[T]) build(old []T, inPlace bool) ([]T, bool) {
	n := len(l.from)
	var out []T
	if inPlace && cap(old) >= n && old != nil {
		out = old[:max(len(old), n)]
	} else {
		out = make([]T, max(len(old), n), n+patchSlack(n))
		inPlace = false
	}
	type run struct{ dst, src, n int }
	var right []run
	for k := 0; k < n; {
		a := l.from[k]
		if a < 0 {
			k++
			continue
		}
		e := k + 1
		for e < n && l.from[e] == a+int32(e-k) {
			e++
		}
		r := run{k, int(a), e - k}
		switch {
		case !inPlace || r.dst < r.src:
			copy(out[r.dst:r.dst+r.n], old[r.src:r.src+r.n])
		case r.dst > r.src:
			right = append(right, r)
		}
		k = e
	}
	for i := len(right) - 1; i >= 0; i-- {
		r := right[i]
		copy(out[r.dst:r.dst+r.n], out[r.src:r.src+r.n])
	}
	for _, o := range l.over {
		out[o.at] = o.rec
	}
	clear(out[n:]) // records moved away or dropped: no longer referenced
	return out[:n], inPlace
}

// addSite records e's places as sites of dst, an edge with the same key.
func (dst *Edge) addSite(e Edge) { addSite(dst, e) }

// addSite records e's places as sites of the edge with the same key.
func addSite(dst *Edge, e Edge) {
	sites := append(slices.Clone(dst.Sites), Site{e.SourceFile, e.SourceLocation})
	sites = append(sites, e.Sites...)
	primary := Site{dst.SourceFile, dst.SourceLocation}
	slices.SortFunc(sites, compareSites)
	sites = slices.Compact(sites)
	dst.Sites = slices.DeleteFunc(sites, func(s Site) bool { return s == primary })
}
